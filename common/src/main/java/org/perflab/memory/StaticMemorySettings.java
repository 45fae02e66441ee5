package org.perflab.memory;

/**
 * The Spark settings that give a worker's framework minimums under the static memory manager ({@link
 * MemoryManager#STATIC}: Spark before 1.6): storage may fill heap × {@code spark.storage.memoryFraction} ×
 * {@code spark.storage.safetyFraction} (0.9), unroll memory included, and execution (shuffle, aggregation and sort
 * buffers) heap × {@code spark.shuffle.memoryFraction} × {@code spark.shuffle.safetyFraction} (0.8). There is no
 * reserved memory and neither region lends to the other.
 *
 * @param executorMemoryBytes spark.executor.memory, bytes (a whole number of MiB)
 * @param storageMemoryFraction spark.storage.memoryFraction
 * @param shuffleMemoryFraction spark.shuffle.memoryFraction
 * @param memoryOverheadBytes the executor's memory overhead (spark.yarn.executor.memoryOverhead), bytes (MiB)
 */
public record StaticMemorySettings(long executorMemoryBytes, double storageMemoryFraction,
    double shuffleMemoryFraction, long memoryOverheadBytes) {
  /** Spark's spark.storage.safetyFraction default. */
  public static final double STORAGE_SAFETY = 0.9;
  /** Spark's spark.shuffle.safetyFraction default. */
  public static final double SHUFFLE_SAFETY = 0.8;

  /**
   * The settings for {@code worker}'s minimums with a heap of {@code safetyFactor} × what the two regions must span
   * (storage ÷ 0.9 + execution ÷ 0.8), at least {@link SparkMemorySettings#MIN_HEAP_BYTES}, so that, as under the
   * unified manager ({@link SparkMemorySettings#of}), the rest of the heap is GC headroom and user memory. Each
   * fraction is rounded up to 0.01 and is at least {@link SparkMemorySettings#MIN_STORAGE_FRACTION}; sizes are
   * rounded up to MiB; the overhead is Spark's rule since 1.4, max(384 MiB, 10 % of the heap), as
   * {@link SparkMemorySettings}'s (Spark 1.1 to 1.3 took 7 %: the recommendation is then the larger).
   *
   * @param safetyFactor heap over the regions' span, at least 1 (reference 004's first-run rule: 1.5)
   */
  public static StaticMemorySettings of(WorkerMemory worker, double safetyFactor) {
    if (!(safetyFactor >= 1)) {
      throw new IllegalArgumentException("Cannot size the heap: the safety factor must be at least 1 (" + safetyFactor
          + ")");
    }
    double span = worker.storageBytes() / STORAGE_SAFETY + worker.executionBytes() / SHUFFLE_SAFETY;
    long heap = Math.max(SparkMemorySettings.MIN_HEAP_BYTES,
        SparkMemorySettings.roundUpMib((long) Math.ceil(safetyFactor * span)));
    return new StaticMemorySettings(heap, fraction(worker.storageBytes(), heap * STORAGE_SAFETY),
        fraction(worker.executionBytes(), heap * SHUFFLE_SAFETY), SparkMemorySettings.overheadBytes(heap));
  }

  /** The storage bytes these settings hold: heap × storage fraction × 0.9. */
  public long storageBytes() {
    return (long) (executorMemoryBytes * storageMemoryFraction * STORAGE_SAFETY);
  }

  /** The execution bytes these settings hold: heap × shuffle fraction × 0.8. */
  public long executionBytes() {
    return (long) (executorMemoryBytes * shuffleMemoryFraction * SHUFFLE_SAFETY);
  }

  /** The fraction of the heap whose region ({@code regionBytesAtOne}: the region at fraction 1) holds the need. */
  private static double fraction(long needBytes, double regionBytesAtOne) {
    return Math.min(1.0, Math.max(SparkMemorySettings.MIN_STORAGE_FRACTION,
        Math.ceil(needBytes / regionBytesAtOne * 100) / 100));
  }
}
