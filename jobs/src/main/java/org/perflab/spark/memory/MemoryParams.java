package org.perflab.spark.memory;

import org.perflab.memory.SparkMemorySettings;
import org.perflab.memory.TraceFilters;

/**
 * The model's settings.
 *
 * @param safetyFactor heap over the framework's managed need when there is no GC data, at least 1 (reference 004's
 *     first-run rule: 1.5)
 * @param smallBroadcastBytes broadcasts under this many bytes are left out of the broadcast cache, bytes
 * @param replayedTasks successful tasks replayed per application: every one up to this, beyond it the tasks of a
 *     sample of partition indices of about this many tasks ({@link ApplicationMemory})
 */
public record MemoryParams(double safetyFactor, long smallBroadcastBytes, long replayedTasks)
    implements java.io.Serializable {
  /** Successful tasks replayed per application before partition indices are sampled. */
  public static final long DEFAULT_REPLAYED_TASKS = 50_000;

  public MemoryParams {
    if (replayedTasks < 1) {
      throw new IllegalArgumentException("Cannot recommend memory: replayed tasks must be >= 1 (" + replayedTasks
          + ")");
    }
  }

  /** Settings that replay up to {@link #DEFAULT_REPLAYED_TASKS} tasks per application. */
  public MemoryParams(double safetyFactor, long smallBroadcastBytes) {
    this(safetyFactor, smallBroadcastBytes, DEFAULT_REPLAYED_TASKS);
  }

  /** Reference 004's defaults: the first-run rule's 50 % and the 32 KB broadcast filter. */
  public static final MemoryParams DEFAULTS =
      new MemoryParams(SparkMemorySettings.FIRST_RUN_SAFETY_FACTOR, TraceFilters.SMALL_BROADCAST_BYTES);
}
