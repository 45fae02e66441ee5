package org.perflab.memory;

/**
 * The per-worker framework minimums of reference 004 §2.6 for W workers running K tasks at once each.
 *
 * @param storageBytes S_bc + (S_rdd / W + P_max) + TopK_part: cached blocks and broadcasts, bytes
 * @param unrollBytes TopK_part, the K largest partitions being computed, bytes (part of storageBytes under Spark's
 *     unified memory manager, which takes unroll memory from the storage pool)
 * @param executionBytes the K largest per-task execution needs, bytes
 * @param pageCacheBytes the shuffle files' no-miss page-cache size, not divided by W (reference 004 §5.2 item 4:
 *     the conservative reading), bytes
 */
public record WorkerMemory(long storageBytes, long unrollBytes, long executionBytes, long pageCacheBytes) {
  /**
   * The minimums for {@code workers} workers of {@code tasksPerWorker} task slots.
   *
   * @param workers W, at least 1
   * @param tasksPerWorker K, at least 1
   */
  public static WorkerMemory of(FrameworkNeeds needs, int workers, int tasksPerWorker) {
    if (workers < 1 || tasksPerWorker < 1) {
      throw new IllegalArgumentException(String.format("Cannot size workers: workers and tasks per worker must be at"
          + " least 1 (%d, %d)", workers, tasksPerWorker));
    }
    long unroll = needs.topPartitionBytes(tasksPerWorker);
    long storage = needs.broadcastNoMissBytes()
        + CacheDivision.perWorkerBytes(needs.rddNoMissBytes(), workers, needs.largestPartitionBytes()) + unroll;
    return new WorkerMemory(storage, unroll, needs.topExecutionBytes(tasksPerWorker), needs.shuffleNoMissBytes());
  }

  /** The memory Spark manages that this needs: storage (unroll included) plus execution, bytes. */
  public long managedBytes() {
    return storageBytes + executionBytes;
  }

  /** The per-worker maximum of two requirements, field by field: the safe combination over several runs. */
  public WorkerMemory max(WorkerMemory other) {
    return new WorkerMemory(Math.max(storageBytes, other.storageBytes), Math.max(unrollBytes, other.unrollBytes),
        Math.max(executionBytes, other.executionBytes), Math.max(pageCacheBytes, other.pageCacheBytes));
  }
}
