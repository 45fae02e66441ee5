package org.perflab.scaling;

import java.util.List;

/**
 * The scaling laws of reference 003 (Ahmed et al., J Big Data 8, 107, 2021): runtime in seconds as a function of
 * {@code n}, the number of parallel units. The paper counts executors; PerfLab fits over total cores (task slots),
 * which is the executor count times a constant wherever cores per executor is part of the series. Parameters, in the
 * order of {@link #parameters()}:
 *
 * <ul>
 *   <li>{@link #AMDAHL} (Eq. 2): {@code (1 − f)·t/n + f·t}; {@code t} s, the runtime at n = 1; {@code f} the serial
 *       fraction (unitless).
 *   <li>{@link #GUSTAFSON} (Eq. 4): {@code t / (n + (1 − n)·f)}; the same {@code t} and {@code f}.
 *   <li>{@link #SQRT} (Eq. 9, the paper's model): {@code a/n + b·√n}; {@code a} in s·n, {@code b} in s/√n. The
 *       runtime at n = 1 is {@code a + b}, not {@code a}.
 *   <li>{@link #POWER} (Eq. 11): {@code a/n + b·n^c}; {@code a} in s·n, {@code b} in s/n^c, {@code c} unitless.
 * </ul>
 */
public enum Law {
  AMDAHL("amdahl", List.of("t", "f")),
  GUSTAFSON("gustafson", List.of("t", "f")),
  SQRT("sqrt", List.of("a", "b")),
  POWER("power", List.of("a", "b", "c"));

  private final String label;
  private final List<String> parameters;

  Law(String label, List<String> parameters) {
    this.label = label;
    this.parameters = parameters;
  }

  /** The predictor name of issue 11, also the {@code model} column of {@code scaling_fits}: "amdahl", ... */
  public String label() {
    return label;
  }

  /** The parameter names, in the order {@link #runtime} takes them. */
  public List<String> parameters() {
    return parameters;
  }

  /**
   * The runtime the law predicts, in seconds.
   *
   * @param p the parameters, in the order of {@link #parameters()}
   * @param n parallel units (total cores), &gt; 0
   */
  public double runtime(double[] p, double n) {
    return switch (this) {
      case AMDAHL -> (1 - p[1]) * p[0] / n + p[1] * p[0];
      case GUSTAFSON -> p[0] / (n + (1 - n) * p[1]);
      case SQRT -> p[0] / n + p[1] * Math.sqrt(n);
      case POWER -> p[0] / n + p[1] * Math.pow(n, p[2]);
    };
  }

  /**
   * The continuous minimiser n* of the runtime (derived in the reference's §2.7, not in the paper), or null when the
   * curve has no interior minimum: always for Amdahl and Gustafson (monotone), and for Eq. 9 and Eq. 11 unless
   * {@code a > 0}, {@code b > 0} (and {@code c > 0}). Eq. 9: {@code (2a/b)^(2/3)}; Eq. 11:
   * {@code (a/(b·c))^(1/(1+c))}.
   */
  public Double optimum(double[] p) {
    return switch (this) {
      case AMDAHL, GUSTAFSON -> null;
      case SQRT -> p[0] > 0 && p[1] > 0 ? Math.pow(2 * p[0] / p[1], 2.0 / 3) : null;
      case POWER -> p[0] > 0 && p[1] > 0 && p[2] > 0 ? Math.pow(p[0] / (p[1] * p[2]), 1 / (1 + p[2])) : null;
    };
  }
}
