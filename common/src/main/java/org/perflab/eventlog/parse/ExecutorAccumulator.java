package org.perflab.eventlog.parse;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;
import org.perflab.table.Table;
import org.perflab.table.TableRow;

/** One executor or the driver, with the totals the History Server's executor list shows. */
final class ExecutorAccumulator {
  final String executorId;
  String host;
  String hostPort;
  Integer totalCores;
  Long maxMemory;
  Long maxOnHeapMemory;
  Long maxOffHeapMemory;
  Long addTime;
  Long removeTime;
  String removeReason;
  Integer resourceProfileId;
  boolean excluded;
  /** Between ExecutorAdded (or BlockManagerAdded) and ExecutorRemoved; tasks count only then. */
  boolean live = true;
  long totalTasks;
  long completedTasks;
  long failedTasks;
  long totalDuration;
  long totalGcTime;
  long totalInputBytes;
  long totalShuffleRead;
  long totalShuffleWrite;
  /** Whether the History Server would show peak metrics: any task end or stage metrics while alive. */
  boolean peaksObserved;
  long evictedRddBlocks;
  long evictedRddBytes;
  private final Map<String, Long> peaks = new HashMap<>();

  ExecutorAccumulator(String executorId) {
    this.executorId = executorId;
  }

  boolean isDriver() {
    return "driver".equals(executorId) || "<driver>".equals(executorId);
  }

  /** Raises the peaks with an executor-metrics object ({@code "Task Executor Metrics"} or stage peaks). */
  void updatePeaks(JsonNode executorMetrics) {
    peaksObserved = true;
    if (executorMetrics == null) {
      return;
    }
    Iterator<Map.Entry<String, JsonNode>> fields = executorMetrics.fields();
    while (fields.hasNext()) {
      Map.Entry<String, JsonNode> field = fields.next();
      if (field.getValue().isNumber()) {
        peaks.merge(field.getKey(), field.getValue().longValue(), Math::max);
      }
    }
  }

  /** Raises the peaks with a task end's {@code "Task Executor Metrics"}. */
  void updatePeaks(TaskEvent event) {
    peaksObserved = true;
    for (int i = 0; i < event.executorMetricCount; i++) {
      peaks.merge(event.executorMetricNames[i], event.executorMetricValues[i], Math::max);
    }
  }

  /** Counts one RDD block its memory store evicted, of {@code bytes} in memory. */
  void evicted(long bytes) {
    evictedRddBlocks++;
    evictedRddBytes += bytes;
  }

  /**
   * The row. For the driver, {@code total_duration_ms} and {@code total_gc_time_ms} follow the History Server: the
   * application's uptime, and the driver JVM's own GC time when executor metrics were observed.
   *
   * @param applicationUptimeMs end minus start of the application, or null when it has not ended
   */
  TableRow toRow(Long applicationUptimeMs) {
    long duration = totalDuration;
    long gcTime = totalGcTime;
    if (isDriver()) {
      duration = applicationUptimeMs != null ? applicationUptimeMs : totalDuration;
      gcTime = peaksObserved ? peaks.getOrDefault("TotalGCTime", 0L) : totalGcTime;
    }
    return Table.EXECUTORS
        .newRow()
        .set("executor_id", isDriver() ? "driver" : executorId)
        .set("is_driver", isDriver())
        .set("host", host)
        .set("host_port", hostPort)
        .set("total_cores", totalCores)
        .set("max_memory_bytes", maxMemory)
        .set("max_on_heap_memory_bytes", maxOnHeapMemory)
        .set("max_off_heap_memory_bytes", maxOffHeapMemory)
        .set("add_time_ms", addTime)
        .set("remove_time_ms", removeTime)
        .set("remove_reason", removeReason)
        .set("resource_profile_id", resourceProfileId)
        .set("excluded", excluded)
        .set("total_tasks", totalTasks)
        .set("completed_tasks", completedTasks)
        .set("failed_tasks", failedTasks)
        .set("total_duration_ms", duration)
        .set("task_time_ms", totalDuration)
        .set("total_gc_time_ms", gcTime)
        .set("task_gc_time_ms", totalGcTime)
        .set("total_input_bytes", totalInputBytes)
        .set("total_shuffle_read_bytes", totalShuffleRead)
        .set("total_shuffle_write_bytes", totalShuffleWrite)
        .set("peak_jvm_heap_bytes", peaks.get("JVMHeapMemory"))
        .set("peak_jvm_off_heap_bytes", peaks.get("JVMOffHeapMemory"))
        .set("peak_on_heap_execution_bytes", peaks.get("OnHeapExecutionMemory"))
        .set("peak_on_heap_storage_bytes", peaks.get("OnHeapStorageMemory"))
        .set("peak_process_tree_jvm_rss_bytes", peaks.get("ProcessTreeJVMRSSMemory"))
        .set("peak_executor_metrics", peaks.isEmpty() ? null : new TreeMap<>(peaks))
        .set("evicted_rdd_blocks", evictedRddBlocks)
        .set("evicted_rdd_bytes", evictedRddBytes);
  }
}
