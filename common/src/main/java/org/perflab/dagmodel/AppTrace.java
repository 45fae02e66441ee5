package org.perflab.dagmodel;

import java.io.Serializable;
import java.util.List;

/**
 * What the simulator model of one application run is built from, as ingested from its event log. Times are epoch
 * milliseconds; {@code slots} is the run's task slots (total executor cores ÷ {@code spark.task.cpus});
 * {@code workload} groups runs of the same application (its workload id by {@code org.perflab.grouping.WorkloadRule});
 * {@code inputBytes} is the run's input size in bytes, as {@code workloads.input_bytes} (0 when it read nothing).
 */
public record AppTrace(String appId, String workload, long startMs, long endMs, int slots, List<JobTrace> jobs,
    List<StageTrace> stages, List<TaskTrace> tasks, long inputBytes) implements Serializable {

  public AppTrace {
    jobs = List.copyOf(jobs);
    stages = List.copyOf(stages);
    tasks = List.copyOf(tasks);
  }

  /** A trace whose input size is not known (0). */
  public AppTrace(String appId, String workload, long startMs, long endMs, int slots, List<JobTrace> jobs,
      List<StageTrace> stages, List<TaskTrace> tasks) {
    this(appId, workload, startMs, endMs, slots, jobs, stages, tasks, 0L);
  }

  /** Application duration (start to end event) in seconds: what a model of it predicts. */
  public double durationS() {
    return (endMs - startMs) / 1000.0;
  }

  /** A job: its submission and completion times and the ids of the stages it lists (executed or skipped). */
  public record JobTrace(int jobId, long submissionMs, long completionMs, List<Integer> stageIds)
      implements TracePart {
    public JobTrace {
      stageIds = List.copyOf(stageIds);
    }
  }

  /**
   * One attempt of a stage: its parents, its number of tasks (partitions), whether it was skipped (listed by a job but
   * never submitted, its output being reused), and its submission and completion times (epoch ms; -1 if unknown).
   */
  public record StageTrace(int stageId, int attempt, List<Integer> parentIds, int numTasks, boolean skipped,
      long submissionMs, long completionMs) implements TracePart {
    public StageTrace {
      parentIds = List.copyOf(parentIds);
    }

    /** A stage attempt whose times are unknown. */
    public StageTrace(int stageId, int attempt, List<Integer> parentIds, int numTasks, boolean skipped) {
      this(stageId, attempt, parentIds, numTasks, skipped, -1, -1);
    }
  }

  /**
   * One task attempt: launch and finish times, whether it succeeded, and the bytes it read from storage (Spark's
   * "Bytes Read") and from shuffles (local plus remote shuffle bytes read); 0 when not logged.
   */
  public record TaskTrace(int stageId, int stageAttempt, long launchMs, long finishMs, boolean successful,
      long inputBytes, long shuffleReadBytes) implements TracePart {

    /** A task attempt whose bytes are not known (0). */
    public TaskTrace(int stageId, int stageAttempt, long launchMs, long finishMs, boolean successful) {
      this(stageId, stageAttempt, launchMs, finishMs, successful, 0L, 0L);
    }
  }
}
