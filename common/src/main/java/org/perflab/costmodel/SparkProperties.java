package org.perflab.costmodel;

import java.util.Locale;
import java.util.Map;
import org.apache.spark.network.util.JavaUtils;
import org.perflab.errors.BadInputException;
import org.perflab.eventlog.SparkVersion;
import org.perflab.memory.MemoryManager;

/**
 * A {@link CostConfig} from an application's Spark properties (the event log's "Spark Properties", or a candidate
 * configuration), with Spark ≥ 2's defaults for absent keys: spark.executor.memory 1g (a bare number is MiB, as Spark
 * reads it), spark.executor.cores 1, spark.task.cpus 1, spark.memory.fraction 0.6, spark.memory.storageFraction 0.5,
 * spark.shuffle.sort.bypassMergeThreshold 200, spark.shuffle.compress and spark.shuffle.spill.compress true, lz4, the
 * Java serializer; unified memory and the sort manager, with spilling always on. A run whose properties carry its
 * Spark version ({@link SparkVersion#PROPERTY}) gets that version's defaults and memory manager instead ({@link
 * #config}).
 */
public final class SparkProperties {
  private SparkProperties() {}

  /**
   * The configuration of {@code executors} executors under {@code props}; bad input names a malformed key. With the
   * run's Spark version under {@link SparkVersion#PROPERTY}, the defaults and the memory manager are that version's:
   * before 1.6 (and 1.6 to 2.4 with {@code spark.memory.useLegacyMode=true}) the static manager
   * ({@link MemoryModel.Legacy}: spark.shuffle.memoryFraction 0.2, spark.shuffle.safetyFraction 0.8), in 1.6
   * spark.memory.fraction 0.75, before 2.0 the snappy codec; without a version, today's.
   */
  public static CostConfig config(Map<String, String> props, int executors) {
    long memory = executorMemoryBytes(props);
    String version = props.get(SparkVersion.PROPERTY);
    MemoryModel model = MemoryManager.of(version, flag(props, MemoryManager.LEGACY_MODE_KEY, false))
        == MemoryManager.STATIC
        ? new MemoryModel.Legacy(number(props, MemoryManager.STATIC_SHUFFLE_FRACTION_KEY,
            MemoryManager.STATIC_SHUFFLE_FRACTION),
            number(props, "spark.shuffle.safetyFraction", MemoryModel.Legacy.DEFAULT.safetyFraction()))
        : new MemoryModel.Unified(number(props, MemoryManager.MEMORY_FRACTION_KEY,
            MemoryManager.memoryFractionDefault(version)),
            number(props, MemoryManager.STORAGE_FRACTION_KEY, MemoryManager.STORAGE_FRACTION), 0L);
    return new CostConfig(executors, (int) number(props, "spark.executor.cores", 1),
        (int) number(props, "spark.task.cpus", 1), memory, model, ShuffleManager.SORT,
        (int) number(props, "spark.shuffle.sort.bypassMergeThreshold", CostConfig.DEFAULT_BYPASS_THRESHOLD), true,
        flag(props, "spark.shuffle.compress", true), flag(props, "spark.shuffle.spill.compress", true),
        Codec.parse(props.getOrDefault("spark.io.compression.codec", Codec.defaultFor(version).shortName())),
        SerializerKind.parse(props.getOrDefault("spark.serializer", SerializerKind.JAVA.className())));
  }

  /** {@code spark.executor.memory} of {@code props} as bytes, Spark's default (1g) when unset ({@link #memoryBytes}). */
  public static long executorMemoryBytes(Map<String, String> props) {
    return memoryBytes(props.getOrDefault("spark.executor.memory", "1g"));
  }

  /** spark.executor.memory as bytes: k, m, g, t are binary units; a bare number is MiB. */
  public static long memoryBytes(String value) {
    try {
      return JavaUtils.byteStringAsMb(value.trim()) * 1024L * 1024L;
    } catch (NumberFormatException e) {
      throw new BadInputException("Cannot read spark.executor.memory: not a size (" + value + "; e.g. 512m, 4g)", e);
    }
  }

  private static double number(Map<String, String> props, String key, double fallback) {
    String v = props.get(key);
    if (v == null || v.isBlank()) {
      return fallback;
    }
    try {
      return Double.parseDouble(v.trim());
    } catch (NumberFormatException e) {
      throw new BadInputException("Cannot read " + key + ": not a number (" + v + ")", e);
    }
  }

  private static boolean flag(Map<String, String> props, String key, boolean fallback) {
    String v = props.getOrDefault(key, Boolean.toString(fallback)).trim().toLowerCase(Locale.ROOT);
    BadInputException.require(v.equals("true") || v.equals("false"), "Cannot read %s: not a boolean (%s; true or"
        + " false)", key, v);
    return v.equals("true");
  }
}
