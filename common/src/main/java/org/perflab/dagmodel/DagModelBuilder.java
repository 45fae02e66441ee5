package org.perflab.dagmodel;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.perflab.changes.StageRef;
import org.perflab.dagmodel.AppTrace.JobTrace;
import org.perflab.dagmodel.AppTrace.StageTasks;
import org.perflab.dagmodel.AppTrace.StageTrace;
import org.perflab.errors.BadInputException;
import org.perflab.sim.Distribution;
import org.perflab.sim.Model;
import org.perflab.sim.Stage;
import org.perflab.sim.TaskChoice;

/**
 * Builds the simulator model of one application run from its trace (docs/simulator.md, "Models from event logs").
 *
 * <ul>
 *   <li>Stages: every stage with a submitted attempt, named {@code S<id>}; skipped stages are dropped. Tasks: the
 *       stage's number of tasks (partitions) in its last attempt. Task durations: launch to finish of every
 *       successful attempt, in seconds, in launch order; or, for a stage of more tasks than Spark's bound, a uniform
 *       sample of them in launch order ({@link AppTrace.StageTasks}).
 *   <li>Edges: a stage waits for its executed parents. Jobs run in submission order: a job's first stages wait for
 *       the last stages of the jobs before it; a job submitted before the previous one completed overlapped it, and is
 *       kept as a parallel branch from the same point.
 *   <li>Driver time: the time from the previous jobs' completion (or the application start) to a job's submission,
 *       and from the last completion to the application end, becomes a one-task stage of deterministic duration named
 *       {@code driver-J<job>} or {@code driver-end}; the time from a stage's job submission or parents' completion to
 *       its own submission becomes {@code sched-S<id>} before it.
 *   <li>Start-up: the time from the first stage's submission to the application's first task launch (waiting for
 *       executors to register) becomes a one-task stage {@code startup} that precedes every other stage.
 *   <li>Bytes: each stage carries the input and shuffle bytes read by its successful tasks; delay stages read none.
 * </ul>
 * Model times are in seconds.
 */
public final class DagModelBuilder {
  /** Gaps shorter than this (seconds) are not modelled as driver stages. */
  public static final double MIN_DELAY_S = 0.001;
  /** The name of the start-up stage. */
  public static final String STARTUP = "startup";
  /** The name of the driver stage after the last job. */
  public static final String DRIVER_END = "driver-end";
  /** The prefix of a driver stage before a job: {@code driver-J<job id>}. */
  public static final String DRIVER_JOB = "driver-J";
  /** The prefix of a scheduling delay before a stage: {@code sched-S<stage id>}. */
  public static final String SCHED = "sched-S";

  private DagModelBuilder() {}

  /** The model of {@code trace}, on the run's own slots, simulating {@code maxJobs} applications. */
  public static Model build(AppTrace trace, SampleMode mode, int maxJobs) {
    Map<Integer, StageTrace> executed = executedStages(trace);
    Map<Integer, StageTasks> successful = trace.stageSummaries();
    List<JobTrace> jobs = jobsInOrder(trace);
    Map<Integer, Integer> owner = owners(jobs, executed);
    List<Stage> stages = new ArrayList<>();
    List<String> frontier = List.of();
    double startupS = startupS(trace, executed);
    if (startupS >= MIN_DELAY_S) {
      stages.add(delay(STARTUP, startupS, List.of()));
      frontier = List.of(STARTUP);
    }
    long frontierMs = trace.startMs();
    List<String> groupSinks = new ArrayList<>();
    long groupEndMs = Long.MIN_VALUE;
    for (JobTrace job : jobs) {
      List<Integer> own = job.stageIds().stream()
          .filter(s -> Integer.valueOf(job.jobId()).equals(owner.get(s))).sorted().toList();
      if (own.isEmpty()) {
        continue;
      }
      if (groupEndMs != Long.MIN_VALUE && job.submissionMs() >= groupEndMs) {
        frontier = List.copyOf(groupSinks);
        frontierMs = groupEndMs;
        groupSinks.clear();
        groupEndMs = Long.MIN_VALUE;
      }
      List<String> entry = frontier;
      double delayS = (job.submissionMs() - frontierMs) / 1000.0;
      if (delayS >= MIN_DELAY_S) {
        String name = DRIVER_JOB + job.jobId();
        stages.add(delay(name, delayS, frontier));
        entry = List.of(name);
      }
      Set<Integer> ownSet = new LinkedHashSet<>(own);
      Set<Integer> hasSuccessor = new LinkedHashSet<>();
      for (int s : own) {
        List<String> pre = new ArrayList<>();
        boolean parentInJob = false;
        for (int p : executed.get(s).parentIds()) {
          if (executed.containsKey(p) && owner.containsKey(p)) {
            pre.add("S" + p);
            if (ownSet.contains(p)) {
              parentInJob = true;
              hasSuccessor.add(p);
            }
          }
        }
        if (!parentInJob) {
          for (String e : entry) {
            if (!pre.contains(e)) {
              pre.add(e);
            }
          }
        }
        double schedulingS = schedulingDelayS(executed, s, job.submissionMs());
        if (schedulingS >= MIN_DELAY_S) {
          String name = SCHED + s;
          stages.add(delay(name, schedulingS, pre));
          pre = List.of(name);
        }
        stages.add(stage(s, executed.get(s), successful.get(s), pre, mode, trace.appId()));
      }
      for (int s : own) {
        if (!hasSuccessor.contains(s)) {
          groupSinks.add("S" + s);
        }
      }
      groupEndMs = Math.max(groupEndMs, job.completionMs());
    }
    BadInputException.require(!stages.isEmpty(), "Cannot build a model of %s: no executed stage", trace.appId());
    if (groupEndMs != Long.MIN_VALUE) {
      double tailS = (trace.endMs() - groupEndMs) / 1000.0;
      if (tailS >= MIN_DELAY_S) {
        stages.add(delay(DRIVER_END, tailS, groupSinks));
      }
    }
    BadInputException.require(trace.slots() >= 1, "Cannot build a model of %s: it had no task slot (%d)",
        trace.appId(), trace.slots());
    return new Model(dropRedundantPre(stages), trace.slots(), 1, new Distribution.Deterministic(0), maxJobs, 1.96,
        1L, TaskChoice.FIFO);
  }

  /**
   * The model of {@code primary} with the task-duration samples of same-named stages of {@code others} (runs of the
   * same workload) merged in, as an empirical distribution; driver stages take the mean of their durations. Stages
   * of {@code others} that {@code primary} lacks are ignored.
   */
  public static Model mergeSamples(Model primary, List<Model> others) {
    List<Stage> merged = new ArrayList<>();
    for (Stage s : primary.stages()) {
      List<Double> values = new ArrayList<>(values(s.distribution()));
      int runs = 1;
      for (Model other : others) {
        Integer i = other.stageIndex().get(s.name());
        if (i != null) {
          values.addAll(values(other.stages().get(i).distribution()));
          runs++;
        }
      }
      Distribution d;
      if (s.distribution() instanceof Distribution.Deterministic) {
        d = new Distribution.Deterministic(values.stream().mapToDouble(Double::doubleValue).sum() / runs);
      } else {
        d = new Distribution.Empirical(values.stream().mapToDouble(Double::doubleValue).toArray());
      }
      merged.add(s.withDistribution(d));
    }
    return new Model(merged, primary.nodes(), primary.users(), primary.thinkTime(), primary.maxJobs(),
        primary.confIntCoeff(), primary.seed(), primary.taskChoice());
  }

  private static List<Double> values(Distribution d) {
    double[] v = new double[0];
    if (d instanceof Distribution.Replay r) {
      v = r.samples();
    } else if (d instanceof Distribution.Empirical e) {
      v = e.samples();
    } else if (d instanceof Distribution.Deterministic det) {
      v = new double[] {det.val()};
    }
    return java.util.Arrays.stream(v).boxed().toList();
  }

  /**
   * Seconds from the moment stage {@code id} could have been submitted (its job's submission, its executed parents'
   * completion) to its submission: DAG-scheduler and driver time inside a job. 0 when times are unknown.
   */
  private static double schedulingDelayS(Map<Integer, StageTrace> executed, int id, long jobSubmissionMs) {
    StageTrace stage = executed.get(id);
    if (stage.submissionMs() < 0) {
      return 0;
    }
    long ready = jobSubmissionMs;
    for (int p : stage.parentIds()) {
      StageTrace parent = executed.get(p);
      if (parent != null) {
        if (parent.completionMs() < 0) {
          return 0;
        }
        ready = Math.max(ready, parent.completionMs());
      }
    }
    return Math.max(0, stage.submissionMs() - ready) / 1000.0;
  }

  /**
   * Where each of the model's stages {@code S<id>} sits in the run and what it is called, for
   * {@link org.perflab.changes.StageMatcher}: one {@link StageRef} per executed stage, in stage-id order, its job
   * ordinal that of the first job (by submission) that lists it. Delay stages ({@code driver-J<job>},
   * {@code sched-S<id>}, {@code startup}, {@code driver-end}) have none.
   */
  public static List<StageRef> stageRefs(AppTrace trace) {
    Map<Integer, StageTrace> executed = executedStages(trace);
    Map<Integer, Integer> owner = owners(jobsInOrder(trace), executed);
    Map<Integer, Integer> ordinals = StageRef.jobOrdinals(owner.values());
    List<StageRef> refs = new ArrayList<>();
    executed.values().forEach(s -> refs.add(new StageRef(s.stageId(),
        owner.containsKey(s.stageId()) ? ordinals.get(owner.get(s.stageId())) : -1, s.name())));
    return refs;
  }

  /** The run's jobs in submission order (job id on a tie). */
  private static List<JobTrace> jobsInOrder(AppTrace trace) {
    List<JobTrace> jobs = new ArrayList<>(trace.jobs());
    jobs.sort(Comparator.comparingLong(JobTrace::submissionMs).thenComparingInt(JobTrace::jobId));
    return jobs;
  }

  /** The job that runs each executed stage: the first of {@code jobs} (in their order) that lists it. */
  private static Map<Integer, Integer> owners(List<JobTrace> jobs, Map<Integer, StageTrace> executed) {
    Map<Integer, Integer> owner = new HashMap<>();
    for (JobTrace job : jobs) {
      for (int s : job.stageIds()) {
        if (executed.containsKey(s)) {
          owner.putIfAbsent(s, job.jobId());
        }
      }
    }
    return owner;
  }

  private static Map<Integer, StageTrace> executedStages(AppTrace trace) {
    Map<Integer, StageTrace> executed = new TreeMap<>();
    for (StageTrace s : trace.stages()) {
      if (!s.skipped()) {
        StageTrace previous = executed.get(s.stageId());
        if (previous == null || s.attempt() > previous.attempt()) {
          executed.put(s.stageId(), s);
        }
      }
    }
    return executed;
  }

  /**
   * Seconds from the first stage submission to the first task launch: the wait for executors at start-up. 0 when no
   * task or no submission time is known, or the first task launched before any known submission.
   */
  private static double startupS(AppTrace trace, Map<Integer, StageTrace> executed) {
    long firstSubmission = executed.values().stream().mapToLong(StageTrace::submissionMs).filter(ms -> ms >= 0)
        .min().orElse(-1);
    long firstLaunch = trace.stageSummaries().values().stream().filter(t -> executed.containsKey(t.stageId()))
        .mapToLong(StageTasks::firstLaunchMs).min().orElse(-1);
    if (firstSubmission < 0 || firstLaunch < firstSubmission) {
      return 0;
    }
    return (firstLaunch - firstSubmission) / 1000.0;
  }

  private static Stage stage(int id, StageTrace s, StageTasks tasks, List<String> pre, SampleMode mode,
      String appId) {
    BadInputException.require(tasks != null && tasks.successfulTasks() > 0 && tasks.durationsS().length > 0,
        "Cannot build a model of %s: stage %d ran but has no successful task", appId, id);
    double[] values = tasks.durationsS();
    Distribution d = mode == SampleMode.REPLAY ? new Distribution.Replay(values) : new Distribution.Empirical(values);
    return new Stage("S" + id, Math.max(1, s.numTasks()), pre, List.of(), d, tasks.inputBytes(),
        tasks.shuffleReadBytes());
  }

  private static Stage delay(String name, double seconds, List<String> pre) {
    return new Stage(name, 1, pre, List.of(), new Distribution.Deterministic(seconds));
  }

  /** Keeps each pre list free of duplicates (a stage may reach the same frontier stage twice). */
  private static List<Stage> dropRedundantPre(List<Stage> stages) {
    Map<String, Stage> byName = new LinkedHashMap<>();
    for (Stage s : stages) {
      byName.put(s.name(), s.withPre(List.copyOf(new LinkedHashSet<>(s.pre()))));
    }
    return new ArrayList<>(byName.values());
  }
}
