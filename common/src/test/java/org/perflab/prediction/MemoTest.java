package org.perflab.prediction;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class MemoTest {
  /** Two input sizes, five executor counts, three noisy runs each: Amdahl-like with a size-dependent serial part. */
  private static List<Run> runs(String workload, double scale) {
    Random random = new Random(7);
    List<Run> runs = new ArrayList<>();
    for (long bytes : new long[] {10_000_000_000L, 80_000_000_000L}) {
      for (int n : new int[] {2, 4, 8, 16, 32}) {
        for (int rep = 0; rep < 3; rep++) {
          double seconds = scale * (bytes / 1e8) * (0.85 / n + 0.15) * Math.exp(0.05 * random.nextGaussian());
          runs.add(new Run(workload + "/" + bytes + "/" + n + "/" + rep, workload, bytes, n, 2, null, seconds));
        }
      }
    }
    return runs;
  }

  /** The predictors of {@link Predictors#runtimeOnly} as issue 11's harness ran them ({@link Predictors#unremembered}). */
  private static List<Predictor> unremembered() {
    return Predictors.runtimeOnly().stream().map(Predictors::unremembered).toList();
  }

  @Test
  void rememberedFitsGiveTheHarnessTheSameRowsAsFitsMadeAnewAndNeverCrossWorkloads() {
    List<Predictor> remembered = Predictors.runtimeOnly();
    assertThat(remembered).anyMatch(p -> p instanceof Memo);
    // Two workloads with the same configurations but runtimes 3x apart, through the same remembered predictors:
    // an entry shared across workloads would give the second the first's predictions.
    for (double scale : new double[] {1, 3}) {
      List<Run> runs = runs("w" + scale, scale);
      List<PredictionRow> fresh = Harness.evaluate("w", runs, unremembered()).rows();
      List<PredictionRow> memo = Harness.evaluate("w", runs, remembered).rows();
      assertThat(memo).isEqualTo(fresh);
      assertThat(memo).filteredOn(r -> r.predictedS() != null).hasSizeGreaterThan(60);
    }
  }
}
