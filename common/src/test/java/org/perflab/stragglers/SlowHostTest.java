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
 * {@link Cause#SLOW_HOST}: a straggler whose host ran the application's other tasks slow too, on like data, is the
 * machine's; a straggler alone on its host, one on a host with too few other tasks, and one with more data are not.
 */
class SlowHostTest {
  private static final StragglerThresholds T = StragglerThresholds.defaults(); // straggler factor 1.5

  @Test
  void theRuleNeedsTwoOtherTasksAveragingBeyondTheStragglerFactor() {
    assertThat(BigRoots.slowHost(new HostEvidence(2, 1.6), 1.5)).isTrue();
    assertThat(BigRoots.slowHost(new HostEvidence(1, 3.0), 1.5)).as("one other task").isFalse();
    assertThat(BigRoots.slowHost(new HostEvidence(5, 1.5), 1.5)).as("strictly beyond").isFalse();
    assertThat(BigRoots.slowHost(HostEvidence.NONE, 1.5)).as("no host").isFalse();
  }

  @Test
  void theHostsOtherTasksAreAveragedGeometricallyWithoutTheStraggler() {
    // three tasks at 2x, 3x (the straggler) and 4.5x their stages' medians: the others' geometric mean is 3
    HostEvidence e = HostEvidence.fromLogs(3, Math.log(2) + Math.log(3) + Math.log(4.5), Math.log(3));
    assertThat(e.otherTasks()).isEqualTo(2);
    assertThat(e.otherSlowness()).isCloseTo(3.0, within(1e-12));
    assertThat(HostEvidence.fromLogs(1, Math.log(3), Math.log(3))).isEqualTo(HostEvidence.NONE);
  }

  /**
   * Two stages of 12 tasks on four hosts, three tasks a host a stage, like data everywhere: host "slow" runs every
   * task 3x as long as the others; host "b" runs one task of stage 0 2x as long (a straggler of its own).
   */
  @Test
  void stragglersOfASlowHostNameIt() {
    List<TaskObservation> tasks = new ArrayList<>();
    String[] hosts = {"a", "b", "c", "slow"};
    for (int stage = 0; stage < 2; stage++) {
      for (int i = 0; i < 12; i++) {
        String host = hosts[i % 4];
        long ms = host.equals("slow") ? 300 : stage == 0 && i == 1 ? 200 : 100;
        tasks.add(TaskObservation.of(stage, i, ms, Map.of(Feature.INPUT_BYTES, 1000.0)).onHost(host));
      }
    }

    Map<String, Set<Cause>> causes = AppDiagnosis.diagnose(tasks, T, PccThresholds.defaults()).stream()
        .collect(Collectors.toMap(d -> d.task().stageId() + "/" + d.task().taskIndex(),
            AppDiagnosis.Diagnosed::causes));

    List<String> slow = List.of("0/3", "0/7", "0/11", "1/3", "1/7", "1/11");
    assertThat(causes.keySet()).containsExactlyInAnyOrderElementsOf(
        java.util.stream.Stream.concat(slow.stream(), java.util.stream.Stream.of("0/1")).toList());
    slow.forEach(task -> assertThat(causes.get(task)).as(task).containsExactly(Cause.SLOW_HOST));
    assertThat(causes.get("0/1")).as("alone on its host: unexplained").isEmpty();
  }

  @Test
  void aStragglerWithMoreDataOnASlowHostIsDataSkewNotTheHost() {
    List<TaskObservation> tasks = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      boolean slow = i % 4 == 3;
      double bytes = i == 3 ? 5000.0 : 1000.0;
      tasks.add(TaskObservation.of(0, i, slow ? 300 : 100, Map.of(Feature.INPUT_BYTES, bytes))
          .onHost(slow ? "slow" : "h" + i % 4));
    }

    Map<Integer, Set<Cause>> causes = AppDiagnosis.diagnose(tasks, T, PccThresholds.defaults()).stream()
        .collect(Collectors.toMap(d -> d.task().taskIndex(), AppDiagnosis.Diagnosed::causes));

    assertThat(causes.get(3)).containsExactly(Cause.DATA_SKEW);
    assertThat(causes.get(7)).containsExactly(Cause.SLOW_HOST);
  }

  @Test
  void aHostWithTooFewOtherTasksOrNoneKnownIsNotJudged() {
    List<TaskObservation> tasks = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      // host "slow" runs two tasks, both 3x: each has one other task on its host
      tasks.add(TaskObservation.of(0, i, i < 2 ? 300 : 100, Map.of()).onHost(i < 2 ? "slow" : "h" + i));
    }
    tasks.add(TaskObservation.of(0, 8, 300, Map.of())); // no host known

    assertThat(AppDiagnosis.diagnose(tasks, T, PccThresholds.defaults())).hasSize(3)
        .allSatisfy(d -> assertThat(d.causes()).isEmpty());
  }
}
