package org.perflab.scaling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** Lawson–Hanson NNLS: known solutions, active constraints, and the KKT conditions on random problems. */
class NnlsTest {
  @Test
  void aPositiveUnconstrainedSolutionIsTheAnswer() {
    double[] x = Nnls.solve(new double[][] {{1, 0}, {0, 1}, {1, 1}}, new double[] {1, 2, 3});
    assertThat(x[0]).isCloseTo(1, within(1e-12));
    assertThat(x[1]).isCloseTo(2, within(1e-12));
  }

  @Test
  void aNegativeSlopeIsClampedAndTheInterceptRefitted() {
    // Unconstrained: b = 4 − 1·i, slope −1. With x ≥ 0 the slope is 0 and the intercept is the mean, 2.
    double[][] a = {{1, 1}, {1, 2}, {1, 3}};
    double[] b = {3, 2, 1};
    assertThat(LeastSquares.solve(a, b, new boolean[] {true, true})).containsExactly(new double[] {4, -1},
        within(1e-12));
    assertThat(Nnls.solve(a, b)).containsExactly(new double[] {2, 0}, within(1e-12));
  }

  @Test
  void aRightHandSideInTheNegativeConeGivesZero() {
    assertThat(Nnls.solve(new double[][] {{1, 0}, {0, 1}}, new double[] {1, -1})).containsExactly(1, 0);
    assertThat(Nnls.solve(new double[][] {{1, 2}, {3, 1}, {0, 1}}, new double[] {-3, -4, -1})).containsExactly(0, 0);
  }

  @Test
  void dependentColumnsStillGiveAnOptimum() {
    double[] x = Nnls.solve(new double[][] {{1, 1}, {2, 2}, {3, 3}}, new double[] {2, 4, 6});
    assertThat(java.util.Arrays.stream(x).min().getAsDouble()).isGreaterThanOrEqualTo(0);
    assertThat(x[0] + x[1]).isCloseTo(2, within(1e-12));
  }

  @Test
  void randomProblemsMeetTheKktConditions() {
    Random random = new Random(7);
    int clamped = 0;
    for (int trial = 0; trial < 500; trial++) {
      int m = 3 + random.nextInt(8);
      int k = 1 + random.nextInt(5);
      double[][] a = new double[m][k];
      double[] b = new double[m];
      for (int i = 0; i < m; i++) {
        for (int j = 0; j < k; j++) {
          a[i][j] = random.nextGaussian() * Math.pow(10, random.nextInt(3));
        }
        b[i] = random.nextGaussian() * 10;
      }
      double[] x = Nnls.solve(a, b);
      double[] w = gradient(a, b, x);
      double scale = 1e-8 * (1 + norm(b)) * columnsNorm(a);
      for (int j = 0; j < k; j++) {
        assertThat(x[j]).isGreaterThanOrEqualTo(0);
        if (x[j] > 0) {
          assertThat(Math.abs(w[j])).as("trial %d, free x%d: zero gradient", trial, j).isLessThanOrEqualTo(scale);
        } else {
          clamped++;
          assertThat(w[j]).as("trial %d, clamped x%d: no descent", trial, j).isLessThanOrEqualTo(scale);
        }
      }
    }
    assertThat(clamped).as("some constraints were active").isGreaterThan(100);
  }

  @Test
  void mismatchedDimensionsAreRefused() {
    assertThatThrownBy(() -> Nnls.solve(new double[][] {{1, 2}, {3}}, new double[] {1, 2}))
        .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("Cannot solve NNLS: ");
    assertThatThrownBy(() -> Nnls.solve(new double[][] {{1}}, new double[] {1, 2}))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /** Aᵀ(b − A·x). */
  private static double[] gradient(double[][] a, double[] b, double[] x) {
    double[] w = new double[x.length];
    for (int i = 0; i < b.length; i++) {
      double r = b[i];
      for (int j = 0; j < x.length; j++) {
        r -= a[i][j] * x[j];
      }
      for (int j = 0; j < x.length; j++) {
        w[j] += a[i][j] * r;
      }
    }
    return w;
  }

  private static double norm(double[] v) {
    double sum = 0;
    for (double e : v) {
      sum += e * e;
    }
    return Math.sqrt(sum);
  }

  private static double columnsNorm(double[][] a) {
    double sum = 0;
    for (double[] row : a) {
      sum += norm(row) * norm(row);
    }
    return Math.sqrt(sum);
  }
}
