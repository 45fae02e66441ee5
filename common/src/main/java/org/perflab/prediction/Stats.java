package org.perflab.prediction;

import java.util.Arrays;

/** Small order statistics over doubles, as the harness reports them. */
public final class Stats {
  private Stats() {}

  /** The median (mean of the two middle values for an even count); NaN for none. */
  public static double median(double[] values) {
    return quantile(values, 0.5);
  }

  /**
   * The {@code q} quantile by linear interpolation between order statistics (the "type 7" definition of R and
   * NumPy's default); NaN for none.
   */
  public static double quantile(double[] values, double q) {
    if (values.length == 0) {
      return Double.NaN;
    }
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    double h = (sorted.length - 1) * q;
    int lo = (int) Math.floor(h);
    int hi = Math.min(lo + 1, sorted.length - 1);
    return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
  }

  /** The mean; NaN for none. */
  public static double mean(double[] values) {
    return Arrays.stream(values).average().orElse(Double.NaN);
  }
}
