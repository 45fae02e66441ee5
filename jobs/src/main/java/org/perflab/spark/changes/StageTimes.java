package org.perflab.spark.changes;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.perflab.changes.StageRef;
import org.perflab.changes.StageStats;

/**
 * One stage of one run as {@code compare} shows it: its attempts summed, its task time split. Times in seconds (Σ over
 * the stage's tasks, except {@code durationS}), sizes in bytes. The parts of the split overlap (GC time is part of
 * the time a task runs, and of its CPU time when the collector runs on the task's thread): they are what each task
 * spent its time on, not a partition of it.
 *
 * @param ref the first attempt's place and name, as {@code StageMatcher} aligns it
 * @param attempts stage attempts (above 1: retried)
 * @param tasks task attempts
 * @param durationS Σ over attempts of submission to completion
 * @param taskTimeS Σ executor run time
 * @param cpuS Σ executor CPU time
 * @param gcS Σ JVM GC time
 * @param shuffleReadS Σ shuffle fetch wait time (the time tasks were blocked reading shuffle data)
 * @param shuffleWriteS Σ shuffle write time
 * @param spillBytes Σ bytes spilled to disk
 * @param schedulerDelayS Σ scheduler delay, as the History Server computes it from the tasks table
 */
public record StageTimes(StageRef ref, int attempts, long tasks, double durationS, double taskTimeS, double cpuS,
    double gcS, double shuffleReadS, double shuffleWriteS, long spillBytes, double schedulerDelayS) {

  /**
   * The stages of one run by stage id, their attempts summed.
   *
   * @param attempts every stage attempt of the run
   * @param schedulerDelayS Σ scheduler delay (s) by stage id; a stage without tasks is absent (0 s)
   */
  public static Map<Integer, StageTimes> byStage(List<StageStats> attempts, Map<Integer, Double> schedulerDelayS) {
    Map<Integer, List<StageStats>> byId = new TreeMap<>();
    attempts.forEach(s -> byId.computeIfAbsent(s.ref().stageId(), k -> new ArrayList<>()).add(s));
    Map<Integer, StageTimes> out = new TreeMap<>();
    byId.forEach((id, list) -> out.put(id, sum(list, schedulerDelayS.getOrDefault(id, 0.0))));
    return out;
  }

  private static StageTimes sum(List<StageStats> attempts, double schedulerDelayS) {
    StageRef ref = attempts.stream().min(Comparator.comparingInt(StageStats::attempt)).orElseThrow().ref();
    return new StageTimes(ref, attempts.size(), attempts.stream().mapToLong(StageStats::tasks).sum(),
        attempts.stream().mapToDouble(StageStats::durationS).sum(),
        attempts.stream().mapToDouble(StageStats::taskTimeS).sum(),
        attempts.stream().mapToDouble(StageStats::cpuS).sum(), attempts.stream().mapToDouble(StageStats::gcS).sum(),
        attempts.stream().mapToDouble(StageStats::fetchWaitS).sum(),
        attempts.stream().mapToDouble(StageStats::shuffleWriteS).sum(),
        attempts.stream().mapToLong(StageStats::spillBytes).sum(), schedulerDelayS);
  }
}
