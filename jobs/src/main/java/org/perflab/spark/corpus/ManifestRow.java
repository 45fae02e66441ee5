package org.perflab.spark.corpus;

import java.util.List;

/**
 * One row of the run manifest: a grid point and how its run ended.
 *
 * @param gridPoint the point id ({@link CorpusPoint#id()}), also the run's {@code spark.perflab.grid.point}
 * @param workload workload id
 * @param scale scale profile
 * @param master the master the run was submitted to
 * @param executors executors asked for
 * @param coresPerExecutor cores per executor
 * @param executorMemory executor memory (driver memory on local masters)
 * @param slots executors × cores per executor
 * @param repetition repetition, 1-based
 * @param status how it ended
 * @param exitCode spark-submit's exit code (-1 killed at timeout or never started)
 * @param appId the Spark application id, empty when the application never started
 * @param logPath the event log (file or rolling directory), empty when none was found
 * @param wallTimeMs wall time of the spark-submit, JVM start to exit, milliseconds
 * @param startedAt start time, ISO-8601 UTC
 * @param runLog file holding the spark-submit's stdout and stderr
 */
public record ManifestRow(
    String gridPoint,
    String workload,
    String scale,
    String master,
    int executors,
    int coresPerExecutor,
    String executorMemory,
    int slots,
    int repetition,
    RunStatus status,
    int exitCode,
    String appId,
    String logPath,
    long wallTimeMs,
    String startedAt,
    String runLog) {

  static final List<String> HEADER = List.of("grid_point", "workload", "scale", "master", "executors",
      "cores_per_executor", "executor_memory", "slots", "repetition", "status", "exit_code", "app_id", "log_path",
      "wall_time_ms", "started_at", "run_log");

  List<String> values() {
    return List.of(gridPoint, workload, scale, master, Integer.toString(executors), Integer.toString(coresPerExecutor),
        executorMemory, Integer.toString(slots), Integer.toString(repetition), status.name(),
        Integer.toString(exitCode), appId, logPath, Long.toString(wallTimeMs), startedAt, runLog);
  }

  static ManifestRow of(List<String> values) {
    return new ManifestRow(values.get(0), values.get(1), values.get(2), values.get(3),
        Integer.parseInt(values.get(4)), Integer.parseInt(values.get(5)), values.get(6),
        Integer.parseInt(values.get(7)), Integer.parseInt(values.get(8)), RunStatus.valueOf(values.get(9)),
        Integer.parseInt(values.get(10)), values.get(11), values.get(12), Long.parseLong(values.get(13)),
        values.get(14), values.get(15));
  }
}
