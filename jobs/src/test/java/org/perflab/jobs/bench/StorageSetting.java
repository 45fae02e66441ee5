package org.perflab.jobs.bench;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Executor memory settings that give Spark's unified memory manager a chosen storage size and execution size in a
 * fixed heap. Spark 4.1 manages M = (heap − 300 MiB) × {@code spark.memory.fraction} (heap as the JVM reports it,
 * {@code Runtime.maxMemory}); storage may fill all of M while execution leaves it free, and execution may evict
 * cached blocks until storage is down to M × {@code spark.memory.storageFraction}. So with M = storage + execution
 * and storageFraction = storage / M, the cache always keeps {@code storageBytes} and execution always gets
 * {@code executionBytes}.
 *
 * @param share the storage size as a fraction of the recommended storage (0.8 for 80 %)
 * @param storageBytes storage the run protects from eviction, bytes per executor
 * @param executionBytes execution memory, bytes per executor
 * @param heapBytes {@code spark.executor.memory}, bytes (a whole number of MiB)
 * @param memoryFraction {@code spark.memory.fraction}, rounded up to 1e-6 so that M is at least storage + execution
 * @param storageFraction {@code spark.memory.storageFraction}, rounded up to 1e-6
 */
public record StorageSetting(double share, long storageBytes, long executionBytes, long heapBytes,
    double memoryFraction, double storageFraction) {
  /** Spark's reserved system memory ({@code UnifiedMemoryManager.RESERVED_SYSTEM_MEMORY_BYTES}), bytes. */
  public static final long RESERVED_BYTES = 300L << 20;

  /**
   * The settings for {@code share} × {@code recommendedStorageBytes} of storage and {@code executionBytes} of
   * execution in a heap of {@code heapBytes}.
   *
   * @throws IllegalArgumentException when storage + execution do not fit in the heap less 300 MiB
   */
  public static StorageSetting of(double share, long recommendedStorageBytes, long executionBytes, long heapBytes) {
    long storage = Math.round(share * recommendedStorageBytes);
    long managed = storage + executionBytes;
    long usable = heapBytes - RESERVED_BYTES;
    if (usable <= 0 || managed > usable || managed <= 0) {
      throw new IllegalArgumentException("Cannot size the unified memory: storage + execution must be in (0, heap - "
          + "300 MiB] (" + managed + " of " + usable + " bytes)");
    }
    return new StorageSetting(share, storage, executionBytes, heapBytes, roundUp((double) managed / usable),
        roundUp((double) storage / managed));
  }

  /** Storage + execution as Spark computes it from these settings: (heap − 300 MiB) × fraction, bytes. */
  public long managedBytes() {
    return (long) ((heapBytes - RESERVED_BYTES) * memoryFraction);
  }

  /** The {@code --executor-memory} value, MiB with the {@code m} suffix. */
  public String executorMemory() {
    return (heapBytes >> 20) + "m";
  }

  private static double roundUp(double value) {
    return BigDecimal.valueOf(value).setScale(6, RoundingMode.CEILING).doubleValue();
  }
}
