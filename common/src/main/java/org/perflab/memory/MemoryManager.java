package org.perflab.memory;

import org.perflab.eventlog.SparkVersion;

/**
 * Which of Spark's memory managers a run's executors had, and so which settings size their memory.
 */
public enum MemoryManager {
  /**
   * Spark 1.6 and later: storage and execution share {@code spark.memory.fraction} of (heap − 300 MiB), of which
   * {@code spark.memory.storageFraction} is safe from eviction ({@link SparkMemorySettings}).
   */
  UNIFIED,
  /**
   * Spark before 1.6, and 1.6 to 2.4 with {@code spark.memory.useLegacyMode=true}: fixed regions,
   * {@code spark.storage.memoryFraction} × 0.9 of the heap for storage and {@code spark.shuffle.memoryFraction} × 0.8
   * for execution ({@link StaticMemorySettings}).
   */
  STATIC;

  /** The unified manager's share of (heap − 300 MiB) for storage and execution. */
  public static final String MEMORY_FRACTION_KEY = "spark.memory.fraction";
  /** The unified manager's share of its memory that is safe from eviction. */
  public static final String STORAGE_FRACTION_KEY = "spark.memory.storageFraction";
  /** The static manager's share of the heap for storage. */
  public static final String STATIC_STORAGE_FRACTION_KEY = "spark.storage.memoryFraction";
  /** The static manager's share of the heap for shuffle (execution). */
  public static final String STATIC_SHUFFLE_FRACTION_KEY = "spark.shuffle.memoryFraction";
  /** The property that keeps Spark 1.6 to 2.4 on the static manager. */
  public static final String LEGACY_MODE_KEY = "spark.memory.useLegacyMode";

  /** Spark's default spark.memory.fraction from 2.0 on. */
  public static final double MEMORY_FRACTION = 0.6;
  /** Spark's default spark.memory.fraction in 1.6. */
  public static final double MEMORY_FRACTION_1_6 = 0.75;
  /** Spark's default spark.memory.storageFraction. */
  public static final double STORAGE_FRACTION = 0.5;
  /** Spark's default spark.storage.memoryFraction (static manager). */
  public static final double STATIC_STORAGE_FRACTION = 0.6;
  /** Spark's default spark.shuffle.memoryFraction (static manager). */
  public static final double STATIC_SHUFFLE_FRACTION = 0.2;

  /** The first version with the unified manager, as {@link SparkVersion#minor}: 1.6. */
  public static final int UNIFIED_SINCE = 106;
  /** The first version whose spark.memory.fraction default is {@link #MEMORY_FRACTION}: 2.0 (SPARK-15796). */
  public static final int MEMORY_FRACTION_SINCE = 200;
  /** The first version without {@code spark.memory.useLegacyMode}: 3.0. */
  static final int LEGACY_MODE_UNTIL = 300;

  /** Spark's default spark.memory.fraction under {@code sparkVersion}: 0.75 in 1.6, else (unknown too) 0.6. */
  public static double memoryFractionDefault(String sparkVersion) {
    int version = SparkVersion.minor(sparkVersion);
    return version >= UNIFIED_SINCE && version < MEMORY_FRACTION_SINCE ? MEMORY_FRACTION_1_6 : MEMORY_FRACTION;
  }

  /**
   * The manager of a run of {@code sparkVersion} (null or unreadable: unknown, taken as today's {@link #UNIFIED}) with
   * {@code spark.memory.useLegacyMode} set to {@code legacyMode}, which Spark 1.6 to 2.4 honour.
   */
  public static MemoryManager of(String sparkVersion, boolean legacyMode) {
    int version = SparkVersion.minor(sparkVersion);
    if (version < 0) {
      return UNIFIED;
    }
    return version < UNIFIED_SINCE || (legacyMode && version < LEGACY_MODE_UNTIL) ? STATIC : UNIFIED;
  }
}
