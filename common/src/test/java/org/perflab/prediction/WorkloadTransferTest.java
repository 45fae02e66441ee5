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

  /** The predictor of workload {@code w} over {@code runs}, and {@code w}'s training: its runs but {@code heldOut}. */
  private static Estimate predictW(List<Run> runs, int heldOut) {
    WorkloadTransfer forW = WorkloadTransfer.of("w", WorkloadTransfer.index(runs));
    List<Measured> training = Harness.configurations(runs.stream().filter(r -> r.workloadId().equals("w")).toList())
        .stream().filter(m -> m.configuration().executors() != heldOut).toList();
    return forW.predict(training, measured("w", heldOut, 1).target());
  }

  @Test
  void theTargetsNearestConfigurationIsCarriedByTheOtherWorkloadsSpeedUpsGeometricallyAveraged() {
    // Two other workloads went from 4 to 8 executors in 0.5× and 0.8× their time: the target, measured at 4, is
    // predicted at 8 as 100 s × √(0.5 × 0.8).
    List<Run> runs = List.of(run("w", 2, 190), run("w", 4, 100), run("a", 4, 40), run("a", 8, 20), run("b", 4, 50),
        run("b", 8, 40), run("b", 16, 30));

    assertThat(predictW(runs, 8).predictedS()).isCloseTo(100 * Math.sqrt(0.5 * 0.8), within(1e-9));
  }

  @Test
  void aTargetNoOtherWorkloadMeasuredWithTheSeriesGivesNoneWithTheReason() {
    List<Run> runs = List.of(run("w", 2, 190), run("w", 4, 100), run("a", 4, 40), run("a", 8, 20));

    Estimate e = predictW(runs, 16);

    assertThat(e.present()).isFalse();
    assertThat(e.note()).startsWith("Cannot predict by workload transfer: no other workload measured both")
        .contains("2 configurations in training (0 other workloads measured the target's configuration)");
  }

  @Test
  void theNearestAnchorWithAPartnerIsUsedWhenTheNearestHasNone() {
    // Nearest to 8 executors are 4 and 16 (equally, in log ratio): 4 first; no other workload measured 4, so 16.
    List<Run> runs = List.of(run("w", 4, 100), run("w", 16, 40), run("a", 8, 30), run("a", 16, 20));

    assertThat(predictW(runs, 8).predictedS()).isCloseTo(60, within(1e-9));
  }

  @Test
  void theTargetWorkloadLendsNothingToItselfSoItsHeldOutConfigurationNeverReachesItsPrediction() {
    List<Run> runs = new ArrayList<>(List.of(run("w", 4, 100), run("w", 8, 70), run("w", 2, 180)));
    runs.addAll(List.of(run("a", 4, 40), run("a", 8, 20)));
    Map<Configuration, Map<String, Measured>> index = WorkloadTransfer.index(runs);
    assertThat(index.get(run("w", 8, 1).configuration())).containsOnlyKeys("a", "w");

    // Held out: w at 8 executors (70 s), predicted from w at 4 and a's speed-up, never from w's own 70 s (which the
    // shared index holds).
    assertThat(predictW(runs, 8).predictedS()).isCloseTo(50, within(1e-9));
    // With a lending nothing at 8 executors, w's own measurement there is not used: no prediction.
    List<Run> alone = List.of(run("w", 4, 100), run("w", 8, 70), run("a", 4, 40));
    assertThat(predictW(alone, 8).present()).isFalse();
    assertThat(WorkloadTransfer.of("w", index).candidacy()).isEqualTo(Candidacy.FALLBACK);
  }
}
