package org.perflab.scaling;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.IntFunction;

/** How well a fitted model describes its points: R² (Eq. 10 of reference 003) and the leave-one-out error. */
final class Goodness {
  private Goodness() {}

  /**
   * R² = 1 − SS_res / SS_tot, with SS_tot centred on the mean of {@code y} whatever the model (so that it can be
   * negative, also for the intercept-free Eq. 9); NaN when SS_tot is 0 (every runtime equal).
   */
  static double r2(double[] y, double[] predicted) {
    double mean = 0;
    for (double v : y) {
      mean += v / y.length;
    }
    double residual = 0;
    double total = 0;
    for (int i = 0; i < y.length; i++) {
      residual += (y[i] - predicted[i]) * (y[i] - predicted[i]);
      total += (y[i] - mean) * (y[i] - mean);
    }
    return total == 0 ? Double.NaN : 1 - residual / total;
  }

  /**
   * The leave-one-point-out mean absolute percentage error: over the points {@code i} with a non-zero runtime
   * whose fold can be fitted, the mean of |y_i − ŷ_i| ÷ |y_i| × 100, where ŷ_i comes from a fit without point
   * {@code i}; NaN when no fold can be fitted.
   *
   * @param heldOut the prediction at point {@code i} from the fit without it, or null when that fit is impossible
   */
  static double looErrorPct(double[] y, IntFunction<Double> heldOut) {
    double sum = 0;
    int folds = 0;
    for (int i = 0; i < y.length; i++) {
      Double predicted = y[i] == 0 ? null : heldOut.apply(i);
      if (predicted != null && Double.isFinite(predicted)) {
        sum += Math.abs(y[i] - predicted) / Math.abs(y[i]) * 100;
        folds++;
      }
    }
    return folds == 0 ? Double.NaN : sum / folds;
  }

  /** {@code values} without the element at {@code index}. */
  static double[] without(double[] values, int index) {
    double[] rest = new double[values.length - 1];
    System.arraycopy(values, 0, rest, 0, index);
    System.arraycopy(values, index + 1, rest, index, values.length - index - 1);
    return rest;
  }

  /** The number of distinct tuples {@code (columns[0][i], columns[1][i], ...)}. */
  static int distinct(double[]... columns) {
    Set<List<Double>> seen = new HashSet<>();
    for (int i = 0; i < columns[0].length; i++) {
      Double[] tuple = new Double[columns.length];
      for (int c = 0; c < columns.length; c++) {
        tuple[c] = columns[c][i];
      }
      seen.add(List.of(tuple));
    }
    return seen.size();
  }
}
