package org.perflab.prediction;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.perflab.scaling.Law;

/** {@link RatioTransfer}, {@link ScalingRegion} and the selection in the target's region, on known synthetic data. */
class RegionAndTransferTest {
  private static final long GB = 1_000_000_000L;
  private static final int[] NODES = {2, 4, 6, 8, 10, 12};

  /**
   * A separable truth with a memory cliff that no law follows: t = size × g(n), g falling as 1/n but 3× higher at 2
   * nodes than the 1/n curve gives, at every size.
   */
  private static double cliff(long bytes, int nodes) {
    return bytes / (double) GB * (100.0 / nodes + 5) * (nodes == 2 ? 3 : 1);
  }

  private static Measured measured(long bytes, int nodes, double seconds) {
    Run run = new Run(bytes + "/" + nodes, "w", bytes, nodes, 8, null, seconds);
    return Measured.of(run.configuration(), List.of(run));
  }

  private static List<Measured> grid(long... sizes) {
    List<Measured> out = new ArrayList<>();
    for (long bytes : sizes) {
      for (int n : NODES) {
        out.add(measured(bytes, n, cliff(bytes, n)));
      }
    }
    return out;
  }

  @Test
  void theTransferCarriesAnotherSeriesSpeedUpCliffIncluded() {
    List<Measured> training = grid(4 * GB, 16 * GB);
    Measured held = measured(64 * GB, 2, cliff(64 * GB, 2));
    training.add(measured(64 * GB, 4, cliff(64 * GB, 4)));
    training.add(measured(64 * GB, 8, cliff(64 * GB, 8)));
    training.add(measured(64 * GB, 12, cliff(64 * GB, 12)));

    Estimate e = new RatioTransfer().predict(training, held.target());

    // t(64 GB, 2) = t(64 GB, 4) × t(S′, 2) ÷ t(S′, 4) for both other sizes: exact on a separable truth.
    assertThat(e.predictedS()).isCloseTo(held.actualS(), org.assertj.core.data.Offset.offset(1e-9 * held.actualS()));
    // A law fitted to the 64 GB series alone cannot see the cliff below its measured slots.
    Estimate law = new LawPredictor(Law.AMDAHL).predict(training, held.target());
    assertThat(PredictionRow.absErrorPct(held.actualS(), law.predictedS())).isGreaterThan(50);
  }

  @Test
  void theTransferGivesNoneWithoutItsOwnSeriesOrAPartner() {
    List<Measured> training = grid(4 * GB);
    assertThat(new RatioTransfer().predict(training, measured(64 * GB, 2, 1).target()).present()).isFalse();
    training.add(measured(64 * GB, 4, cliff(64 * GB, 4)));
    // 3 nodes: no other series measured it.
    Estimate e = new RatioTransfer().predict(training, measured(64 * GB, 3, 1).target());
    assertThat(e.present()).isFalse();
    assertThat(e.note()).startsWith("Cannot predict by transfer: no other series measured both 24 task slots");
  }

  @Test
  void regionsPlaceTheTargetRelativeToItsSeriesSlots() {
    List<Measured> training = List.of(measured(4 * GB, 4, 10), measured(4 * GB, 8, 6), measured(16 * GB, 4, 30));
    assertThat(ScalingRegion.of(measured(4 * GB, 2, 1).target(), training)).isEqualTo(ScalingRegion.BELOW);
    assertThat(ScalingRegion.of(measured(4 * GB, 6, 1).target(), training)).isEqualTo(ScalingRegion.INSIDE);
    assertThat(ScalingRegion.of(measured(4 * GB, 12, 1).target(), training)).isEqualTo(ScalingRegion.ABOVE);
    assertThat(ScalingRegion.of(measured(64 * GB, 4, 1).target(), training)).isEqualTo(ScalingRegion.ALONE);
    // Each training configuration placed by the others: 4 GB at 4 nodes is below 8, 4 GB at 8 above 4, 16 GB alone.
    assertThat(ScalingRegion.sameAs(measured(4 * GB, 2, 1).target(), training))
        .containsExactly(training.get(0).configuration());
    assertThat(ScalingRegion.sameAs(measured(64 * GB, 2, 1).target(), training))
        .containsExactly(training.get(2).configuration());
  }

  @Test
  void theSelectionComparesOnTheTargetsRegionWhereItHasEvidence() {
    Configuration inside1 = new Configuration(33, 4, 8, null);
    Configuration inside2 = new Configuration(33, 6, 8, null);
    Configuration below = new Configuration(34, 2, 8, null);
    // "lookup" is best where it interpolates and 40 % off where it extrapolates; "law" is 3 % everywhere.
    InnerErrors lookup = new InnerErrors("lookup", 3, new double[] {1, 1, 1}, new double[] {1, 1, 40},
        List.of(inside1, inside2, below));
    InnerErrors law = new InnerErrors("law", 3, new double[] {1, 1, 1}, new double[] {3, 3, 3},
        List.of(inside1, inside2, below));

    assertThat(Selection.choose(List.of(lookup, law)).orElseThrow().predictor()).isEqualTo("law");
    assertThat(Selection.choose(List.of(lookup, law), Set.of(inside1, inside2)).orElseThrow().predictor())
        .isEqualTo("lookup");
    Selection.Choice extrapolating = Selection.choose(List.of(lookup, law), Set.of(below)).orElseThrow();
    assertThat(extrapolating.predictor()).isEqualTo("law");
    assertThat(extrapolating.reason()).contains("on the 1 training configurations in the target's region");

    // A candidate with no evidence in the region drops out, rather than the region's evidence.
    InnerErrors interpolatorOnly = new InnerErrors("interpolator", 3, new double[] {1, 1},
        new double[] {0.5, 0.5}, List.of(inside1, inside2));
    assertThat(Selection.choose(List.of(interpolatorOnly, law), Set.of(below)).orElseThrow().predictor())
        .isEqualTo("law");
  }

  @Test
  void onACliffTheHarnessSelectsTheTransferWhereItExtrapolatesBelowEverySeries() {
    List<Run> runs = new ArrayList<>();
    for (long bytes : new long[] {4 * GB, 8 * GB, 16 * GB}) {
      for (int n : NODES) {
        runs.add(new Run(bytes + "/" + n, "w", bytes, n, 8, null, cliff(bytes, n)));
      }
    }
    // The runtime-only predictors less the blend, whose nested inner loop would make this test slow.
    List<Predictor> predictors = Predictors.runtimeOnly().stream().filter(p -> !(p instanceof Blend)).toList();
    Harness.WorkloadEvaluation e = Harness.evaluate("w", runs, predictors);

    List<PredictionRow> atTwo = e.rows().stream().filter(r -> r.selected() && r.executors() == 2).toList();
    assertThat(atTwo).hasSize(3).allSatisfy(r -> assertThat(r.absErrorPct()).isLessThan(1e-6));
  }
}
