package org.perflab.sim;

/**
 * A dagSim measure over {@code n} per-application (or per-task) samples: mean, population standard deviation, and the
 * confidence interval mean ± z·std/√n, in model time units. With no samples every field is NaN.
 */
public record Measure(double mean, double std, double ciLow, double ciHigh, long n) {

  /** The measure of samples with the given sum, sum of squares and count, with CI coefficient {@code z}. */
  public static Measure of(double sum, double sumOfSquares, long n, double z) {
    if (n == 0) {
      return new Measure(Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0);
    }
    double mean = sum / n;
    double std = Math.sqrt(Math.max(0.0, sumOfSquares / n - mean * mean));
    double half = z * std / Math.sqrt(n);
    return new Measure(mean, std, mean - half, mean + half, n);
  }

  /** Half the CI width divided by the mean; NaN without samples, infinite for a zero mean. */
  public double relativeHalfWidth() {
    return (ciHigh - ciLow) / 2.0 / mean;
  }
}
