package org.perflab.stragglers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@link Cause#COLD_EXECUTOR}: a straggler among its executor's first tasks, in a stage whose other first tasks ran
 * slow too against its tasks on executors already warm, on like data, is the executor's warm-up; a first task alone in
 * being slow, a later task, and one with more data are not.
 */
class ColdExecutorTest {
  private static final StragglerThresholds T = StragglerThresholds.defaults(); // straggler factor 1.5

  @Test
  void theRuleNeedsAColdTaskAndTwoOtherColdAndTwoWarmTasksWithTheColdOnesBeyondTheStragglerFactor() {
    assertThat(BigRoots.coldExecutor(new ColdEvidence(true, 2, 100, 2, 1.6), 1.5)).isTrue();
    assertThat(BigRoots.coldExecutor(new ColdEvidence(false, 2, 100, 2, 1.6), 1.5)).as("not cold").isFalse();
    assertThat(BigRoots.coldExecutor(new ColdEvidence(true, 2, 100, 1, 3.0), 1.5)).as("one other").isFalse();
    assertThat(BigRoots.coldExecutor(new ColdEvidence(true, 1, 100, 2, 3.0), 1.5)).as("one warm").isFalse();
    assertThat(BigRoots.coldExecutor(new ColdEvidence(true, 2, 100, 2, 1.5), 1.5)).as("strictly beyond").isFalse();
    assertThat(BigRoots.coldExecutor(ColdEvidence.NONE, 1.5)).isFalse();
  }

  @Test
  void theOtherColdTasksAreAveragedGeometricallyWithoutTheStragglerOverTheWarmMedian() {
    // cold tasks of 200, 300 (the straggler) and 450 ms, warm median 100 ms: the others' geometric mean is 3x
    ColdEvidence e = ColdEvidence.fromLogs(true, 9, 100, 3, Math.log(200) + Math.log(300) + Math.log(450), 300);
    assertThat(e.otherColdTasks()).isEqualTo(2);
    assertThat(e.otherColdSlowness()).isCloseTo(3.0, within(1e-12));
    assertThat(ColdEvidence.fromLogs(true, 9, 100, 1, Math.log(300), 300).otherColdSlowness()).isNaN();
  }

  /**
   * Four one-core executors, four tasks each per stage, like data everywhere. Stage 0: each executor's first task
   * takes 300 ms (its warm-up), the rest 100 ms. Stage 1, after it: every executor warm, one task 200 ms.
   */
  @Test
  void theFirstTasksOfExecutorsThatAllWarmedUpSlowlyNameTheWarmUp() {
    Map<String, Set<Cause>> causes = causes(diagnose(WarmUpTasks::everyExecutorWarmsUpSlowly, Map.of()));

    List<String> first = List.of("0/0", "0/4", "0/8", "0/12");
    assertThat(causes.keySet()).containsExactlyInAnyOrderElementsOf(
        java.util.stream.Stream.concat(first.stream(), java.util.stream.Stream.of("1/6")).toList());
    first.forEach(task -> assertThat(causes.get(task)).as(task).containsExactly(Cause.COLD_EXECUTOR));
    assertThat(causes.get("1/6")).as("a later task on a warm executor: unexplained").isEmpty();
  }

  @Test
  void aFirstTaskAloneInBeingSlowIsNotTheWarmUp() {
    Map<String, Set<Cause>> causes = causes(diagnose((stage, e, k) -> stage == 0 && e == 2 && k == 0 ? 300 : 100,
        Map.of()));

    assertThat(causes).containsOnlyKeys("0/8");
    assertThat(causes.get("0/8")).as("the other first tasks ran like the warm ones").isEmpty();
  }

  @Test
  void aFirstTaskWithMoreDataIsDataSkewNotTheWarmUp() {
    Map<String, Set<Cause>> causes = causes(diagnose((stage, e, k) -> stage == 0 && k == 0 ? 300 : 100,
        Map.of("0/4", 5.0)));

    assertThat(causes.get("0/4")).containsExactly(Cause.DATA_SKEW);
    assertThat(causes.get("0/8")).containsExactly(Cause.COLD_EXECUTOR);
  }

  @Test
  void tasksWithoutTheirExecutorOrLaunchTimeAreNeverCold() {
    List<TaskObservation> tasks = new ArrayList<>();
    for (int i = 0; i < 16; i++) {
      tasks.add(TaskObservation.of(0, i, i % 4 == 0 ? 300 : 100, Map.of(Feature.INPUT_BYTES, 1000.0)));
    }
    assertThat(AppDiagnosis.diagnose(tasks, T, PccThresholds.defaults())).hasSize(4)
        .allSatisfy(d -> assertThat(d.causes()).isEmpty());
  }

  private static List<AppDiagnosis.Diagnosed> diagnose(WarmUpTasks.Durations durations,
      Map<String, Double> moreData) {
    return AppDiagnosis.diagnose(WarmUpTasks.of(durations, moreData), T, PccThresholds.defaults());
  }

  private static Map<String, Set<Cause>> causes(List<AppDiagnosis.Diagnosed> diagnosed) {
    return diagnosed.stream().collect(Collectors.toMap(d -> d.task().stageId() + "/" + d.task().taskIndex(),
        AppDiagnosis.Diagnosed::causes));
  }
}
