package org.perflab.prediction;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A predictor's errors on its own training configurations: each one predicted from the others (inner
 * leave-one-configuration-out). They choose the predictor ({@link Selection}) and size its interval, and never see
 * the configuration held out by the outer loop.
 *
 * @param predictor the predictor's name
 * @param attempted training configurations tried
 * @param ratios actual ÷ predicted, one per configuration the predictor could predict
 * @param absErrorsPct |actual − predicted| ÷ actual × 100, likewise
 * @param configurations the configuration of each ratio and error
 */
public record InnerErrors(String predictor, int attempted, double[] ratios, double[] absErrorsPct,
    List<Configuration> configurations) implements java.io.Serializable {
  /** The interval's coverage: 80 %, the 10th to the 90th percentile. */
  public static final double LOW_LEVEL = 0.10;
  public static final double HIGH_LEVEL = 0.90;
  /** Fewest inner predictions that give an interval. */
  public static final int MIN_FOR_INTERVAL = 2;

  /** The inner errors of {@code predictor} over {@code training}. */
  public static InnerErrors of(Predictor predictor, List<Measured> training) {
    List<Double> ratios = new ArrayList<>();
    List<Double> errors = new ArrayList<>();
    List<Configuration> predicted = new ArrayList<>();
    for (int i = 0; i < training.size(); i++) {
      Measured left = training.get(i);
      List<Measured> rest = new ArrayList<>(training);
      rest.remove(i);
      Estimate e = predictor.predict(rest, left.target());
      if (e.present()) {
        ratios.add(left.actualS() / e.predictedS());
        errors.add(PredictionRow.absErrorPct(left.actualS(), e.predictedS()));
        predicted.add(left.configuration());
      }
    }
    return new InnerErrors(predictor.name(), training.size(),
        ratios.stream().mapToDouble(Double::doubleValue).toArray(),
        errors.stream().mapToDouble(Double::doubleValue).toArray(), List.copyOf(predicted));
  }

  /** Mean absolute error, percent, over the inner predictions of {@code among} only; NaN for none. */
  public double meanAbsErrorPct(java.util.Set<Configuration> among) {
    double sum = 0;
    int n = 0;
    for (int i = 0; i < absErrorsPct.length; i++) {
      if (among.contains(configurations.get(i))) {
        sum += absErrorsPct[i];
        n++;
      }
    }
    return n == 0 ? Double.NaN : sum / n;
  }

  /** Inner predictions made. */
  public int predicted() {
    return ratios.length;
  }

  /** Mean absolute error of the inner predictions, percent; NaN for none. */
  public double meanAbsErrorPct() {
    return Stats.mean(absErrorsPct);
  }

  /**
   * The 80 % interval around {@code predictedS}: {@code predictedS} times the ratios' order statistics k_lo =
   * ⌊0.1 (m + 1)⌋ and k_hi = ⌈0.9 (m + 1)⌉ of m ratios (split-conformal), clamped to the smallest and largest ratio
   * when m is small. Null when there are fewer than {@value #MIN_FOR_INTERVAL} ratios.
   *
   * @return {low, high} in seconds, or null
   */
  public double[] interval(double predictedS) {
    int m = ratios.length;
    if (m < MIN_FOR_INTERVAL) {
      return null;
    }
    double[] sorted = ratios.clone();
    Arrays.sort(sorted);
    int kLo = Math.max(1, Math.min(m, (int) Math.floor(LOW_LEVEL * (m + 1))));
    int kHi = Math.max(1, Math.min(m, (int) Math.ceil(HIGH_LEVEL * (m + 1))));
    return new double[] {predictedS * sorted[kLo - 1], predictedS * sorted[kHi - 1]};
  }
}
