package org.perflab.sim;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/** Percentiles by linear interpolation between order statistics (R type 7, NumPy's default). */
public final class Percentiles {
  /** The levels reported in results, in percent. */
  public static final int[] LEVELS = {10, 25, 50, 75, 90, 95, 99};

  private Percentiles() {}

  /** The {@code q}-quantile (0 ≤ q ≤ 1) of samples sorted ascending; NaN when there are none. */
  public static double ofSorted(double[] sorted, double q) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    double h = (sorted.length - 1) * q;
    int lo = (int) Math.floor(h);
    int hi = Math.min(lo + 1, sorted.length - 1);
    return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
  }

  /** The reported percentiles ({@code p10} … {@code p99}) of unsorted samples; the input is not modified. */
  public static Map<String, Double> report(double[] samples) {
    double[] sorted = samples.clone();
    Arrays.sort(sorted);
    Map<String, Double> out = new LinkedHashMap<>();
    for (int level : LEVELS) {
      out.put("p" + level, ofSorted(sorted, level / 100.0));
    }
    return out;
  }
}
