package org.perflab.scaling;

import java.util.Arrays;

/**
 * Non-negative least squares: min ‖A·x − b‖ subject to x ≥ 0, by the active-set algorithm of Lawson and Hanson
 * (Solving Least Squares Problems, 1974, ch. 23). Columns enter the passive (free) set one at a time, the one whose
 * gradient component Aᵀ(b − A·x) is largest; each step solves the unconstrained problem on the passive set
 * ({@link LeastSquares}, Householder QR) and, when that solution has a non-positive component, moves back along the
 * segment to the first constraint it meets and frees that column. It ends when no column outside the passive set
 * would lower the residual (the KKT conditions), and terminates in finitely many steps; an iteration cap of 30·k
 * guards against cycling on rounding.
 */
public final class Nnls {
  private Nnls() {}

  /**
   * The non-negative least-squares solution.
   *
   * @param a m rows of k values each (m ≥ 1, k ≥ 1), finite
   * @param b m finite values
   * @return x, k values ≥ 0
   * @throws IllegalArgumentException when the dimensions do not match
   */
  public static double[] solve(double[][] a, double[] b) {
    if (a.length == 0 || a.length != b.length || Arrays.stream(a).anyMatch(row -> row.length != a[0].length)) {
      throw new IllegalArgumentException(String.format("Cannot solve NNLS: A has %d rows of unequal or zero length,"
          + " or b has another length (%d)", a.length, b.length));
    }
    int k = a[0].length;
    double tolerance = 1e-11 * maxColumnNorm(a) * norm(b);
    double[] x = new double[k];
    boolean[] passive = new boolean[k];
    boolean[] rejected = new boolean[k];
    for (int iteration = 0; iteration < 30 * k; iteration++) {
      int entering = entering(gradient(a, b, x), passive, rejected, tolerance);
      if (entering < 0) {
        break;
      }
      passive[entering] = true;
      double[] before = x.clone();
      x = feasibleStep(a, b, x, passive);
      // A column that left at once (rounding) would enter again and again: skip it until x moves.
      if (!passive[entering] && Arrays.equals(before, x)) {
        rejected[entering] = true;
      } else {
        Arrays.fill(rejected, false);
      }
    }
    return x;
  }

  /** The column outside the passive set with the largest gradient component above the tolerance, or −1. */
  private static int entering(double[] w, boolean[] passive, boolean[] rejected, double tolerance) {
    int best = -1;
    for (int j = 0; j < w.length; j++) {
      if (!passive[j] && !rejected[j] && w[j] > tolerance && (best < 0 || w[j] > w[best])) {
        best = j;
      }
    }
    return best;
  }

  /**
   * The inner loop: the least-squares solution z on the passive set when it is positive there; otherwise the step
   * from x towards z stops at the first component to reach 0, that column leaves the passive set, and z is solved
   * again. Updates {@code passive}.
   */
  private static double[] feasibleStep(double[][] a, double[] b, double[] x, boolean[] passive) {
    double[] current = x.clone();
    while (true) {
      double[] z = LeastSquares.solve(a, b, passive);
      int blocking = -1;
      double alpha = Double.POSITIVE_INFINITY;
      for (int j = 0; j < z.length; j++) {
        if (passive[j] && z[j] <= 0) {
          double step = current[j] / (current[j] - z[j]);
          if (step < alpha) {
            alpha = step;
            blocking = j;
          }
        }
      }
      if (blocking < 0) {
        return z;
      }
      for (int j = 0; j < z.length; j++) {
        current[j] += alpha * (z[j] - current[j]);
        if (passive[j] && (j == blocking || current[j] <= 0)) {
          passive[j] = false;
          current[j] = 0;
        }
      }
    }
  }

  /** Aᵀ(b − A·x): the negative gradient of ½‖A·x − b‖². */
  private static double[] gradient(double[][] a, double[] b, double[] x) {
    double[] w = new double[x.length];
    for (int i = 0; i < b.length; i++) {
      double residual = b[i];
      for (int j = 0; j < x.length; j++) {
        residual -= a[i][j] * x[j];
      }
      for (int j = 0; j < x.length; j++) {
        w[j] += a[i][j] * residual;
      }
    }
    return w;
  }

  private static double maxColumnNorm(double[][] a) {
    double max = 0;
    for (int j = 0; j < a[0].length; j++) {
      double sum = 0;
      for (double[] row : a) {
        sum += row[j] * row[j];
      }
      max = Math.max(max, Math.sqrt(sum));
    }
    return max;
  }

  private static double norm(double[] b) {
    return Math.sqrt(Arrays.stream(b).map(v -> v * v).sum());
  }
}
