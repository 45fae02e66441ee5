package org.perflab.memory;

import java.util.Arrays;

/**
 * What an application's trace says Spark needs, before it is divided among workers (reference 004 §2.6).
 *
 * @param rddNoMissBytes S_rdd: the no-miss size of the RDD cache over the whole cluster, bytes
 * @param broadcastNoMissBytes S_bc: the no-miss size of the broadcast cache, bytes (duplicated on every worker)
 * @param shuffleNoMissBytes the no-miss size of the page cache over the shuffle files (one item per shuffle), bytes
 * @param partitionBytes the size of every RDD partition the trace computes, stored or not, bytes
 * @param taskExecutionBytes the execution memory each task needed (aggregation and sort buffers), bytes
 */
public record FrameworkNeeds(long rddNoMissBytes, long broadcastNoMissBytes, long shuffleNoMissBytes,
    long[] partitionBytes, long[] taskExecutionBytes) {
  public FrameworkNeeds {
    partitionBytes = partitionBytes.clone();
    taskExecutionBytes = taskExecutionBytes.clone();
  }

  /** P_max: the largest partition, bytes (0 with none). */
  public long largestPartitionBytes() {
    return Arrays.stream(partitionBytes).max().orElse(0);
  }

  /** The sum of the {@code k} largest partitions, bytes. */
  public long topPartitionBytes(int k) {
    return topSum(partitionBytes, k);
  }

  /** The sum of the {@code k} largest task execution needs, bytes. */
  public long topExecutionBytes(int k) {
    return topSum(taskExecutionBytes, k);
  }

  /**
   * The repartition what-if of reference 004 §2.7: every partition-proportional size (partition sizes, per-task
   * execution) multiplied by {@code oldPartitions / newPartitions}; the whole-cache sizes stay.
   */
  public FrameworkNeeds repartitioned(int oldPartitions, int newPartitions) {
    if (oldPartitions < 1 || newPartitions < 1) {
      throw new IllegalArgumentException(String.format("Cannot repartition: partition counts must be at least 1"
          + " (%d -> %d)", oldPartitions, newPartitions));
    }
    double factor = oldPartitions / (double) newPartitions;
    return new FrameworkNeeds(rddNoMissBytes, broadcastNoMissBytes, shuffleNoMissBytes, scale(partitionBytes, factor),
        scale(taskExecutionBytes, factor));
  }

  private static long[] scale(long[] values, double factor) {
    return Arrays.stream(values).map(v -> (long) Math.ceil(v * factor)).toArray();
  }

  private static long topSum(long[] values, int k) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    long sum = 0;
    for (int i = sorted.length - 1; i >= Math.max(0, sorted.length - k); i--) {
      sum += sorted[i];
    }
    return sum;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FrameworkNeeds n && rddNoMissBytes == n.rddNoMissBytes
        && broadcastNoMissBytes == n.broadcastNoMissBytes && shuffleNoMissBytes == n.shuffleNoMissBytes
        && Arrays.equals(partitionBytes, n.partitionBytes) && Arrays.equals(taskExecutionBytes, n.taskExecutionBytes);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(rddNoMissBytes) + 31 * Arrays.hashCode(partitionBytes)
        + 17 * Arrays.hashCode(taskExecutionBytes);
  }

  @Override
  public String toString() {
    return "FrameworkNeeds[rdd=" + rddNoMissBytes + ", broadcast=" + broadcastNoMissBytes + ", shuffle="
        + shuffleNoMissBytes + ", partitions=" + partitionBytes.length + ", tasks=" + taskExecutionBytes.length + "]";
  }
}
