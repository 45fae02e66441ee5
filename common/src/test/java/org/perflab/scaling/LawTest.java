package org.perflab.scaling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** The formula vectors of reference 003 §5.2 A: each law's runtime, the speedup identity, Eq. 9's optimum. */
class LawTest {
  private static final double[] DOUBLINGS = {1, 2, 4, 8, 16, 32, 64};
  private static final double[] GRID = {1, 2, 3, 4, 5, 6, 8, 10, 12, 16};

  @Test
  void amdahlRuntimesAtOneHundredSeconds() {
    assertRuntimes(Law.AMDAHL, new double[] {100, 0.05}, 1e-12,
        100, 52.5, 28.75, 16.875, 10.9375, 7.96875, 6.484375);
    assertRuntimes(Law.AMDAHL, new double[] {100, 0.1}, 1e-12, 100, 55, 32.5, 21.25, 15.625, 12.8125, 11.40625);
    assertRuntimes(Law.AMDAHL, new double[] {100, 0.2}, 1e-12, 100, 60, 40, 30, 25, 22.5, 21.25);
    assertRuntimes(Law.AMDAHL, new double[] {100, 0.5}, 1e-12, 100, 75, 62.5, 56.25, 53.125, 51.5625, 50.78125);
    assertRuntimes(Law.AMDAHL, new double[] {100, 0}, 1e-12, 100, 50, 25, 12.5, 6.25, 3.125, 1.5625);
  }

  @Test
  void gustafsonRuntimesAtOneHundredSeconds() {
    // The reference gives three decimals.
    assertRuntimes(Law.GUSTAFSON, new double[] {100, 0.05}, 5e-4, 100, 51.282, 25.974, 13.072, 6.557, 3.284, 1.643);
    assertRuntimes(Law.GUSTAFSON, new double[] {100, 0.2}, 5e-4, 100, 55.556, 29.412, 15.152, 7.692, 3.876, 1.946);
    assertRuntimes(Law.GUSTAFSON, new double[] {100, 0.5}, 5e-4, 100, 66.667, 40.0, 22.222, 11.765, 6.061, 3.077);
  }

  @Test
  void runtimeIsTheSingleExecutorTimeOverTheSpeedup() {
    for (double f : new double[] {0, 0.05, 0.3, 1}) {
      for (double n : DOUBLINGS) {
        double amdahlSpeedup = n / (1 + (n - 1) * f); // Eq. 1
        double gustafsonSpeedup = n + (1 - n) * f; // Eq. 3
        assertThat(Law.AMDAHL.runtime(new double[] {100, f}, n)).isCloseTo(100 / amdahlSpeedup, within(1e-12));
        assertThat(Law.GUSTAFSON.runtime(new double[] {100, f}, n)).isCloseTo(100 / gustafsonSpeedup, within(1e-12));
      }
    }
  }

  @Test
  void eq9AtA600B20AndItsOptimum() {
    double[] expected = {620, 328.2843, 234.6410, 190, 164.7214, 148.9898, 131.5685, 123.2456, 119.2820, 117.5};
    double[] p = {600, 20};
    for (int i = 0; i < GRID.length; i++) {
      assertThat(Law.SQRT.runtime(p, GRID[i])).isCloseTo(expected[i], within(5e-5));
    }
    double nStar = Law.SQRT.optimum(p);
    assertThat(nStar).isCloseTo(Math.pow(60, 2.0 / 3), within(1e-12)).isCloseTo(15.3262, within(5e-5));
    assertThat(Law.SQRT.runtime(p, nStar)).isCloseTo(3 * 600 / nStar, within(1e-9)).isCloseTo(117.4460, within(5e-5));
  }

  @Test
  void eq11WithCOneHalfIsEq9() {
    for (double n : GRID) {
      assertThat(Law.POWER.runtime(new double[] {600, 20, 0.5}, n))
          .isEqualTo(Law.SQRT.runtime(new double[] {600, 20}, n));
    }
    assertThat(Law.POWER.optimum(new double[] {600, 20, 0.5})).isCloseTo(Law.SQRT.optimum(new double[] {600, 20}),
        within(1e-9));
  }

  @Test
  void eq11OptimumAndItsMinimumRuntime() {
    double[] p = {500, 30, 0.14};
    double nStar = Law.POWER.optimum(p);
    assertThat(nStar).isCloseTo(Math.pow(500 / (30 * 0.14), 1 / 1.14), within(1e-9));
    assertThat(Law.POWER.runtime(p, nStar)).isCloseTo(500 / nStar * (1 + 1 / 0.14), within(1e-9));
    assertThat(Law.POWER.runtime(p, nStar)).isLessThan(Law.POWER.runtime(p, nStar * 1.01))
        .isLessThan(Law.POWER.runtime(p, nStar * 0.99));
  }

  @Test
  void monotoneLawsAndCurvesWithoutAnInteriorMinimumHaveNoOptimum() {
    assertThat(Law.AMDAHL.optimum(new double[] {100, 0.1})).isNull();
    assertThat(Law.GUSTAFSON.optimum(new double[] {100, 0.1})).isNull();
    assertThat(Law.SQRT.optimum(new double[] {600, -1})).isNull();
    assertThat(Law.POWER.optimum(new double[] {600, 20, -0.2})).isNull();
  }

  @Test
  void labelsAreTheIssueElevenPredictorNames() {
    assertThat(Law.values()).extracting(Law::label).containsExactly("amdahl", "gustafson", "sqrt", "power");
    assertThat(Law.POWER.parameters()).containsExactly("a", "b", "c");
  }

  private static void assertRuntimes(Law law, double[] p, double tolerance, double... expected) {
    for (int i = 0; i < DOUBLINGS.length; i++) {
      assertThat(law.runtime(p, DOUBLINGS[i])).as("%s at n = %s", law, DOUBLINGS[i])
          .isCloseTo(expected[i], within(tolerance));
    }
  }
}
