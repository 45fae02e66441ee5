package org.perflab.prediction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class HarnessTest {
  private static final long GB = 1_000_000_000L;

  /** Runs that follow Amdahl exactly: t = 600 s on one core, serial fraction 0.1, at 2..64 cores, one size. */
  private static List<Run> amdahl(String workload, int... cores) {
    List<Run> runs = new ArrayList<>();
    for (int n : cores) {
      for (int rep = 0; rep < 3; rep++) {
        runs.add(new Run(workload + "/" + n + "/" + rep, workload, 10 * GB, n, 1, 4L * GB, 600 * (0.9 / n + 0.1)));
      }
    }
    return runs;
  }

  @Test
  void aLawThatHoldsIsRecoveredAtEveryInteriorConfigurationAndSelected() {
    Harness.WorkloadEvaluation e = Harness.evaluate("w", amdahl("w", 2, 4, 8, 16, 32, 64), Predictors.runtimeOnly());

    assertThat(e.skipReason()).isNull();
    assertThat(e.rows()).hasSize(6 * Predictors.runtimeOnly().size());
    List<PredictionRow> amdahl = e.rows().stream().filter(r -> r.predictor().equals("amdahl")).toList();
    assertThat(amdahl).allSatisfy(r -> assertThat(r.absErrorPct()).isCloseTo(0, within(1e-6)));
    List<PredictionRow> selected = e.rows().stream().filter(PredictionRow::selected).toList();
    assertThat(selected).hasSize(6);
    assertThat(selected).allSatisfy(r -> assertThat(r.absErrorPct()).isLessThan(1e-3));
  }

  /** A predictor that knows the Amdahl law of {@link #amdahl} exactly, with the candidacy given. */
  private record Oracle(String name, Candidacy candidacy) implements Predictor {
    @Override
    public Estimate predict(List<Measured> training, Target target) {
      return Estimate.of(600 * (0.9 / target.totalCores() + 0.1));
    }
  }

  @Test
  void aPredictorThatIsNoCandidateIsMeasuredOnEveryConfigurationButNeverSelected() {
    List<Predictor> predictors = List.of(new Memo(new LawPredictor(org.perflab.scaling.Law.SQRT)),
        new Memo(new Oracle("oracle", Candidacy.NEVER)));
    List<Run> runs = amdahl("w", 2, 4, 8, 16, 32, 64);
    Harness.WorkloadEvaluation e = Harness.evaluate("w", runs, predictors);

    List<PredictionRow> oracle = e.rows().stream().filter(r -> r.predictor().equals("oracle")).toList();
    assertThat(oracle).hasSize(6).allSatisfy(r -> {
      assertThat(r.absErrorPct()).isCloseTo(0, within(1e-9));
      assertThat(r.selected()).isFalse();
    });
    assertThat(e.rows().stream().filter(PredictionRow::selected)).hasSize(6)
        .allSatisfy(r -> assertThat(r.predictor()).isEqualTo("sqrt"));
    assertThat(Harness.choose("w", runs, predictors).choice()).get()
        .extracting(Selection.Choice::predictor).isEqualTo("sqrt");
  }

  @Test
  void aFallbackCandidateIsChosenOnlyWhereNoCandidateThatModelsTheConfigurationHasInnerEvidence() {
    List<Predictor> predictors = List.of(new Memo(new LawPredictor(org.perflab.scaling.Law.SQRT)),
        new Memo(new Nearest()), new Memo(new Oracle("fallback_oracle", Candidacy.FALLBACK)));
    // Six core counts: sqrt predicts every held-out configuration from at least 2 inner ones, so the exact
    // fallback is measured and never chosen, though its inner errors are the lowest.
    List<Run> many = amdahl("w", 2, 4, 8, 16, 32, 64);
    Harness.WorkloadEvaluation e = Harness.evaluate("w", many, predictors);
    assertThat(e.rows().stream().filter(r -> r.predictor().equals("fallback_oracle")))
        .hasSize(6).allSatisfy(r -> assertThat(r.selected()).isFalse());
    assertThat(e.rows().stream().filter(PredictionRow::selected)).hasSize(6)
        .allSatisfy(r -> assertThat(r.predictor()).isIn("sqrt", "nearest"));
    assertThat(Harness.choose("w", many, predictors).choice()).get()
        .extracting(Selection.Choice::predictor).isEqualTo("sqrt");
    // Three core counts: no law fits two, and nearest models no configuration: the fallback competes and wins.
    List<Run> few = amdahl("w", 2, 8, 32);
    Harness.WorkloadEvaluation f = Harness.evaluate("w", few, predictors);
    assertThat(f.rows().stream().filter(PredictionRow::selected)).hasSize(3)
        .allSatisfy(r -> assertThat(r.predictor()).isEqualTo("fallback_oracle"));
  }

  @Test
  void nothingMeasuredAtTheHeldOutConfigurationReachesItsPrediction() {
    List<Run> runs = new ArrayList<>(amdahl("w", 2, 4, 8, 16, 32));
    runs.addAll(moreSizes("w"));
    Harness.WorkloadEvaluation before = Harness.evaluate("w", runs, Predictors.runtimeOnly());
    // Triple every run at 8 cores: only the rows that hold out 8 cores may change, and not in their predictions.
    List<Run> changed = runs.stream().map(r -> r.totalCores() == 8 && r.inputBytes() == 10 * GB
        ? new Run(r.runKey(), r.workloadId(), r.inputBytes(), r.executors(), r.coresPerExecutor(),
            r.executorMemoryBytes(), 3 * r.durationS()) : r).toList();
    Harness.WorkloadEvaluation after = Harness.evaluate("w", changed, Predictors.runtimeOnly());

    List<PredictionRow> heldBefore = heldOutAt8(before);
    List<PredictionRow> heldAfter = heldOutAt8(after);
    assertThat(heldAfter).hasSameSizeAs(heldBefore);
    for (int i = 0; i < heldBefore.size(); i++) {
      assertThat(heldAfter.get(i).predictor()).isEqualTo(heldBefore.get(i).predictor());
      assertThat(heldAfter.get(i).predictedS()).isEqualTo(heldBefore.get(i).predictedS());
      assertThat(heldAfter.get(i).lowS()).isEqualTo(heldBefore.get(i).lowS());
      assertThat(heldAfter.get(i).selected()).isEqualTo(heldBefore.get(i).selected());
      assertThat(heldAfter.get(i).actualS()).isEqualTo(3 * heldBefore.get(i).actualS());
    }
  }

  private static List<PredictionRow> heldOutAt8(Harness.WorkloadEvaluation e) {
    return e.rows().stream().filter(r -> r.totalCores() == 8 && r.inputBytes() == 10 * GB).toList();
  }

  /** Runs at two other sizes, so that the cross-size predictors have something to learn from. */
  private static List<Run> moreSizes(String workload) {
    List<Run> runs = new ArrayList<>();
    for (long gb : new long[] {40, 160}) {
      for (int n : new int[] {4, 16}) {
        runs.add(new Run(workload + "/" + gb + "/" + n, workload, gb * GB, n, 1, 4L * GB, 60 * gb * (0.9 / n + 0.1)));
      }
    }
    return runs;
  }

  @Test
  void aWorkloadWithTwoConfigurationsIsSkippedWithItsReason() {
    Harness.WorkloadEvaluation e = Harness.evaluate("small", amdahl("small", 2, 4), Predictors.runtimeOnly());

    assertThat(e.rows()).isEmpty();
    assertThat(e.skipReason()).isEqualTo("Cannot evaluate workload small: 2 configurations (at least 3)");
  }

  @Test
  void aLawWithTooFewCoreCountsGivesNullAndANoteNeverAnException() {
    Harness.WorkloadEvaluation e = Harness.evaluate("w", amdahl("w", 2, 4, 8), Predictors.runtimeOnly());

    List<PredictionRow> laws = e.rows().stream().filter(r -> List.of("amdahl", "sqrt", "power", "gustafson")
        .contains(r.predictor())).toList();
    assertThat(laws).hasSize(12).allSatisfy(r -> {
      assertThat(r.predictedS()).isNull();
      assertThat(r.absErrorPct()).isNull();
      assertThat(r.selected()).isFalse();
      assertThat(r.note()).startsWith("Cannot fit ").contains("(at least 3)");
    });
    assertThat(e.rows().stream().filter(PredictionRow::selected)).hasSize(3)
        .allSatisfy(r -> assertThat(r.predictedS()).isNotNull());
  }

  @Test
  void intervalsComeFromTheInnerRatiosOrderStatistics() {
    // Ratios 0.8, 0.9, ..., 1.7 (m = 10): k_lo = floor(1.1) = 1 and k_hi = ceil(9.9) = 10, the extremes.
    double[] ratios = new double[10];
    for (int i = 0; i < 10; i++) {
      ratios[i] = 0.8 + 0.1 * i;
    }
    InnerErrors inner = new InnerErrors("p", 10, ratios, new double[10], List.of());
    assertThat(inner.interval(100)).containsExactly(new double[] {80, 170}, within(1e-9));
    // m = 30: k_lo = floor(3.1) = 3, k_hi = ceil(27.9) = 28.
    double[] many = new double[30];
    for (int i = 0; i < 30; i++) {
      many[i] = 1 + i;
    }
    assertThat(new InnerErrors("p", 30, many, new double[30], List.of()).interval(1))
        .containsExactly(new double[] {3, 28}, within(1e-9));
    assertThat(new InnerErrors("p", 3, new double[] {1.0}, new double[1], List.of()).interval(5)).isNull();
  }

  @Test
  void noisyRunsGiveIntervalsThatHoldAboutEightyPercent() {
    Random random = new Random(7);
    List<Run> runs = new ArrayList<>();
    int[] cores = {2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96};
    for (int n : cores) {
      for (int rep = 0; rep < 3; rep++) {
        double noise = Math.exp(0.08 * random.nextGaussian());
        runs.add(new Run("r" + n + "/" + rep, "w", 10 * GB, n, 1, null, 600 * (0.9 / n + 0.1) * noise));
      }
    }
    Harness.WorkloadEvaluation e = Harness.evaluate("w", runs, List.of(new LawPredictor(
        org.perflab.scaling.Law.AMDAHL)));

    long covered = e.rows().stream().filter(PredictionRow::covered).count();
    assertThat(e.rows()).hasSize(12);
    assertThat(covered).isBetween(8L, 12L);
  }

  @Test
  void selectionComparesPredictorsOnTheConfigurationsTheyCouldAllPredict() {
    Configuration a = new Configuration(33, 2, 1, null);
    Configuration b = new Configuration(33, 4, 1, null);
    Configuration c = new Configuration(34, 4, 1, null);
    // "wide" predicted a, b and c, and erred 1 % on a and b but 50 % on c; "narrow" predicted only a and b, at 2 %.
    InnerErrors wide = new InnerErrors("wide", 3, new double[] {1, 1, 1}, new double[] {1, 1, 50}, List.of(a, b, c));
    InnerErrors narrow = new InnerErrors("narrow", 3, new double[] {1, 1}, new double[] {2, 2}, List.of(a, b));

    Selection.Choice choice = Selection.choose(List.of(narrow, wide)).orElseThrow();
    assertThat(choice.predictor()).isEqualTo("wide");
    assertThat(choice.innerMaePct()).isEqualTo(1.0);
    assertThat(choice.reason()).contains("on the 2 training configurations that 2 candidates could all predict");

    // With only one common configuration, the one that predicted fewer drops out.
    InnerErrors single = new InnerErrors("single", 3, new double[] {1}, new double[] {0.1}, List.of(a));
    assertThat(Selection.choose(List.of(single, wide)).orElseThrow().predictor()).isEqualTo("wide");
  }
}
