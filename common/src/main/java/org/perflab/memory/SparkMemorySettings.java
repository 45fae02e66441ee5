package org.perflab.memory;

/**
 * The Spark settings that give a worker's framework minimums under the unified memory manager (Spark 1.6 and later):
 * Spark manages {@code (spark.executor.memory - 300 MiB) × spark.memory.fraction} bytes, shared by storage and
 * execution, of which {@code spark.memory.storageFraction} is safe from eviction by execution.
 *
 * @param executorMemoryBytes spark.executor.memory, bytes (a whole number of MiB)
 * @param memoryFraction spark.memory.fraction
 * @param storageFraction spark.memory.storageFraction
 * @param memoryOverheadBytes spark.executor.memoryOverhead, bytes (a whole number of MiB)
 */
public record SparkMemorySettings(long executorMemoryBytes, double memoryFraction, double storageFraction,
    long memoryOverheadBytes) {
  public static final long MIB = 1L << 20;
  /** The heap Spark reserves before applying spark.memory.fraction, bytes. */
  public static final long RESERVED_BYTES = 300 * MIB;
  /** The smallest heap Spark accepts: 1.5 × the reserved memory, bytes. */
  public static final long MIN_HEAP_BYTES = 450 * MIB;
  /** Spark's default overhead: 10 % of the heap, at least 384 MiB. */
  public static final double OVERHEAD_FACTOR = 0.10;
  public static final long MIN_OVERHEAD_BYTES = 384 * MIB;
  /** The first-run rule of reference 004 §1.2: the heap is the framework's need plus 50 %. */
  public static final double FIRST_RUN_SAFETY_FACTOR = 1.5;
  static final double MIN_FRACTION = 0.1;
  static final double MIN_STORAGE_FRACTION = 0.05;
  static final double MAX_STORAGE_FRACTION = 0.95;

  /**
   * The settings for {@code worker}'s minimums with a heap of {@code safetyFactor} × the managed memory (plus the
   * reserved 300 MiB), so that spark.memory.fraction leaves the rest of the heap as GC headroom and user memory;
   * storageFraction protects the storage minimum. Fractions are rounded up (to 0.001 and 0.01), sizes up to MiB.
   *
   * @param safetyFactor heap over managed memory, at least 1 (reference 004's first-run rule: 1.5)
   */
  public static SparkMemorySettings of(WorkerMemory worker, double safetyFactor) {
    if (!(safetyFactor >= 1)) {
      throw new IllegalArgumentException("Cannot size the heap: the safety factor must be at least 1 (" + safetyFactor
          + ")");
    }
    long managed = worker.managedBytes();
    return withHeap(worker, RESERVED_BYTES + (long) Math.ceil(safetyFactor * managed));
  }

  /**
   * The settings for {@code worker}'s minimums in a heap of {@code heapBytes} (rounded up to MiB, at least
   * {@link #MIN_HEAP_BYTES}): a heap sized by the GC model (Tier B) rather than by a safety factor. The fractions give
   * Spark at least the managed need, as {@link #of} does.
   */
  public static SparkMemorySettings withHeap(WorkerMemory worker, long heapBytes) {
    long managed = worker.managedBytes();
    long heap = Math.max(MIN_HEAP_BYTES, roundUpMib(heapBytes));
    double fraction = Math.min(1.0, Math.max(MIN_FRACTION, ceil(managed / (double) (heap - RESERVED_BYTES), 1000)));
    double usable = (heap - RESERVED_BYTES) * fraction;
    double storageFraction = Math.min(MAX_STORAGE_FRACTION,
        Math.max(MIN_STORAGE_FRACTION, ceil(worker.storageBytes() / usable, 100)));
    return new SparkMemorySettings(heap, fraction, storageFraction, overheadBytes(heap));
  }

  /** The bytes Spark manages with these settings: (heap - 300 MiB) × memoryFraction. */
  public long managedBytes() {
    return (long) ((executorMemoryBytes - RESERVED_BYTES) * memoryFraction);
  }

  /** The bytes of the managed memory safe from eviction by execution. */
  public long protectedStorageBytes() {
    return (long) (managedBytes() * storageFraction);
  }

  /** Spark's default overhead of a heap of {@code heapBytes}: max(384 MiB, 10 % of it), rounded up to MiB. */
  static long overheadBytes(long heapBytes) {
    return Math.max(MIN_OVERHEAD_BYTES, roundUpMib((long) Math.ceil(OVERHEAD_FACTOR * heapBytes)));
  }

  static long roundUpMib(long bytes) {
    return -Math.floorDiv(-bytes, MIB) * MIB;
  }

  private static double ceil(double value, int scale) {
    return Math.ceil(value * scale) / scale;
  }
}
