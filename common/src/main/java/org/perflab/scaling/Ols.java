package org.perflab.scaling;

/** Ordinary least squares on one regressor (the GC time model, the DAG-aware stage laws). */
public final class Ols {
  private Ols() {}

  /** {intercept, slope} of y on x, or null when x has fewer than two distinct values. */
  public static double[] line(double[] x, double[] y) {
    int n = x.length;
    double mx = 0;
    double my = 0;
    for (int i = 0; i < n; i++) {
      mx += x[i] / n;
      my += y[i] / n;
    }
    double sxx = 0;
    double sxy = 0;
    for (int i = 0; i < n; i++) {
      sxx += (x[i] - mx) * (x[i] - mx);
      sxy += (x[i] - mx) * (y[i] - my);
    }
    if (n < 2 || sxx <= 1e-12 * Math.max(1, mx * mx) * n) {
      return null;
    }
    double slope = sxy / sxx;
    return new double[] {my - slope * mx, slope};
  }

  /** The slope of y = β × x fitted through the origin; 0 when every x is 0. */
  public static double slopeThroughOrigin(double[] x, double[] y) {
    double sxx = 0;
    double sxy = 0;
    for (int i = 0; i < x.length; i++) {
      sxx += x[i] * x[i];
      sxy += x[i] * y[i];
    }
    return sxx == 0 ? 0 : sxy / sxx;
  }
}
