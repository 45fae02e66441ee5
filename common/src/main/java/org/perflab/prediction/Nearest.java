package org.perflab.prediction;

import java.util.Comparator;
import java.util.List;

/**
 * The nearest measured configuration's median runtime, unchanged: the baseline a user gets by looking up the closest
 * run they have. Nearest means the closest input size first (|log size ratio|), then the closest task-slot count
 * (|log slot ratio|), then the same series ({@link Configuration#sameSeries}), then the configuration order.
 */
public record Nearest() implements Predictor {
  public static final String NAME = "nearest";

  @Override
  public String name() {
    return NAME;
  }

  /** A lookup: an unmeasured configuration gets a measured one's runtime, unchanged. */
  @Override
  public boolean modelsConfiguration() {
    return false;
  }

  @Override
  public Estimate predict(List<Measured> training, Target target) {
    return nearest(training, target).map(m -> Estimate.of(m.actualS()))
        .orElseGet(() -> Estimate.none("Cannot predict by the nearest configuration: no training configuration (0)"));
  }

  /** The training configuration nearest to {@code target}, by the order above. */
  public static java.util.Optional<Measured> nearest(List<Measured> training, Target target) {
    return training.stream().min(order(target));
  }

  /** Training configurations from the nearest to {@code target} to the farthest, by the order above. */
  static Comparator<Measured> order(Target target) {
    return Comparator.<Measured>comparingDouble(m -> logDistance(m.inputBytes(), target.inputBytes()))
        .thenComparingDouble(m -> logDistance(m.totalCores(), target.totalCores()))
        .thenComparing(m -> m.configuration().sameSeries(target.configuration()) ? 0 : 1)
        .thenComparing(Measured::configuration);
  }

  /** |ln(a ÷ b)|, treating sizes below 1 as 1. */
  static double logDistance(double a, double b) {
    return Math.abs(Math.log(Math.max(a, 1)) - Math.log(Math.max(b, 1)));
  }
}
