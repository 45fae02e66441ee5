package org.perflab.prediction;

import java.io.Serializable;
import java.util.Comparator;
import java.util.Objects;

/**
 * A configuration, as the harness holds out and predicts: the input-size class ({@link
 * org.perflab.grouping.SizeClass}) and the executors, cores per executor and executor memory.
 *
 * @param sizeClass round(log2 input bytes)
 * @param executors executors
 * @param coresPerExecutor cores per executor
 * @param executorMemoryBytes executor memory in bytes; null when unknown
 */
public record Configuration(int sizeClass, int executors, int coresPerExecutor, Long executorMemoryBytes)
    implements Serializable, Comparable<Configuration> {

  private static final Comparator<Configuration> ORDER = Comparator.comparingInt(Configuration::sizeClass)
      .thenComparingInt(Configuration::executors).thenComparingInt(Configuration::coresPerExecutor)
      .thenComparing(Configuration::executorMemoryBytes, Comparator.nullsFirst(Comparator.naturalOrder()));

  /** Task slots: executors × cores per executor. */
  public int totalCores() {
    return executors * coresPerExecutor;
  }

  /**
   * Whether {@code other} is in the same scaling series: the same size class, cores per executor and memory, so that
   * the two differ at most in their executor count (the series of reference 003, which keys on cores too).
   */
  public boolean sameSeries(Configuration other) {
    return sizeClass == other.sizeClass && coresPerExecutor == other.coresPerExecutor
        && Objects.equals(executorMemoryBytes, other.executorMemoryBytes);
  }

  @Override
  public int compareTo(Configuration other) {
    return ORDER.compare(this, other);
  }
}
