package org.perflab.spark.memory;

import org.perflab.memory.SparkMemorySettings;
import org.perflab.memory.TraceFilters;

/**
 * The model's settings.
 *
 * @param safetyFactor heap over the framework's managed need when there is no GC data, at least 1 (reference 004's
 *     first-run rule: 1.5)
 * @param smallBroadcastBytes broadcasts under this many bytes are left out of the broadcast cache, bytes
 */
public record MemoryParams(double safetyFactor, long smallBroadcastBytes) implements java.io.Serializable {
  /** Reference 004's defaults: the first-run rule's 50 % and the 32 KB broadcast filter. */
  public static final MemoryParams DEFAULTS =
      new MemoryParams(SparkMemorySettings.FIRST_RUN_SAFETY_FACTOR, TraceFilters.SMALL_BROADCAST_BYTES);
}
