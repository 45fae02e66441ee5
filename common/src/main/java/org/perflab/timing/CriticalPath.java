package org.perflab.timing;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The critical path and ideal time of an application's jobs, as sparklens defines them, without driver time (the
 * caller adds the time outside jobs).
 *
 * <ul>
 *   <li>A job's critical path is the longest path through its stage DAG, each stage weighing its longest task: its
 *       time with unlimited executors, and at most the job's own span. A job's ideal time is Σ over its stages of max(task time ÷ slots, longest
 *       task): its time at the measured slots with no skew and no scheduling gaps.
 *   <li>Jobs run one after another add up. Jobs whose runs overlap (submitted from several threads) form one group,
 *       which takes as long as its longest job, and ideally as long as its longest job or its task time ÷ slots,
 *       whichever is larger.
 * </ul>
 */
public final class CriticalPath {
  private CriticalPath() {}

  /**
   * One stage attempt of a job.
   *
   * @param jobId the job that ran it (null: stages of no known job, taken as one job)
   * @param jobStartMs the job's submission (epoch ms), null when unknown
   * @param jobEndMs the job's completion (epoch ms), null when unknown
   * @param stageId the stage id
   * @param parentIds its parent stages; parents outside the job (computed by an earlier job, skipped here) are ignored
   * @param longestTaskMs the attempt's longest task (ms)
   * @param taskTimeMs the attempt's task time (ms)
   */
  public record StageTime(Integer jobId, Long jobStartMs, Long jobEndMs, int stageId, List<Integer> parentIds,
      long longestTaskMs, long taskTimeMs) implements Serializable {
    public StageTime {
      parentIds = parentIds == null ? List.of() : List.copyOf(parentIds);
    }
  }

  /**
   * The application's times without driver time.
   *
   * @param criticalPathMs the time with unlimited executors (ms)
   * @param idealMs the time at the measured slots (ms); null when the slots are unknown
   */
  public record Times(long criticalPathMs, Double idealMs) implements Serializable {}

  /** The times of an application's stage attempts; {@code slots} null or not positive leaves the ideal unknown. */
  public static Times of(List<StageTime> stages, Integer slots) {
    Map<Integer, List<StageTime>> byJob = new LinkedHashMap<>();
    for (StageTime stage : stages) {
      byJob.computeIfAbsent(Objects.requireNonNullElse(stage.jobId(), Integer.MIN_VALUE), j -> new ArrayList<>())
          .add(stage);
    }
    boolean knownSlots = slots != null && slots > 0;
    long critical = 0;
    double ideal = 0;
    for (List<List<StageTime>> group : overlapping(byJob.values())) {
      long groupCritical = 0;
      double groupIdeal = 0;
      double groupTaskMs = 0;
      for (List<StageTime> job : group) {
        groupCritical = Math.max(groupCritical, clampedToSpan(job, ofJob(job)));
        groupIdeal = Math.max(groupIdeal, knownSlots ? idealOfJob(job, slots) : 0);
        groupTaskMs += job.stream().mapToLong(StageTime::taskTimeMs).sum();
      }
      critical += groupCritical;
      ideal += knownSlots ? Math.max(groupIdeal, groupTaskMs / slots) : 0;
    }
    return new Times(critical, knownSlots ? ideal : null);
  }

  /** The jobs grouped by overlapping runs, in submission order; a job of unknown times is a group of its own. */
  static List<List<List<StageTime>>> overlapping(Iterable<List<StageTime>> jobs) {
    List<List<StageTime>> sorted = new ArrayList<>();
    jobs.forEach(sorted::add);
    sorted.sort(Comparator.comparing((List<StageTime> j) -> j.get(0).jobStartMs(),
        Comparator.nullsLast(Comparator.naturalOrder())));
    List<List<List<StageTime>>> groups = new ArrayList<>();
    Long reach = null;
    for (List<StageTime> job : sorted) {
      Long start = job.get(0).jobStartMs();
      Long end = job.get(0).jobEndMs();
      if (start == null || end == null || reach == null || start >= reach) {
        groups.add(new ArrayList<>());
        reach = start == null || end == null ? null : end;
      } else {
        reach = Math.max(reach, end);
      }
      groups.get(groups.size() - 1).add(job);
    }
    return groups;
  }

  /**
   * A job's critical path, at most the job's own span (submission to completion) when known: tasks of a failed job's
   * stages can run on after the job ended, and the job would not have taken longer with more executors.
   */
  static long clampedToSpan(List<StageTime> job, long criticalMs) {
    Long start = job.get(0).jobStartMs();
    Long end = job.get(0).jobEndMs();
    return start == null || end == null ? criticalMs : Math.min(criticalMs, Math.max(0, end - start));
  }

  /** Σ over a job's stage attempts of max(task time ÷ slots, longest task), in ms. */
  static double idealOfJob(List<StageTime> job, int slots) {
    return job.stream().mapToDouble(s -> Math.max((double) s.taskTimeMs() / slots, s.longestTaskMs())).sum();
  }

  /** The longest path through one job's stages, in ms; a retried stage weighs the sum of its attempts. */
  static long ofJob(List<StageTime> job) {
    Map<Integer, StageTime> stages = new HashMap<>();
    for (StageTime stage : job) {
      stages.merge(stage.stageId(), stage, CriticalPath::retried);
    }
    Map<Integer, Long> finish = new HashMap<>();
    long longest = 0;
    for (Integer stageId : stages.keySet()) {
      longest = Math.max(longest, finish(stageId, stages, finish, new HashSet<>()));
    }
    return longest;
  }

  /** The longest path ending with {@code stageId}, memoised; a cycle (a corrupt log) is cut where it closes. */
  private static long finish(int stageId, Map<Integer, StageTime> stages, Map<Integer, Long> memo,
      Set<Integer> onPath) {
    Long known = memo.get(stageId);
    if (known != null) {
      return known;
    }
    StageTime stage = stages.get(stageId);
    onPath.add(stageId);
    long start = 0;
    for (Integer parent : stage.parentIds()) {
      if (stages.containsKey(parent) && !onPath.contains(parent)) {
        start = Math.max(start, finish(parent, stages, memo, onPath));
      }
    }
    onPath.remove(stageId);
    long end = start + stage.longestTaskMs();
    memo.put(stageId, end);
    return end;
  }

  /** Two attempts of one stage: they ran one after the other. */
  private static StageTime retried(StageTime a, StageTime b) {
    return new StageTime(a.jobId(), a.jobStartMs(), a.jobEndMs(), a.stageId(), a.parentIds(),
        a.longestTaskMs() + b.longestTaskMs(), a.taskTimeMs() + b.taskTimeMs());
  }
}
