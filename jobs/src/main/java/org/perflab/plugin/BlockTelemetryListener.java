package org.perflab.plugin;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import org.apache.spark.executor.TaskMetrics;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerBlockUpdated;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.SparkListenerUnpersistRDD;
import org.apache.spark.scheduler.TaskInfo;
import org.apache.spark.storage.BlockId;
import org.apache.spark.storage.BlockUpdatedInfo;
import org.apache.spark.storage.BroadcastBlockId;
import org.apache.spark.storage.RDDBlockId;
import org.apache.spark.storage.StorageLevel;

/**
 * The driver side's SparkListener: every block update (what BlockManagers report to the master: RDD partitions and
 * broadcast pieces stored, moved to disk or dropped), every unpersisted RDD, and every task's memory-related metrics.
 * Records go to {@code blocks.jsonl} and {@code tasks.jsonl}; ids, sizes and counters only, never a property value, a
 * call site or an error message.
 */
final class BlockTelemetryListener extends SparkListener {
  static final String BLOCKS = "blocks.jsonl";
  static final String TASKS = "tasks.jsonl";

  private final BiConsumer<String, List<String>> sink;

  /** @param sink appends records (JSON lines) to a file of the telemetry directory */
  BlockTelemetryListener(BiConsumer<String, List<String>> sink) {
    this.sink = sink;
  }

  @Override
  public void onBlockUpdated(SparkListenerBlockUpdated event) {
    BlockUpdatedInfo info = event.blockUpdatedInfo();
    BlockId id = info.blockId();
    StorageLevel level = info.storageLevel();
    Map<String, Object> record = new LinkedHashMap<>();
    record.put("type", "block");
    record.put("time_ms", System.currentTimeMillis());
    record.put("executor", info.blockManagerId().executorId());
    record.put("block", id.name());
    record.put("kind", kind(id));
    if (id instanceof RDDBlockId rdd) {
      record.put("rdd_id", rdd.rddId());
      record.put("partition", rdd.splitIndex());
    } else if (id instanceof BroadcastBlockId broadcast) {
      record.put("broadcast_id", broadcast.broadcastId());
    }
    record.put("use_memory", level.useMemory());
    record.put("use_disk", level.useDisk());
    record.put("deserialized", level.deserialized());
    record.put("replication", level.replication());
    record.put("mem_bytes", info.memSize());
    record.put("disk_bytes", info.diskSize());
    sink.accept(BLOCKS, List.of(JsonLines.of(record)));
  }

  @Override
  public void onUnpersistRDD(SparkListenerUnpersistRDD event) {
    Map<String, Object> record = new LinkedHashMap<>();
    record.put("type", "unpersist_rdd");
    record.put("time_ms", System.currentTimeMillis());
    record.put("rdd_id", event.rddId());
    sink.accept(BLOCKS, List.of(JsonLines.of(record)));
  }

  @Override
  public void onTaskEnd(SparkListenerTaskEnd event) {
    TaskInfo task = event.taskInfo();
    TaskMetrics metrics = event.taskMetrics();
    Map<String, Object> record = new LinkedHashMap<>();
    record.put("type", "task");
    record.put("stage", event.stageId());
    record.put("stage_attempt", event.stageAttemptId());
    record.put("task", task.taskId());
    record.put("executor", task.executorId());
    record.put("launch_ms", task.launchTime());
    record.put("finish_ms", task.finishTime());
    record.put("successful", task.successful());
    if (metrics != null) {
      record.put("gc_ms", metrics.jvmGCTime());
      record.put("peak_execution_bytes", metrics.peakExecutionMemory());
      record.put("memory_spilled_bytes", metrics.memoryBytesSpilled());
      record.put("disk_spilled_bytes", metrics.diskBytesSpilled());
      record.put("input_bytes", metrics.inputMetrics().bytesRead());
      record.put("shuffle_read_bytes", metrics.shuffleReadMetrics().totalBytesRead());
      record.put("shuffle_write_bytes", metrics.shuffleWriteMetrics().bytesWritten());
    }
    sink.accept(TASKS, List.of(JsonLines.of(record)));
  }

  /** rdd, broadcast, shuffle, taskresult, stream or other, from the block id's name. */
  static String kind(BlockId id) {
    String name = id.name();
    for (String kind : List.of("rdd", "broadcast", "shuffle", "taskresult", "input", "stream")) {
      if (name.startsWith(kind)) {
        return kind.equals("input") ? "stream" : kind;
      }
    }
    return "other";
  }
}
