package org.perflab.recommend;

/**
 * The {@code spark.sql.shuffle.partitions} (and {@code spark.default.parallelism}) rule: enough partitions that each
 * holds about {@link #TARGET_BYTES} (128 MiB) of the workload's observed shuffle bytes, at least one per core, and a
 * whole number of waves (rounded up to a multiple of the total cores, so that no wave runs part-empty). Without
 * observed shuffle bytes, {@link #TASKS_PER_CORE_UNKNOWN} waves (Spark's tuning guide: 2–3 tasks per core).
 */
public final class ShufflePartitions {
  /** Shuffle bytes per partition aimed at: 128 MiB. */
  public static final long TARGET_BYTES = 128L << 20;
  /** Waves when the shuffle size is unknown. */
  public static final int TASKS_PER_CORE_UNKNOWN = 3;

  private ShufflePartitions() {}

  /**
   * The partitions for {@code shuffleBytes} over {@code totalCores} task slots.
   *
   * @param shuffleBytes the workload's median shuffle bytes read per run in this size class, bytes; null when unknown
   * @param totalCores executors × cores per executor, ≥ 1
   */
  public static int of(Long shuffleBytes, int totalCores) {
    int cores = Math.max(1, totalCores);
    if (shuffleBytes == null || shuffleBytes < 0) {
      return cores * TASKS_PER_CORE_UNKNOWN;
    }
    long bySize = Math.max(1, (shuffleBytes + TARGET_BYTES - 1) / TARGET_BYTES);
    long waves = Math.max(1, (bySize + cores - 1) / cores);
    return (int) Math.min(Integer.MAX_VALUE, waves * cores);
  }
}
