package org.perflab.dagmodel;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the simulator model of one application run is built from, as ingested from its event log. Times are epoch
 * milliseconds; {@code slots} is the run's task slots (total executor cores ÷ {@code spark.task.cpus});
 * {@code workload} groups runs of the same application (its workload id by {@code org.perflab.grouping.WorkloadRule});
 * {@code inputBytes} is the run's input size in bytes, as {@code workloads.input_bytes} (0 when it read nothing).
 * Its tasks come either one by one ({@code tasks}) or already summarised per stage ({@code stageTasks}, as Spark
 * aggregates them for an application of any size); {@link #stageSummaries()} gives both as summaries.
 */
public record AppTrace(String appId, String workload, long startMs, long endMs, int slots, List<JobTrace> jobs,
    List<StageTrace> stages, List<TaskTrace> tasks, long inputBytes, List<StageTasks> stageTasks)
    implements Serializable {

  public AppTrace {
    jobs = List.copyOf(jobs);
    stages = List.copyOf(stages);
    tasks = List.copyOf(tasks);
    stageTasks = List.copyOf(stageTasks);
  }

  /** A trace of individual task attempts. */
  public AppTrace(String appId, String workload, long startMs, long endMs, int slots, List<JobTrace> jobs,
      List<StageTrace> stages, List<TaskTrace> tasks, long inputBytes) {
    this(appId, workload, startMs, endMs, slots, jobs, stages, tasks, inputBytes, List.of());
  }

  /** A trace whose input size is not known (0). */
  public AppTrace(String appId, String workload, long startMs, long endMs, int slots, List<JobTrace> jobs,
      List<StageTrace> stages, List<TaskTrace> tasks) {
    this(appId, workload, startMs, endMs, slots, jobs, stages, tasks, 0L);
  }

  /**
   * The tasks of each stage id (every attempt), by stage id: the given summaries, and those of {@code tasks} (a stage
   * summarised both ways keeps the given summary).
   */
  public Map<Integer, StageTasks> stageSummaries() {
    Map<Integer, StageTasks> byStage = new TreeMap<>(StageTasks.of(tasks));
    stageTasks.forEach(s -> byStage.put(s.stageId(), s));
    return byStage;
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
   * never submitted, its output being reused), its submission and completion times (epoch ms; -1 if unknown), and its
   * name (the call site, e.g. {@code "save at Sort.scala:42"}; null when not logged).
   */
  public record StageTrace(int stageId, int attempt, List<Integer> parentIds, int numTasks, boolean skipped,
      long submissionMs, long completionMs, String name) implements TracePart {
    public StageTrace {
      parentIds = List.copyOf(parentIds);
    }

    /** A stage attempt whose name is not known. */
    public StageTrace(int stageId, int attempt, List<Integer> parentIds, int numTasks, boolean skipped,
        long submissionMs, long completionMs) {
      this(stageId, attempt, parentIds, numTasks, skipped, submissionMs, completionMs, null);
    }

    /** A stage attempt whose times and name are unknown. */
    public StageTrace(int stageId, int attempt, List<Integer> parentIds, int numTasks, boolean skipped) {
      this(stageId, attempt, parentIds, numTasks, skipped, -1, -1, null);
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

  /**
   * The task attempts of one stage id (every stage attempt), summarised: what a model needs of them, bounded however
   * many tasks the stage ran.
   *
   * @param firstLaunchMs the earliest launch of any of its task attempts, successful or not (epoch ms)
   * @param successfulTasks how many task attempts succeeded
   * @param inputBytes storage bytes read by the successful attempts
   * @param shuffleReadBytes shuffle bytes read by the successful attempts
   * @param durationsS launch-to-finish seconds of the successful attempts in launch order (ties by task id): all of
   *     them, or a uniform sample of them when the stage ran more than a bound ({@code sampled})
   * @param sampled whether {@code durationsS} is a sample
   */
  public record StageTasks(int stageId, long firstLaunchMs, long successfulTasks, long inputBytes,
      long shuffleReadBytes, double[] durationsS, boolean sampled) implements TracePart {
    public StageTasks {
      durationsS = durationsS.clone();
    }

    @Override
    public double[] durationsS() {
      return durationsS.clone();
    }

    /** The summaries of {@code tasks}, by stage id: every duration, none sampled (launch order, ties kept in order). */
    public static Map<Integer, StageTasks> of(List<TaskTrace> tasks) {
      Map<Integer, List<TaskTrace>> byStage = new TreeMap<>();
      tasks.forEach(t -> byStage.computeIfAbsent(t.stageId(), k -> new ArrayList<>()).add(t));
      Map<Integer, StageTasks> out = new TreeMap<>();
      byStage.forEach((id, all) -> {
        List<TaskTrace> ok = all.stream().filter(TaskTrace::successful)
            .sorted(Comparator.comparingLong(TaskTrace::launchMs)).toList();
        out.put(id, new StageTasks(id, all.stream().mapToLong(TaskTrace::launchMs).min().orElse(-1), ok.size(),
            ok.stream().mapToLong(TaskTrace::inputBytes).sum(), ok.stream().mapToLong(TaskTrace::shuffleReadBytes).sum(),
            ok.stream().mapToDouble(t -> Math.max(0, t.finishMs() - t.launchMs()) / 1000.0).toArray(), false));
      });
      return out;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof StageTasks s && stageId == s.stageId && firstLaunchMs == s.firstLaunchMs
          && successfulTasks == s.successfulTasks && inputBytes == s.inputBytes
          && shuffleReadBytes == s.shuffleReadBytes && Arrays.equals(durationsS, s.durationsS) && sampled == s.sampled;
    }

    @Override
    public int hashCode() {
      return 31 * Integer.hashCode(stageId) + Arrays.hashCode(durationsS);
    }

    @Override
    public String toString() {
      return "StageTasks[stage=" + stageId + ", successful=" + successfulTasks + ", samples=" + durationsS.length
          + (sampled ? " (sampled)" : "") + "]";
    }
  }
}
