package org.perflab.timing;

import java.io.Serializable;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The critical path of an application's jobs as sparklens defines it: the time the application would take with
 * unlimited executors, when every stage takes as long as its longest task. Per job, the longest path through the
 * job's stage DAG, each stage weighing its longest task; the application's is the sum over its jobs (jobs run one
 * after another). Driver time is added by the caller.
 */
public final class CriticalPath {
  private CriticalPath() {}

  /**
   * One stage of a job.
   *
   * @param jobId the job that ran it (null: stages of no known job, taken as one job)
   * @param stageId the stage id
   * @param parentIds its parent stages; parents outside the job (computed by an earlier job, skipped here) are ignored
   * @param longestTaskMs the stage's longest task, summed over its attempts when it was retried (ms)
   */
  public record StageTime(Integer jobId, int stageId, List<Integer> parentIds, long longestTaskMs)
      implements Serializable {
    public StageTime {
      parentIds = parentIds == null ? List.of() : List.copyOf(parentIds);
    }
  }

  /** The sum over jobs of each job's longest path through its stages, in ms; 0 for no stages. */
  public static long ofApplication(List<StageTime> stages) {
    Map<Integer, Map<Integer, StageTime>> byJob = new HashMap<>();
    for (StageTime stage : stages) {
      byJob.computeIfAbsent(Objects.requireNonNullElse(stage.jobId(), Integer.MIN_VALUE), j -> new HashMap<>())
          .merge(stage.stageId(), stage, CriticalPath::retried);
    }
    return byJob.values().stream().mapToLong(CriticalPath::ofJob).sum();
  }

  /** The longest path through one job's stages, in ms. */
  static long ofJob(Map<Integer, StageTime> stages) {
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
    return new StageTime(a.jobId(), a.stageId(), a.parentIds(), a.longestTaskMs() + b.longestTaskMs());
  }
}
