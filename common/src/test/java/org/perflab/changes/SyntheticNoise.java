package org.perflab.changes;

import java.util.Random;

/** Random run-to-run noise for the detector's tests and benchmark. */
public final class SyntheticNoise {
  private SyntheticNoise() {}

  /** A gamma variable of shape {@code k} ≥ 1 and scale 1 (Marsaglia and Tsang's method). */
  public static double gamma(Random random, double k) {
    double d = k - 1.0 / 3;
    double c = 1 / Math.sqrt(9 * d);
    while (true) {
      double x = random.nextGaussian();
      double v = Math.pow(1 + c * x, 3);
      if (v > 0 && Math.log(random.nextDouble()) < 0.5 * x * x + d - d * v + Math.log(v)) {
        return d * v;
      }
    }
  }

  /**
   * A right-skewed factor: 1 + a gamma variable of shape {@code k} scaled to standard deviation {@code sigma}. A run
   * is slowed by it, never sped up.
   */
  public static double skewedFactor(Random random, double k, double sigma) {
    return 1 + gamma(random, k) * sigma / Math.sqrt(k);
  }
}
