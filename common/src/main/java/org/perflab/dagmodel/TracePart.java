package org.perflab.dagmodel;

import java.io.Serializable;

/**
 * One ingested row that goes into an {@link AppTrace}: the application, an executor, a job, a stage attempt, a task
 * attempt, or a stage's tasks summarised. Spark groups an application's parts together; {@link TraceAssembler} turns them into its trace.
 */
public sealed interface TracePart extends Serializable
    permits TracePart.AppPart, TracePart.ExecutorPart, AppTrace.JobTrace, AppTrace.StageTrace, AppTrace.TaskTrace,
    AppTrace.StageTasks {

  /**
   * The application row: id, workload id (by {@code org.perflab.grouping.WorkloadRule}), input size class
   * ({@code org.perflab.grouping.SizeClass}), start and end (epoch ms), whether the log completed, the most executor
   * cores alive at once (0 in local mode), {@code spark.task.cpus} (null when unset) and the run's input bytes
   * ({@code workloads.input_bytes}).
   */
  record AppPart(String appId, String workload, int sizeClass, long startMs, long endMs, boolean completed,
      int maxConcurrentCores, Integer taskCpus, long inputBytes) implements TracePart {}

  /** An executor row: whether it is the driver, and its cores (null for the driver outside local mode). */
  record ExecutorPart(boolean driver, Integer totalCores) implements TracePart {}
}
