package org.perflab.scaling;

import java.util.Arrays;
import java.util.function.DoubleUnaryOperator;

/**
 * The exact least-squares solvers of reference 003 §2.5, unweighted and unconstrained as the paper's gnuplot fits:
 * each returns the optimum gnuplot's Marquardt–Levenberg reaches when it converges, without its start values.
 *
 * <ul>
 *   <li>Eq. 9: ordinary least squares on the regressors 1/n and √n, no intercept, in closed form.
 *   <li>Amdahl: ordinary least squares of runtime on 1/n with an intercept, A·(1/n) + B, mapped back by the bijection
 *       t = A + B, f = B / (A + B).
 *   <li>Eq. 11: for fixed c it is Eq. 9 with n^c for √n; c is searched over [{@value #C_MIN}, {@value #C_MAX}] on a
 *       grid of {@value #C_GRID} points, then polished by golden section between the best point's neighbours.
 *   <li>Gustafson: for fixed f the optimal t is Σ g·y / Σ g² with g = 1/(n + (1 − n)·f), so only f is searched,
 *       on the side of the poles where every denominator is positive: f &lt; f_p = n_max/(n_max − 1), the first
 *       pole. The search runs over log(f_p − f) from log(1e-9) to log(1e4), on a grid of {@value #F_GRID} points
 *       plus the reciprocal linearisation's start (1/runtime = α·n + β, f0 = β/(α + β)), then golden section. The
 *       branch beyond the poles, where the predicted runtime of every n ≥ 2 changes sign and where
 *       Marquardt–Levenberg from gnuplot's default start (t = f = 1) ends (f ≈ 1.25e9, negative R²), is never
 *       searched.
 * </ul>
 */
final class LawSolvers {
  /** The search range and grid of Eq. 11's exponent c (unitless). */
  static final double C_MIN = 0.001;
  static final double C_MAX = 3;
  static final int C_GRID = 300;
  /** The search range of f_p − f for Gustafson, and its grid (log-spaced). */
  static final double POLE_DISTANCE_MIN = 1e-9;
  static final double POLE_DISTANCE_MAX = 1e4;
  static final int F_GRID = 400;

  /**
   * A solver's result.
   *
   * @param params the parameters in the order of {@link Law#parameters()}, or null when there are none
   * @param note why there are none, or what to know about them (a parameter at its search bound); null otherwise
   */
  record Solution(double[] params, String note) {}

  private LawSolvers() {}

  /**
   * The least-squares parameters of {@code law} over the points (n_i, y_i).
   *
   * @param n core counts, each ≥ 1, with at least as many distinct values as the law has parameters
   * @param y runtimes in seconds, finite
   */
  static Solution solve(Law law, double[] n, double[] y) {
    return switch (law) {
      case AMDAHL -> amdahl(n, y);
      case GUSTAFSON -> gustafson(n, y);
      case SQRT -> sqrt(n, y);
      case POWER -> power(n, y);
    };
  }

  private static Solution sqrt(double[] n, double[] y) {
    double[] ab = twoRegressors(map(n, v -> 1 / v), map(n, Math::sqrt), y);
    return ab == null ? new Solution(null, "Cannot fit sqrt: 1/n and √n are collinear over these core counts")
        : new Solution(ab, null);
  }

  private static Solution amdahl(double[] n, double[] y) {
    double[] ab = twoRegressors(map(n, v -> 1 / v), map(n, v -> 1), y);
    if (ab == null || ab[0] + ab[1] == 0) {
      return new Solution(null, "Cannot fit amdahl: the fitted runtime at one core is 0, so f is undefined (t = 0)");
    }
    double t = ab[0] + ab[1];
    return new Solution(new double[] {t, ab[1] / t}, null);
  }

  private static Solution power(double[] n, double[] y) {
    double[] inverse = map(n, v -> 1 / v);
    DoubleUnaryOperator sse = c -> sse(twoRegressors(inverse, powers(n, c), y), inverse, powers(n, c), y);
    Minimiser.Minimum best = Minimiser.minimise(sse, Minimiser.grid(C_MIN, C_MAX, C_GRID));
    double c = best.x();
    double[] ab = twoRegressors(inverse, powers(n, c), y);
    if (ab == null) {
      return new Solution(null, "Cannot fit power: 1/n and n^c are collinear over these core counts");
    }
    String note = best.atBound() ? String.format("c at a bound of its search range (%s; [%s, %s])", Points.brief(c),
        Points.brief(C_MIN), Points.brief(C_MAX)) : null;
    return new Solution(new double[] {ab[0], ab[1], c}, note);
  }

  private static Solution gustafson(double[] n, double[] y) {
    double pole = pole(n);
    DoubleUnaryOperator sse = z -> gustafsonSse(n, y, pole - Math.exp(z));
    Minimiser.Minimum best = Minimiser.minimise(sse, gustafsonGrid(n, y, pole));
    double f = pole - Math.exp(best.x());
    double[] g = gustafsonShape(n, f);
    double t = dot(g, y) / dot(g, g);
    String note = best.atBound() ? String.format("f at a bound of its search range (%s; f_p − f in [%s, %s],"
        + " f_p = %s)", Points.brief(f), Points.brief(POLE_DISTANCE_MIN), Points.brief(POLE_DISTANCE_MAX),
        Points.brief(pole)) : null;
    return new Solution(new double[] {t, f}, note);
  }

  /** n_max/(n_max − 1): the smallest f at which a denominator n + (1 − n)·f reaches 0 (n ≥ 1, n_max &gt; 1). */
  private static double pole(double[] n) {
    double max = Arrays.stream(n).max().orElseThrow();
    return max / (max - 1);
  }

  /** The log-spaced grid of log(f_p − f), with the reciprocal linearisation's start added when it is feasible. */
  private static double[] gustafsonGrid(double[] n, double[] y, double pole) {
    double[] grid = Minimiser.grid(Math.log(POLE_DISTANCE_MIN), Math.log(POLE_DISTANCE_MAX), F_GRID);
    if (Arrays.stream(y).anyMatch(v -> v == 0)) {
      return grid;
    }
    double[] ab = twoRegressors(n, map(n, v -> 1), map(y, v -> 1 / v));
    double start = ab == null ? Double.NaN : Math.log(pole - ab[1] / (ab[0] + ab[1]));
    if (start > grid[0] && start < grid[grid.length - 1]) {
      grid = Arrays.copyOf(grid, grid.length + 1);
      grid[grid.length - 1] = start;
      Arrays.sort(grid);
    }
    return grid;
  }

  private static double gustafsonSse(double[] n, double[] y, double f) {
    double[] g = gustafsonShape(n, f);
    double t = dot(g, y) / dot(g, g);
    double sum = 0;
    for (int i = 0; i < y.length; i++) {
      sum += (y[i] - t * g[i]) * (y[i] - t * g[i]);
    }
    return Double.isFinite(sum) ? sum : Double.POSITIVE_INFINITY;
  }

  /** g_i = 1/(n_i + (1 − n_i)·f): Gustafson's runtime for t = 1. */
  private static double[] gustafsonShape(double[] n, double f) {
    return map(n, v -> 1 / (v + (1 - v) * f));
  }

  /**
   * The least-squares (a, b) of y ≈ a·u + b·v, no intercept, by the normal equations in closed form (§2.5); null
   * when u and v are collinear (the determinant vanishes against Σu²·Σv²).
   */
  static double[] twoRegressors(double[] u, double[] v, double[] y) {
    double suu = dot(u, u);
    double svv = dot(v, v);
    double suv = dot(u, v);
    double det = suu * svv - suv * suv;
    if (!(det > 1e-12 * suu * svv)) {
      return null;
    }
    double suy = dot(u, y);
    double svy = dot(v, y);
    return new double[] {(svv * suy - suv * svy) / det, (suu * svy - suv * suy) / det};
  }

  private static double sse(double[] ab, double[] u, double[] v, double[] y) {
    if (ab == null) {
      return Double.POSITIVE_INFINITY;
    }
    double sum = 0;
    for (int i = 0; i < y.length; i++) {
      double r = y[i] - ab[0] * u[i] - ab[1] * v[i];
      sum += r * r;
    }
    return sum;
  }

  private static double[] powers(double[] n, double c) {
    return map(n, v -> Math.pow(v, c));
  }

  private static double[] map(double[] values, DoubleUnaryOperator f) {
    return Arrays.stream(values).map(f).toArray();
  }

  private static double dot(double[] a, double[] b) {
    double sum = 0;
    for (int i = 0; i < a.length; i++) {
      sum += a[i] * b[i];
    }
    return sum;
  }
}
