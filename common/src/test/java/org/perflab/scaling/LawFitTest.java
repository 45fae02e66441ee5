package org.perflab.scaling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The fitters against reference 003 §5.2 B (exact round trips, two-point calibration) and C (the synthetic vectors V1
 * and V2, to 1e-5 relative), exact recovery from noise-free points, and the degenerate inputs that give a note.
 */
class LawFitTest {
  private static final double[] GRID = {1, 2, 3, 4, 5, 6, 8, 10, 12, 16};
  /** V1: 600/n + 20√n plus [3, −2, 1, −4, 2, 0, −1, 3, −2, 1], as the reference lists it. */
  private static final double[] V1 =
      {623.0, 326.2843, 235.6410, 186.0, 166.7214, 148.9898, 130.5685, 126.2456, 117.2820, 118.5};
  /** V2 (U-shaped): 200/n + 40√n plus [5, −3, 2, −6, 4, −1, −2, 5, −3, 2]. */
  private static final double[] V2 =
      {245.0, 153.5685, 137.9487, 124.0, 133.4427, 130.3129, 136.1371, 151.4911, 152.2307, 174.5};
  private static final double RELATIVE = 1e-5;

  @Test
  void eq9RoundTripsNoiseFreeDataExactly() {
    LawFit fit = LawFit.fit(Law.SQRT, GRID, curve(Law.SQRT, new double[] {600, 20}, GRID));
    assertThat(fit.ok()).isTrue();
    assertThat(fit.note()).isNull();
    assertThat(fit.param("a")).isCloseTo(600, within(1e-9));
    assertThat(fit.param("b")).isCloseTo(20, within(1e-9));
    assertThat(fit.r2()).isCloseTo(1, within(1e-12));
    assertThat(fit.looErrorPct()).isCloseTo(0, within(1e-9));
    assertThat(fit.nStar()).isCloseTo(15.3262, within(5e-5));
    assertThat(fit.minRuntimeS()).isCloseTo(117.4460, within(5e-5));
    assertThat(fit.points()).isEqualTo(10);
  }

  @Test
  void theCurveAloneHasTheFitsParametersNoteAndOptimumWithoutItsDiagnostics() {
    for (Law law : Law.values()) {
      LawFit fit = LawFit.fit(law, GRID, V2);
      LawFit curve = LawFit.curve(law, GRID, V2);
      assertThat(curve.params()).as(law.label()).isEqualTo(fit.params());
      assertThat(curve.note()).isEqualTo(fit.note());
      assertThat(curve.nStar()).isEqualTo(fit.nStar());
      assertThat(curve.predict(24)).isEqualTo(fit.predict(24));
      assertThat(fit.looErrorPct()).isFinite();
      assertThat(curve.r2()).isNaN();
      assertThat(curve.looErrorPct()).isNaN();
    }
    assertThat(LawFit.curve(Law.SQRT, new double[] {1, 16}, new double[] {620, 117.5}).note())
        .isEqualTo(LawFit.fit(Law.SQRT, new double[] {1, 16}, new double[] {620, 117.5}).note());
  }

  @Test
  void twoRunsCalibrateEq9Exactly() {
    LawFit fit = LawFit.calibrate(Law.SQRT, new double[] {1, 16}, new double[] {620, 117.5});
    assertThat(fit.param("a")).isCloseTo(600, within(1e-9));
    assertThat(fit.param("b")).isCloseTo(20, within(1e-9));
    assertThat(LawFit.fit(Law.SQRT, new double[] {1, 16}, new double[] {620, 117.5}).ok()).isFalse();
  }

  @Test
  void amdahlParametersAreRecoveredExactlyFromNoiseFreePoints() {
    double[] n = {2, 3, 5, 7, 11};
    LawFit fit = LawFit.fit(Law.AMDAHL, n, curve(Law.AMDAHL, new double[] {250, 0.07}, n));
    assertThat(fit.param("t")).isCloseTo(250, within(1e-9));
    assertThat(fit.param("f")).isCloseTo(0.07, within(1e-12));
    assertThat(fit.r2()).isCloseTo(1, within(1e-12));
    assertThat(fit.nStar()).as("Amdahl is monotone").isNull();
    assertThat(fit.minRuntimeS()).isNull();
  }

  @Test
  void theNonlinearLawsAreRecoveredFromNoiseFreePoints() {
    LawFit power = LawFit.fit(Law.POWER, GRID, curve(Law.POWER, new double[] {500, 30, 0.3}, GRID));
    assertThat(power.param("a")).isCloseTo(500, within(1e-5));
    assertThat(power.param("b")).isCloseTo(30, within(1e-5));
    assertThat(power.param("c")).isCloseTo(0.3, within(1e-7));
    // Gustafson with f > 1 (runtime growing with n) stays on the near side of the first pole, 16/15.
    for (double f : new double[] {0.2, 1.05}) {
      LawFit gustafson = LawFit.fit(Law.GUSTAFSON, GRID, curve(Law.GUSTAFSON, new double[] {300, f}, GRID));
      assertThat(gustafson.param("t")).isCloseTo(300, within(1e-5));
      assertThat(gustafson.param("f")).isCloseTo(f, within(1e-8));
    }
  }

  /**
   * A synthetic vector of reference §5.2 C and the least-squares optimum of each fit, each row {parameters...,
   * R²}: Eq. 9 {a, b, R²}, its n*, Amdahl {t, f, R²}, Gustafson {t, f, R²}, Eq. 11 with c = 0.14 {a, b, R²},
   * Eq. 11 with c free {a, b, c, R²}.
   */
  record Vector(String name, double[] y, double[] sqrt, double nStar, double[] amdahl, double[] gustafson,
      double[] fixedC, double[] power) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Vector> vectors() {
    return Stream.of(
        new Vector("V1", V1, new double[] {601.403353, 19.929880, 0.99978867}, 15.386060,
            new double[] {610.895007, 0.10397378, 0.99449199}, new double[] {605.296769, 0.34177627, 0.95135797},
            new double[] {567.362747, 46.111665, 0.99690898},
            new double[] {603.992537, 18.212858, 0.53770046, 0.99981337}),
        new Vector("V2", V2, new double[] {202.511596, 39.914945, 0.98881498}, 4.687014,
            new double[] {221.433649, 0.57495073, 0.58059503}, new double[] {161.104969, 0.99145971, 0.01906929},
            new double[] {134.228929, 92.401822, 0.76858543},
            new double[] {206.808753, 37.059743, 0.53105684, 0.99013717}));
  }

  @ParameterizedTest
  @MethodSource("vectors")
  void syntheticVectorsGiveTheReferenceOptima(Vector v) {
    assertFit(LawFit.fit(Law.SQRT, GRID, v.y()), v.sqrt());
    assertRelative(LawFit.fit(Law.SQRT, GRID, v.y()).nStar(), v.nStar());
    assertFit(LawFit.fit(Law.AMDAHL, GRID, v.y()), v.amdahl());
    assertFit(LawFit.fit(Law.GUSTAFSON, GRID, v.y()), v.gustafson());
    assertFit(LawFit.fit(Law.POWER, GRID, v.y()), v.power());
    assertFixedExponent(v.y(), v.fixedC());
  }

  @Test
  void gustafsonNeverReturnsTheDivergentFitAndItsOptimumIsGlobal() {
    for (double[] y : new double[][] {V1, V2}) {
      LawFit fit = LawFit.fit(Law.GUSTAFSON, GRID, y);
      // Marquardt–Levenberg from (t, f) = (1, 1) ends at f ≈ 1.25e9 with R² ≈ −0.393 on V1.
      assertThat(fit.param("f")).isLessThan(16.0 / 15);
      assertThat(fit.param("t")).isPositive();
      assertThat(fit.r2()).isPositive();
      double fitted = sse(fit, y);
      for (double f = -20; f < 16.0 / 15; f += 1e-4) {
        double[] g = curve(Law.GUSTAFSON, new double[] {1, f}, GRID);
        double t = dot(g, y) / dot(g, g);
        assertThat(fitted).as("f = %s", f).isLessThanOrEqualTo(sse(Law.GUSTAFSON, new double[] {t, f}, y) + 1e-9);
      }
    }
  }

  @Test
  void theFitsAreLeastSquaresOptima() {
    for (Law law : Law.values()) {
      LawFit fit = LawFit.fit(law, GRID, V2);
      double[] p = law.parameters().stream().mapToDouble(fit::param).toArray();
      double fitted = sse(fit, V2);
      for (int i = 0; i < p.length; i++) {
        for (double step : new double[] {-1e-4, 1e-4}) {
          double[] moved = p.clone();
          moved[i] += step * Math.max(1, Math.abs(p[i]));
          assertThat(sse(law, moved, V2)).as("%s, %s moved by %s", law, law.parameters().get(i), step)
              .isGreaterThan(fitted);
        }
      }
    }
  }

  @Test
  void leaveOneOutErrorByHand() {
    // Without n=1: A/2+B=60, A/4+B=50 → A=B=40, predicts 80 at 1 (20 %). Without n=2: A=200/3, B=100/3, predicts
    // 66.67 at 2 (11.11 %). Without n=4: A=80, B=20, predicts 40 at 4 (20 %). Mean: 17.04 %.
    LawFit fit = LawFit.fit(Law.AMDAHL, new double[] {1, 2, 4}, new double[] {100, 60, 50});
    assertThat(fit.looErrorPct()).isCloseTo((20 + 100.0 / 9 + 20) / 3, within(1e-9));
    assertThat(LawFit.fit(Law.POWER, new double[] {1, 2, 4}, new double[] {100, 60, 50}).looErrorPct())
        .as("no fold keeps 3 core counts").isNaN();
  }

  @Test
  void tooFewCoreCountsGiveANoteNotAnException() {
    LawFit fit = LawFit.fit(Law.AMDAHL, new double[] {2, 2, 4, 4}, new double[] {50, 52, 30, 31});
    assertThat(fit.ok()).isFalse();
    assertThat(fit.note()).isEqualTo("Cannot fit amdahl: 2 distinct core counts (at least 3)");
    assertThat(fit.params()).isEmpty();
    assertThat(fit.predict(8)).isNaN();
    assertThat(fit.r2()).isNaN();
    assertThat(fit.points()).isEqualTo(4);
  }

  @Test
  void oneCoreCountIsNotFitted() {
    assertThat(LawFit.fit(Law.POWER, new double[] {8, 8, 8}, new double[] {50, 52, 51}).note())
        .isEqualTo("Cannot fit power: 1 distinct core count (at least 3)");
  }

  @Test
  void badPointsGiveANote() {
    assertThat(LawFit.fit(Law.SQRT, new double[] {0, 1, 2}, new double[] {1, 2, 3}).note())
        .isEqualTo("Cannot fit sqrt: a core count is below 1 or not finite (0.0)");
    assertThat(LawFit.fit(Law.POWER, new double[] {1, 2, 3}, new double[] {1, Double.NaN, 3}).note())
        .isEqualTo("Cannot fit power: a runtime is not finite (NaN)");
    assertThat(LawFit.fit(Law.GUSTAFSON, new double[] {1, 2, 3}, new double[] {1, 2}).note())
        .isEqualTo("Cannot fit gustafson: 3 core counts and 2 runtimes (one runtime per core count)");
  }

  @Test
  void equalRuntimesHaveNoR2() {
    for (Law law : Law.values()) {
      LawFit fit = LawFit.fit(law, new double[] {1, 2, 4, 8}, new double[] {30, 30, 30, 30});
      assertThat(fit.ok()).as("%s", law).isTrue();
      assertThat(fit.r2()).as("%s", law).isNaN();
    }
  }

  @Test
  void anExponentBeyondItsSearchRangeIsNoted() {
    LawFit fit = LawFit.fit(Law.POWER, GRID, curve(Law.POWER, new double[] {100, 0.001, 4}, GRID));
    assertThat(fit.ok()).isTrue();
    assertThat(fit.param("c")).isEqualTo(LawSolvers.C_MAX);
    assertThat(fit.note()).isEqualTo("c at a bound of its search range (3; [0.001, 3])");
  }

  /** Eq. 11 with c fixed at 0.14: the closed-form OLS on 1/n and n^0.14 (reference §2.5). */
  private static void assertFixedExponent(double[] y, double[] expected) {
    double[] u = new double[GRID.length];
    double[] v = new double[GRID.length];
    for (int i = 0; i < GRID.length; i++) {
      u[i] = 1 / GRID[i];
      v[i] = Math.pow(GRID[i], 0.14);
    }
    double[] ab = LawSolvers.twoRegressors(u, v, y);
    assertRelative(ab[0], expected[0]);
    assertRelative(ab[1], expected[1]);
    assertRelative(Goodness.r2(y, curve(Law.POWER, new double[] {ab[0], ab[1], 0.14}, GRID)), expected[2]);
  }

  /** The fit's parameters in order, then its R², each to 1e-5 relative. */
  private static void assertFit(LawFit fit, double[] expected) {
    assertThat(fit.ok()).isTrue();
    assertThat(fit.note()).isNull();
    assertThat(fit.params().keySet()).containsExactlyElementsOf(fit.law().parameters());
    for (int i = 0; i < fit.law().parameters().size(); i++) {
      assertRelative(fit.param(fit.law().parameters().get(i)), expected[i]);
    }
    assertRelative(fit.r2(), expected[expected.length - 1]);
  }

  private static void assertRelative(double actual, double expected) {
    assertThat(actual).isCloseTo(expected, within(Math.abs(expected) * RELATIVE));
  }

  private static double[] curve(Law law, double[] p, double[] n) {
    double[] y = new double[n.length];
    for (int i = 0; i < n.length; i++) {
      y[i] = law.runtime(p, n[i]);
    }
    return y;
  }

  private static double sse(LawFit fit, double[] y) {
    return sse(fit.law(), fit.law().parameters().stream().mapToDouble(fit::param).toArray(), y);
  }

  private static double sse(Law law, double[] p, double[] y) {
    double[] predicted = curve(law, p, GRID);
    double sum = 0;
    for (int i = 0; i < y.length; i++) {
      sum += (y[i] - predicted[i]) * (y[i] - predicted[i]);
    }
    return sum;
  }

  private static double dot(double[] a, double[] b) {
    double sum = 0;
    for (int i = 0; i < a.length; i++) {
      sum += a[i] * b[i];
    }
    return sum;
  }
}
