package org.perflab.prediction;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.DoubleBinaryOperator;
import org.junit.jupiter.api.Test;
import org.perflab.scaling.Law;

class BlendTest {
  private static final long GB = 1_000_000_000L;
  private static final long SMALL = 10 * GB;
  private static final long LARGE = 80 * GB;

  /** A piecewise truth: Amdahl with 10 % serial time at the small size, the square-root law at the large one. */
  private static double truth(double bytes, double cores) {
    return bytes < 20 * GB ? 600 * (0.9 / cores + 0.1) : 4000 / cores + 60 * Math.sqrt(cores);
  }

  /** A predictor that knows one piece of the truth and applies it everywhere, as a law fitted to one regime would. */
  private record OnePiece(String name, DoubleBinaryOperator law) implements Predictor {
    @Override
    public Estimate predict(List<Measured> training, Target target) {
      return Estimate.of(law.applyAsDouble(target.inputBytes(), target.totalCores()));
    }
  }

  private static List<Run> piecewise(double noiseSigma, long seed) {
    Random random = new Random(seed);
    List<Run> runs = new ArrayList<>();
    for (long bytes : new long[] {SMALL, LARGE}) {
      for (int n : new int[] {2, 3, 4, 6, 8, 12, 16, 24, 32}) {
        for (int rep = 0; rep < 3; rep++) {
          double noise = Math.exp(noiseSigma * random.nextGaussian());
          runs.add(new Run(bytes + "/" + n + "/" + rep, "w", bytes, n, 1, null, truth(bytes, n) * noise));
        }
      }
    }
    return runs;
  }

  private static double meanError(Harness.WorkloadEvaluation e, String predictor) {
    return e.rows().stream().filter(r -> r.predictor().equals(predictor))
        .mapToDouble(PredictionRow::absErrorPct).average().orElseThrow();
  }

  @Test
  void onAPiecewiseLawTheBlendFollowsTheMemberThatHoldsNearTheTargetAndBeatsEach() {
    Predictor amdahlPiece = new OnePiece("amdahl_piece", (b, n) -> 600 * (0.9 / n + 0.1));
    Predictor sqrtPiece = new OnePiece("sqrt_piece", (b, n) -> 4000 / n + 60 * Math.sqrt(n));
    Blend blend = new Blend(Blend.NAME, List.of(amdahlPiece, sqrtPiece));

    Harness.WorkloadEvaluation e = Harness.evaluate("w", piecewise(0, 1), List.of(amdahlPiece, sqrtPiece, blend));

    // Each member is exact on its half and far off on the other; the blend's local weights pick the right half.
    assertThat(meanError(e, "amdahl_piece")).isGreaterThan(20);
    assertThat(meanError(e, "sqrt_piece")).isGreaterThan(20);
    assertThat(meanError(e, Blend.NAME)).isLessThan(0.5);
    assertThat(e.rows().stream().filter(PredictionRow::selected))
        .allSatisfy(r -> assertThat(r.predictor()).isEqualTo(Blend.NAME));
  }

  @Test
  void aBlendOfTheRealLawsKeepsItsIntervalCoverageOnKnownNoise() {
    // Lognormal noise of 8 % on the piecewise truth; the laws fitted per series with the blend over them.
    List<Predictor> laws = List.of(new LawPredictor(Law.SQRT), new LawPredictor(Law.AMDAHL), new Nearest());
    List<Predictor> predictors = new ArrayList<>(laws);
    predictors.add(new Blend(Blend.NAME, laws));
    long covered = 0;
    long total = 0;
    for (long seed = 1; seed <= 2; seed++) {
      Harness.WorkloadEvaluation e = Harness.evaluate("w", piecewise(0.08, seed), predictors);
      List<PredictionRow> blend = e.rows().stream().filter(r -> r.predictor().equals(Blend.NAME)
          && r.lowS() != null).toList();
      covered += blend.stream().filter(PredictionRow::covered).count();
      total += blend.size();
    }
    assertThat(total).isEqualTo(2 * 18);
    assertThat((double) covered / total).isBetween(0.70, 0.95);
  }

  @Test
  void aBlendWithoutEvidenceGivesNullAndANote() {
    Blend blend = new Blend(Blend.NAME, List.of(new LawPredictor(Law.AMDAHL)));
    List<Measured> training = Harness.configurations(List.of(
        new Run("a", "w", SMALL, 2, 1, null, 300), new Run("b", "w", SMALL, 4, 1, null, 180)));

    Estimate e = blend.predict(training, new Target(new Configuration(33, 8, 1, null), SMALL));
    assertThat(e.present()).isFalse();
    assertThat(e.note()).startsWith("Cannot predict by blend");
  }
}
