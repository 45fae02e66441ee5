package org.perflab.testing;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.SparkConf;
import org.apache.spark.deploy.history.EventLogFileReader;
import org.apache.spark.scheduler.ReplayListenerBus;
import org.apache.spark.scheduler.ReplayListenerBus$;
import org.apache.spark.scheduler.SparkListenerInterface;
import org.apache.spark.status.AppStatusListener;
import org.apache.spark.status.AppStatusStore;
import org.apache.spark.status.ElementTrackingStore;
import org.apache.spark.status.api.v1.ExecutorSummary;
import org.apache.spark.status.api.v1.JobData;
import org.apache.spark.status.api.v1.StageData;
import org.apache.spark.util.kvstore.InMemoryStore;
import scala.Option;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Replays an event log through Spark's own {@code AppStatusListener}, exactly as the History Server rebuilds an
 * application's UI, and returns the stage, executor and job summaries its REST API would serve. Tests compare
 * PerfLab's tables with these.
 */
public final class HistoryServerReplay {
  private final List<StageData> stages;
  private final List<ExecutorSummary> executors;
  private final List<JobData> jobs;

  private HistoryServerReplay(List<StageData> stages, List<ExecutorSummary> executors, List<JobData> jobs) {
    this.stages = stages;
    this.executors = executors;
    this.jobs = jobs;
  }

  /** Replays the log at {@code path} (a file or a rolling directory, any Spark codec). */
  public static HistoryServerReplay replay(String path) throws IOException {
    SparkConf conf = new SparkConf().set("spark.appStateStore.asyncTracking.enable", "false");
    InMemoryStore store = new InMemoryStore();
    ElementTrackingStore tracking = new ElementTrackingStore(store, conf);
    AppStatusListener listener = new AppStatusListener(tracking, conf, false, Option.empty(), Option.empty());
    replayInto(path, listener);
    tracking.close(false);
    AppStatusStore status = new AppStatusStore(store, Option.empty(), Option.empty());
    return new HistoryServerReplay(
        new ArrayList<>(CollectionConverters.asJava(status.stageList(null, false, false, new double[0], List.of()))),
        new ArrayList<>(CollectionConverters.asJava(status.executorList(false))),
        new ArrayList<>(CollectionConverters.asJava(status.jobsList(null))));
  }

  /** Replays the log at {@code path} (a file or a rolling directory, any Spark codec) into {@code listener}. */
  static void replayInto(String path, SparkListenerInterface listener) throws IOException {
    ReplayListenerBus bus = new ReplayListenerBus();
    bus.addListener(listener);
    Path logPath = new Path(path);
    FileSystem fs = logPath.getFileSystem(new Configuration());
    EventLogFileReader reader = EventLogFileReader.apply(fs, logPath).get();
    for (FileStatus file : CollectionConverters.asJava(reader.listEventLogFiles())) {
      try (InputStream in = EventLogFileReader.openEventLog(file.getPath(), fs)) {
        bus.replay(in, file.getPath().toString(), !reader.completed(),
            ReplayListenerBus$.MODULE$.SELECT_ALL_FILTER());
      }
    }
  }

  /** Per stage attempt ({@code "stageId.attempt"}), the values PerfLab must match. */
  public Map<String, Map<String, Object>> stages() {
    Map<String, Map<String, Object>> byStage = new LinkedHashMap<>();
    for (StageData stage : stages) {
      Map<String, Object> values = new LinkedHashMap<>();
      values.put("status", stage.status().name());
      values.put("num_tasks", (long) stage.numTasks());
      values.put("num_complete_tasks", (long) stage.numCompleteTasks());
      values.put("num_failed_tasks", (long) stage.numFailedTasks());
      values.put("num_killed_tasks", (long) stage.numKilledTasks());
      values.put("num_completed_indices", (long) stage.numCompletedIndices());
      values.put("executor_run_time_ms", stage.executorRunTime());
      values.put("executor_cpu_time_ns", stage.executorCpuTime());
      values.put("executor_deserialize_time_ms", stage.executorDeserializeTime());
      values.put("executor_deserialize_cpu_time_ns", stage.executorDeserializeCpuTime());
      values.put("result_size_bytes", stage.resultSize());
      values.put("jvm_gc_time_ms", stage.jvmGcTime());
      values.put("result_serialization_time_ms", stage.resultSerializationTime());
      values.put("input_bytes", stage.inputBytes());
      values.put("input_records", stage.inputRecords());
      values.put("output_bytes", stage.outputBytes());
      values.put("output_records", stage.outputRecords());
      values.put("shuffle_read_bytes", stage.shuffleReadBytes());
      values.put("shuffle_read_records", stage.shuffleReadRecords());
      values.put("shuffle_remote_read_bytes", stage.shuffleRemoteBytesRead());
      values.put("shuffle_local_read_bytes", stage.shuffleLocalBytesRead());
      values.put("shuffle_fetch_wait_time_ms", stage.shuffleFetchWaitTime());
      values.put("shuffle_write_bytes", stage.shuffleWriteBytes());
      values.put("shuffle_write_records", stage.shuffleWriteRecords());
      values.put("shuffle_write_time_ns", stage.shuffleWriteTime());
      values.put("memory_spilled_bytes", stage.memoryBytesSpilled());
      values.put("disk_spilled_bytes", stage.diskBytesSpilled());
      byStage.put(stage.stageId() + "." + stage.attemptId(), values);
    }
    return byStage;
  }

  /** Per executor id, the values PerfLab must match. */
  public Map<String, Map<String, Object>> executors() {
    Map<String, Map<String, Object>> byExecutor = new LinkedHashMap<>();
    for (ExecutorSummary executor : executors) {
      Map<String, Object> values = new LinkedHashMap<>();
      values.put("total_tasks", (long) executor.totalTasks());
      values.put("completed_tasks", (long) executor.completedTasks());
      values.put("failed_tasks", (long) executor.failedTasks());
      values.put("total_duration_ms", executor.totalDuration());
      values.put("total_gc_time_ms", executor.totalGCTime());
      values.put("total_input_bytes", executor.totalInputBytes());
      values.put("total_shuffle_read_bytes", executor.totalShuffleRead());
      values.put("total_shuffle_write_bytes", executor.totalShuffleWrite());
      values.put("max_memory_bytes", executor.maxMemory());
      values.put("excluded", executor.isExcluded());
      values.put("add_time_ms", executor.addTime().getTime());
      values.put("remove_time_ms", executor.removeTime().isDefined() ? executor.removeTime().get().getTime() : null);
      if (executor.peakMemoryMetrics().isDefined()) {
        values.put("peak_jvm_heap_bytes", executor.peakMemoryMetrics().get().getMetricValue("JVMHeapMemory"));
      }
      byExecutor.put(executor.id(), values);
    }
    return byExecutor;
  }

  /** Per job id, the values PerfLab must match. */
  public Map<Integer, Map<String, Object>> jobs() {
    Map<Integer, Map<String, Object>> byJob = new LinkedHashMap<>();
    for (JobData job : jobs) {
      Map<String, Object> values = new LinkedHashMap<>();
      values.put("status", job.status().name());
      values.put("name", job.name());
      values.put("num_tasks", (long) job.numTasks());
      values.put("num_completed_tasks", (long) job.numCompletedTasks());
      values.put("num_failed_tasks", (long) job.numFailedTasks());
      values.put("num_killed_tasks", (long) job.numKilledTasks());
      values.put("num_skipped_tasks", (long) job.numSkippedTasks());
      values.put("num_completed_indices", (long) job.numCompletedIndices());
      values.put("num_completed_stages", (long) job.numCompletedStages());
      values.put("num_skipped_stages", (long) job.numSkippedStages());
      values.put("num_failed_stages", (long) job.numFailedStages());
      byJob.put(job.jobId(), values);
    }
    return byJob;
  }
}
