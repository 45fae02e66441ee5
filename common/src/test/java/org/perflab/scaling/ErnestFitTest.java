package org.perflab.scaling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** Ernest's model: exact recovery, non-negative θ where least squares would go negative, units, and bad points. */
class ErnestFitTest {
  private static final double GB = 1e9;
  /** Four sizes (1 to 8 GB) at four core counts (2 to 16) each. */
  private static final double[] BYTES = new double[16];
  private static final double[] CORES = new double[16];

  static {
    for (int i = 0; i < 16; i++) {
      BYTES[i] = GB * (1 << (i / 4));
      CORES[i] = 2 << (i % 4);
    }
  }

  @Test
  void nonNegativeParametersAreRecoveredFromNoiseFreePoints() {
    double[] theta = {5, 40, 3, 0.2};
    ErnestFit fit = ErnestFit.fit(BYTES, CORES, runtimes(theta));
    assertThat(fit.ok()).isTrue();
    assertThat(fit.note()).isNull();
    assertThat(fit.theta()).containsExactly(theta, within(1e-9));
    assertThat(fit.r2()).isCloseTo(1, within(1e-12));
    assertThat(fit.looErrorPct()).isCloseTo(0, within(1e-9));
    assertThat(fit.points()).isEqualTo(16);
    // 16 GB on 32 cores: 5 + 40·0.5 + 3·ln 32 + 0.2·32.
    assertThat(fit.predict(16 * GB, 32)).isCloseTo(5 + 20 + 3 * Math.log(32) + 6.4, within(1e-9));
  }

  @Test
  void theModelAloneHasTheFitsThetaWithoutItsDiagnostics() {
    double[] y = runtimes(new double[] {10, 50, 0, -0.5});
    ErnestFit fit = ErnestFit.fit(BYTES, CORES, y);
    ErnestFit model = ErnestFit.model(BYTES, CORES, y);
    assertThat(model.theta()).containsExactly(fit.theta());
    assertThat(model.predict(16 * GB, 32)).isEqualTo(fit.predict(16 * GB, 32));
    assertThat(fit.looErrorPct()).isFinite();
    assertThat(model.r2()).isNaN();
    assertThat(model.looErrorPct()).isNaN();
    assertThat(ErnestFit.model(new double[] {GB}, new double[] {2}, new double[] {10}).note())
        .isEqualTo(ErnestFit.fit(new double[] {GB}, new double[] {2}, new double[] {10}).note());
  }

  @Test
  void whereLeastSquaresGivesANegativeCoefficientNnlsKeepsItAtZero() {
    // A true θ3 of −0.5: unconstrained least squares recovers it exactly; Ernest may not go below 0.
    double[] y = runtimes(new double[] {10, 50, 0, -0.5});
    double[][] a = new double[y.length][];
    for (int i = 0; i < y.length; i++) {
      a[i] = ErnestFit.features(BYTES[i], CORES[i]);
    }
    double[] unconstrained = LeastSquares.solve(a, y, new boolean[] {true, true, true, true});
    assertThat(unconstrained[3]).isCloseTo(-0.5, within(1e-9));

    ErnestFit fit = ErnestFit.fit(BYTES, CORES, y);
    assertThat(java.util.Arrays.stream(fit.theta()).min().getAsDouble()).isGreaterThanOrEqualTo(0);
    assertThat(fit.theta()[3]).isZero();
    assertThat(fit.r2()).isLessThan(1).isGreaterThan(0.9);
    // The NNLS optimum is the least-squares solution on some set of columns with every component ≥ 0: the best of
    // those over all 15 non-empty sets (θ = (4.990381, 51.433167, 0, 0), SSE 82.417853, as scipy.optimize.nnls).
    double best = Double.POSITIVE_INFINITY;
    for (int set = 1; set < 16; set++) {
      boolean[] use = new boolean[4];
      for (int j = 0; j < 4; j++) {
        use[j] = (set >> j & 1) == 1;
      }
      double[] theta = LeastSquares.solve(a, y, use);
      if (java.util.Arrays.stream(theta).min().getAsDouble() >= 0) {
        best = Math.min(best, sse(theta, y));
      }
    }
    assertThat(sse(fit, y)).isCloseTo(best, within(1e-9 * best)).isCloseTo(82.417853, within(1e-6));
    assertThat(fit.theta()).containsExactly(new double[] {4.990381, 51.433167, 0, 0}, within(1e-6));
  }

  @Test
  void tooFewConfigurationsGiveANote() {
    double[] bytes = {GB, GB, 2 * GB, 2 * GB, 4 * GB};
    double[] cores = {2, 2, 4, 4, 8};
    ErnestFit fit = ErnestFit.fit(bytes, cores, new double[] {10, 11, 12, 12, 13});
    assertThat(fit.ok()).isFalse();
    assertThat(fit.theta()).isNull();
    assertThat(fit.predict(GB, 2)).isNaN();
    assertThat(fit.note())
        .isEqualTo("Cannot fit ernest: 3 distinct (input size, core count) configurations (at least 4)");
  }

  @Test
  void badPointsGiveANote() {
    assertThat(ErnestFit.fit(new double[] {-1, 1, 2, 3}, new double[] {1, 2, 3, 4}, new double[] {1, 2, 3, 4}).note())
        .isEqualTo("Cannot fit ernest: an input size is negative or not finite (-1.0)");
    assertThat(ErnestFit.fit(new double[] {1, 1, 2, 3}, new double[] {1, 0, 3, 4}, new double[] {1, 2, 3, 4}).note())
        .isEqualTo("Cannot fit ernest: a core count is below 1 or not finite (0.0)");
    assertThat(ErnestFit.fit(new double[] {1, 2}, new double[] {1, 2, 3}, new double[] {1, 2, 3}).note())
        .isEqualTo("Cannot fit ernest: 2 input sizes, 3 core counts and 3 runtimes (one of each per point)");
  }

  private static double[] runtimes(double[] theta) {
    double[] y = new double[BYTES.length];
    for (int i = 0; i < y.length; i++) {
      y[i] = theta[0] + theta[1] * BYTES[i] / GB / CORES[i] + theta[2] * Math.log(CORES[i]) + theta[3] * CORES[i];
    }
    return y;
  }

  private static double sse(ErnestFit fit, double[] y) {
    return sse(fit.theta(), y);
  }

  private static double sse(double[] theta, double[] y) {
    double sum = 0;
    for (int i = 0; i < y.length; i++) {
      double r = y[i] - new ErnestFit(theta, 0, 0, 0, null).predict(BYTES[i], CORES[i]);
      sum += r * r;
    }
    return sum;
  }
}
