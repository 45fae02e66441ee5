package org.perflab.prediction;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The runs' own noise, which no predictor can beat: the mean absolute error, percent, of predicting a
 * configuration's median duration from a random half of its runs, measured by the median of the other half. Every
 * configuration with at least 2 runs counts once; each is split {@value #SPLITS} times (seeded) and its errors
 * averaged, so that the figure does not hang on one split.
 */
public final class NoiseFloor {
  /** Random splits per configuration. */
  public static final int SPLITS = 20;

  private NoiseFloor() {}

  /**
   * The noise floor over the configurations of {@code runs} (any number of workloads).
   *
   * @param runs the runs
   * @param seed the seed of the splits
   * @return the floor and the configurations it was measured on
   */
  public static Floor of(List<Run> runs, long seed) {
    Random random = new Random(seed);
    double sum = 0;
    int configurations = 0;
    for (List<Run> workload : Harness.byWorkload(runs).values()) {
      for (Measured m : Harness.configurations(workload)) {
        if (m.runs() >= 2) {
          sum += splitError(m.members(), random);
          configurations++;
        }
      }
    }
    return new Floor(configurations == 0 ? Double.NaN : sum / configurations, configurations);
  }

  /**
   * A noise floor.
   *
   * @param meanAbsErrorPct the mean absolute error of one half's median against the other's, percent; NaN when no
   *     configuration has 2 runs
   * @param configurations configurations with at least 2 runs
   */
  public record Floor(double meanAbsErrorPct, int configurations) implements java.io.Serializable {}

  /** The mean over {@value #SPLITS} random halvings of |median(A) − median(B)| ÷ median(B) × 100. */
  static double splitError(List<Run> runs, Random random) {
    List<Run> shuffled = new ArrayList<>(runs);
    double sum = 0;
    for (int s = 0; s < SPLITS; s++) {
      Collections.shuffle(shuffled, random);
      int half = shuffled.size() / 2;
      double a = median(shuffled.subList(0, half));
      double b = median(shuffled.subList(half, shuffled.size()));
      sum += PredictionRow.absErrorPct(b, a);
    }
    return sum / SPLITS;
  }

  private static double median(List<Run> runs) {
    return Stats.median(runs.stream().mapToDouble(Run::durationS).toArray());
  }
}
