package org.perflab.scaling;

import java.util.function.DoubleUnaryOperator;

/**
 * A one-dimensional global minimiser for the profile searches of the nonlinear laws: the function at every point of
 * a grid, then a golden-section search between the neighbours of the best grid point. It finds the global minimum
 * whenever the grid is fine enough to put a point in its basin, which a local method started at one point cannot
 * promise.
 */
final class Minimiser {
  private static final double INVERSE_PHI = (Math.sqrt(5) - 1) / 2;
  private static final int MAX_ITERATIONS = 200;

  /**
   * Where the minimum lies.
   *
   * @param x the minimiser
   * @param atBound whether the best grid point was the first or the last, so that the minimum may lie beyond the grid
   */
  record Minimum(double x, boolean atBound) {}

  private Minimiser() {}

  /**
   * The minimiser of {@code f} over {@code [grid[0], grid[grid.length − 1]]}.
   *
   * @param grid at least two points, in ascending order; {@code f} is finite at every one of them, or +∞
   */
  static Minimum minimise(DoubleUnaryOperator f, double[] grid) {
    int best = 0;
    double bestValue = Double.POSITIVE_INFINITY;
    for (int i = 0; i < grid.length; i++) {
      double value = f.applyAsDouble(grid[i]);
      if (value < bestValue) {
        best = i;
        bestValue = value;
      }
    }
    double polished = golden(f, grid[Math.max(best - 1, 0)], grid[Math.min(best + 1, grid.length - 1)]);
    double x = f.applyAsDouble(polished) <= bestValue ? polished : grid[best];
    return new Minimum(x, best == 0 || best == grid.length - 1);
  }

  /** Golden-section search for a minimum of {@code f} in {@code [lo, hi]}, to the resolution of doubles. */
  private static double golden(DoubleUnaryOperator f, double lo, double hi) {
    double a = lo;
    double b = hi;
    double c = b - INVERSE_PHI * (b - a);
    double d = a + INVERSE_PHI * (b - a);
    double fc = f.applyAsDouble(c);
    double fd = f.applyAsDouble(d);
    for (int i = 0; i < MAX_ITERATIONS && b - a > 1e-15 * Math.max(1, Math.abs(a) + Math.abs(b)); i++) {
      if (fc <= fd) {
        b = d;
        d = c;
        fd = fc;
        c = b - INVERSE_PHI * (b - a);
        fc = f.applyAsDouble(c);
      } else {
        a = c;
        c = d;
        fc = fd;
        d = a + INVERSE_PHI * (b - a);
        fd = f.applyAsDouble(d);
      }
    }
    return (a + b) / 2;
  }

  /** {@code count} evenly spaced points from {@code lo} to {@code hi}, both included. */
  static double[] grid(double lo, double hi, int count) {
    double[] points = new double[count];
    for (int i = 0; i < count; i++) {
      points[i] = lo + (hi - lo) * i / (count - 1);
    }
    return points;
  }
}
