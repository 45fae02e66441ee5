package org.perflab.recommend;

/**
 * The executor memory {@code recommend} sets, and where it came from.
 *
 * @param executorMemoryBytes {@code spark.executor.memory}, bytes; null when unknown (neither recommended nor set)
 * @param overheadBytes {@code spark.executor.memoryOverhead}, bytes; null for Spark's default
 * @param source where the memory came from, as the evidence says it (for example {@code memory_recommendations tier
 *     A}, or {@code observed})
 * @param settings the memory manager's fractions that the size was computed with, {@code key=value} each
 *     ({@code spark.memory.fraction=0.667}, or the static manager's {@code spark.storage.memoryFraction=0.05}); empty
 *     when none
 */
public record Memory(Long executorMemoryBytes, Long overheadBytes, String source, java.util.List<String> settings)
    implements java.io.Serializable {
  /** Spark's default overhead: max(384 MiB, 10 % of the executor memory). */
  public static final long MIN_OVERHEAD_BYTES = 384L << 20;
  public static final double OVERHEAD_FRACTION = 0.10;
  private static final double GIB = 1024.0 * 1024 * 1024;

  public Memory {
    settings = settings == null ? java.util.List.of() : java.util.List.copyOf(settings);
  }

  /** A memory without fractions to set. */
  public Memory(Long executorMemoryBytes, Long overheadBytes, String source) {
    this(executorMemoryBytes, overheadBytes, source, java.util.List.of());
  }

  /**
   * What one executor's container holds, GiB: executor memory plus overhead (the given one, else Spark's default);
   * null when the executor memory is unknown.
   */
  public Double containerGib() {
    if (executorMemoryBytes == null) {
      return null;
    }
    long overhead = overheadBytes != null ? overheadBytes
        : Math.max(MIN_OVERHEAD_BYTES, (long) (OVERHEAD_FRACTION * executorMemoryBytes));
    return (executorMemoryBytes + overhead) / GIB;
  }

  /** This memory, or the candidate's own when this has none. */
  public Memory orElse(Long candidateBytes) {
    return executorMemoryBytes != null ? this : new Memory(candidateBytes, null, source);
  }
}
