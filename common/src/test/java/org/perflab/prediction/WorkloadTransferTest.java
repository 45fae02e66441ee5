package org.perflab.prediction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link WorkloadTransfer}: strength borrowed from the other workloads' speed-ups, on known synthetic runs. */
class WorkloadTransferTest {
  private static final long GB = 1_000_000_000L;

  private static Run run(String workload, int executors, double seconds) {
    return new Run(workload + "/" + executors, workload, 8 * GB, executors, 2, null, seconds);
  }

  private static Measured measured(String workload, int executors, double seconds) {
    Run r = run(workload, executors, seconds);
    return Measured.of(r.configuration(), List.of(r));
  }

  @Test
  void theTargetsNearestConfigurationIsCarriedByTheOtherWorkloadsSpeedUpsGeometricallyAveraged() {
    // Two other workloads went from 4 to 8 executors in 0.5× and 0.8× their time: the target, measured at 4, is
    // predicted at 8 as 100 s × √(0.5 × 0.8).
    WorkloadTransfer borrowed = new WorkloadTransfer(List.of(
        List.of(measured("a", 4, 40), measured("a", 8, 20)),
        List.of(measured("b", 4, 50), measured("b", 8, 40), measured("b", 16, 30))));
    List<Measured> training = List.of(measured("w", 2, 190), measured("w", 4, 100));

    Estimate e = borrowed.predict(training, measured("w", 8, 1).target());

    assertThat(e.predictedS()).isCloseTo(100 * Math.sqrt(0.5 * 0.8), within(1e-9));
  }

  @Test
  void aTargetNoOtherWorkloadMeasuredWithTheSeriesGivesNoneWithTheReason() {
    WorkloadTransfer borrowed = new WorkloadTransfer(List.of(List.of(measured("a", 4, 40), measured("a", 8, 20))));
    List<Measured> training = List.of(measured("w", 2, 190), measured("w", 4, 100));

    Estimate e = borrowed.predict(training, measured("w", 16, 1).target());

    assertThat(e.present()).isFalse();
    assertThat(e.note()).startsWith("Cannot predict by workload transfer: no other workload measured both")
        .contains("(1 other workloads)");
  }

  @Test
  void theNearestAnchorWithAPartnerIsUsedWhenTheNearestHasNone() {
    // Nearest to 8 executors are 4 and 16 (equally, in log ratio): 4 first; no other workload measured 4, so 16.
    WorkloadTransfer borrowed = new WorkloadTransfer(List.of(List.of(measured("a", 8, 30), measured("a", 16, 20))));
    List<Measured> training = List.of(measured("w", 4, 100), measured("w", 16, 40));

    assertThat(borrowed.predict(training, measured("w", 8, 1).target()).predictedS()).isCloseTo(60, within(1e-9));
  }

  @Test
  void theTargetWorkloadLendsNothingToItselfSoItsHeldOutConfigurationNeverReachesItsPrediction() {
    List<Run> runs = new ArrayList<>(List.of(run("w", 4, 100), run("w", 8, 70), run("w", 2, 180)));
    runs.addAll(List.of(run("a", 4, 40), run("a", 8, 20)));
    Map<String, List<Measured>> measured = WorkloadTransfer.measured(runs);
    assertThat(measured).containsOnlyKeys("a", "w");

    WorkloadTransfer forW = WorkloadTransfer.of("w", measured);
    assertThat(forW.others()).hasSize(1);
    // Held out: w at 8 executors (70 s), predicted from w at 4 and a's speed-up, never from w's own 70 s.
    List<Measured> training = measured.get("w").stream().filter(m -> m.configuration().executors() != 8).toList();
    assertThat(forW.predict(training, measured("w", 8, 70).target()).predictedS()).isCloseTo(50, within(1e-9));
    assertThat(forW.candidacy()).isEqualTo(Candidacy.FALLBACK);
  }
}
