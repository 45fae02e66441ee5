package org.perflab.memory.gc;

/**
 * A block update or an RDD unpersist seen by the driver (Tier B telemetry, {@code blocks.jsonl}).
 *
 * @param action what happened
 * @param timeMs when the driver's listener saw it, epoch milliseconds (after the listener bus's delay)
 * @param executorId the executor whose BlockManager reported it; empty for an unpersist
 * @param blockId Spark's block name, e.g. {@code rdd_3_1}, {@code broadcast_0_piece0}; empty for an unpersist
 * @param kind the block's kind
 * @param rddId the RDD id of an RDD block or an unpersist, else -1
 * @param partition the partition of an RDD block, else -1
 * @param broadcastId the broadcast id of a broadcast block, else -1
 * @param useMemory whether the block's new storage level keeps it in memory
 * @param useDisk whether it keeps it on disk
 * @param memBytes bytes now held in memory (0 once dropped from memory), bytes
 * @param diskBytes bytes now held on disk, bytes
 */
public record BlockEvent(Action action, long timeMs, String executorId, String blockId, Kind kind, int rddId,
    int partition, long broadcastId, boolean useMemory, boolean useDisk, long memBytes, long diskBytes) {

  /** What a block event records. */
  public enum Action {
    /** A BlockManager reported a block's new status: stored, moved, or dropped (both sizes 0). */
    UPDATE,
    /** The application unpersisted an RDD. */
    UNPERSIST_RDD
  }

  /** The kind of block, from its name. */
  public enum Kind { RDD, BROADCAST, SHUFFLE, TASKRESULT, STREAM, OTHER }
}
