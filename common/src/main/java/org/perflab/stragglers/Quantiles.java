package org.perflab.stragglers;

import java.util.Arrays;

/** The two order statistics the detector uses, defined once so that Spark and plain Java agree. */
public final class Quantiles {
  private Quantiles() {}

  /**
   * The median with linear interpolation (the mean of the two middle values for an even count), as Spark SQL's
   * {@code median} computes it; NaN for no values.
   */
  public static double median(long[] values) {
    if (values.length == 0) {
      return Double.NaN;
    }
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    int mid = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2.0;
  }

  /**
   * The nearest-rank quantile: the smallest value with at least a share {@code q} of the values at or below it, i.e.
   * the ⌈q·n⌉-th smallest (the smallest for q = 0); Spark's {@code percentile_approx} approximates it. NaN for none.
   */
  public static double nearestRank(double[] values, double q) {
    if (values.length == 0) {
      return Double.NaN;
    }
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int rank = (int) Math.ceil(q * sorted.length - 1e-9);
    return sorted[Math.max(0, Math.min(sorted.length, rank) - 1)];
  }

  /**
   * A task is a straggler when its duration is strictly above {@code factor} times its stage's median, and that
   * median is above 0 ms (a stage of sub-millisecond tasks has no meaningful factor).
   */
  public static boolean isStraggler(long durationMs, double stageMedianMs, double factor) {
    return stageMedianMs > 0 && durationMs > factor * stageMedianMs;
  }
}
