package org.perflab.spark.prediction;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Event logs whose truth is known: a standalone application of one map-only stage of {@code tasks} sleep tasks of
 * {@code taskMs} each on {@code executors} one-core executors, scheduled greedily in waves, after a fixed start-up and
 * before a fixed shutdown. Its runtime is {@link #runtimeMs}, exactly.
 *
 * @param executors one-core executors (task slots)
 * @param tasks tasks of the stage
 * @param taskMs each task's duration, ms
 * @param inputBytesPerTask bytes each task reads
 */
record SleepLogs(int executors, int tasks, long taskMs, long inputBytesPerTask) {
  /** Application start to job start, ms: executors register at the half-way point. */
  static final long STARTUP_MS = 1_000;
  /** Job end to application end, ms. */
  static final long SHUTDOWN_MS = 300;
  /** Epoch ms of the first application start. */
  static final long START_MS = 1_795_000_000_000L;

  /** Application start to end: start-up, ⌈tasks ÷ executors⌉ waves of one task, shutdown. */
  long runtimeMs() {
    return STARTUP_MS + (long) Math.ceil((double) tasks / executors) * taskMs + SHUTDOWN_MS;
  }

  /** Writes the log of repetition {@code rep} into {@code dir} and returns its path. */
  Path write(Path dir, String workload, int rep) {
    String appId = String.format(Locale.ROOT, "app-20261126000000-%02d%02d%d", executors, tasks, rep);
    long t0 = START_MS + rep * 3_600_000L + executors * 60_000L;
    List<String> lines = new ArrayList<>();
    lines.add("{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"3.5.1\"}");
    lines.add(String.format(Locale.ROOT, "{\"Event\":\"SparkListenerEnvironmentUpdate\",\"Spark Properties\":{"
        + "\"spark.master\":\"spark://master:7077\",\"spark.app.name\":\"sleep\",\"spark.executor.cores\":\"1\","
        + "\"spark.executor.instances\":\"%d\",\"spark.executor.memory\":\"1g\",\"spark.perflab.workload\":\"%s\"},"
        + "\"System Properties\":{},\"Classpath Entries\":{}}", executors, workload));
    lines.add(String.format(Locale.ROOT, "{\"Event\":\"SparkListenerApplicationStart\",\"App Name\":\"sleep\","
        + "\"App ID\":\"%s\",\"Timestamp\":%d,\"User\":\"perflab\"}", appId, t0));
    for (int e = 0; e < executors; e++) {
      lines.add(String.format(Locale.ROOT, "{\"Event\":\"SparkListenerExecutorAdded\",\"Timestamp\":%d,"
          + "\"Executor ID\":\"%d\",\"Executor Info\":{\"Host\":\"worker%d\",\"Total Cores\":1,\"Log Urls\":{}}}",
          t0 + STARTUP_MS / 2, e, e));
    }
    long jobStart = t0 + STARTUP_MS;
    lines.add(String.format(Locale.ROOT, "{\"Event\":\"SparkListenerJobStart\",\"Job ID\":0,\"Submission Time\":%d,"
        + "\"Stage Infos\":[%s],\"Stage IDs\":[0],\"Properties\":{}}", jobStart, stageInfo(0, 0)));
    lines.add(String.format(Locale.ROOT, "{\"Event\":\"SparkListenerStageSubmitted\",\"Stage Info\":%s,"
        + "\"Properties\":{}}", stageInfo(jobStart, 0)));
    long end = jobStart;
    for (int i = 0; i < tasks; i++) {
      long launch = jobStart + (i / executors) * taskMs;
      long finish = launch + taskMs;
      end = Math.max(end, finish);
      String info = taskInfo(i, i % executors, launch, finish);
      lines.add(String.format(Locale.ROOT, "{\"Event\":\"SparkListenerTaskStart\",\"Stage ID\":0,"
          + "\"Stage Attempt ID\":0,\"Task Info\":%s}", taskInfo(i, i % executors, launch, 0)));
      lines.add(String.format(Locale.ROOT, "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":0,"
          + "\"Stage Attempt ID\":0,\"Task Type\":\"ResultTask\",\"Task End Reason\":{\"Reason\":\"Success\"},"
          + "\"Task Info\":%s,\"Task Metrics\":{\"Executor Deserialize Time\":0,\"Executor Run Time\":%d,"
          + "\"Result Size\":1000,\"JVM GC Time\":0,\"Result Serialization Time\":0,\"Memory Bytes Spilled\":0,"
          + "\"Disk Bytes Spilled\":0,\"Input Metrics\":{\"Bytes Read\":%d,\"Records Read\":%d}}}",
          info, taskMs, inputBytesPerTask, inputBytesPerTask / 100));
    }
    lines.add(String.format(Locale.ROOT, "{\"Event\":\"SparkListenerStageCompleted\",\"Stage Info\":%s}",
        stageInfo(jobStart, end)));
    lines.add(String.format(Locale.ROOT, "{\"Event\":\"SparkListenerJobEnd\",\"Job ID\":0,\"Completion Time\":%d,"
        + "\"Job Result\":{\"Result\":\"JobSucceeded\"}}", end));
    lines.add(String.format(Locale.ROOT, "{\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":%d}",
        end + SHUTDOWN_MS));
    try {
      Files.createDirectories(dir);
      Path file = dir.resolve(appId);
      Files.write(file, lines, StandardCharsets.UTF_8);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private String stageInfo(long submitted, long completed) {
    return String.format(Locale.ROOT, "{\"Stage ID\":0,\"Stage Attempt ID\":0,\"Stage Name\":\"sleep\","
        + "\"Number of Tasks\":%d,\"RDD Info\":[],\"Parent IDs\":[],\"Details\":\"\"%s%s,\"Accumulables\":[]}",
        tasks, submitted > 0 ? ",\"Submission Time\":" + submitted : "",
        completed > 0 ? ",\"Completion Time\":" + completed : "");
  }

  private static String taskInfo(int index, int executor, long launch, long finish) {
    return String.format(Locale.ROOT, "{\"Task ID\":%d,\"Index\":%d,\"Attempt\":0,\"Launch Time\":%d,"
        + "\"Executor ID\":\"%d\",\"Host\":\"worker%d\",\"Locality\":\"PROCESS_LOCAL\",\"Speculative\":false,"
        + "\"Getting Result Time\":0,\"Finish Time\":%d,\"Failed\":false,\"Killed\":false,\"Accumulables\":[]}",
        index, index, launch, executor, executor, finish);
  }
}
