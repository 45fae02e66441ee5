package org.perflab.scaling;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A scaling law fitted to runtimes at several core counts by {@link #fit}, or the reason it could not be. Fits never
 * throw: bad or too few points give a result that is not {@link #ok()}, whose {@link #note()} says why, e.g.
 * "Cannot fit amdahl: 2 distinct core counts (at least 3)".
 *
 * @param law the law
 * @param params the fitted parameters by name, in the order of {@link Law#parameters()} (see {@link Law} for their
 *     units); empty when not fitted
 * @param r2 R² over the fitted points, Eq. 10 of reference 003 (centred SS_tot, so it can be negative); NaN when not
 *     fitted, when every runtime is equal, or from {@link #curve}
 * @param looErrorPct leave-one-point-out mean absolute percentage error, % (beyond the paper, as the reference's §6.5
 *     suggests): each point with a non-zero runtime is predicted by the law fitted to the other points, over the folds
 *     that keep as many distinct core counts as the law has parameters (so a 2-parameter law with 3 core counts is
 *     judged by exact two-point calibrations); NaN when no fold can be fitted, or from {@link #curve}
 * @param nStar the core count of the lowest predicted runtime, continuous, possibly outside the measured counts
 *     (reference §2.7); null for Amdahl and Gustafson, which are monotone, and for Eq. 9 and 11 fits without an
 *     interior minimum (a ≤ 0 or b ≤ 0, or c ≤ 0)
 * @param minRuntimeS the predicted runtime at {@code nStar}, s; null when {@code nStar} is
 * @param points the points given
 * @param note null for a clean fit; otherwise why there is no fit, or what to know about it (a parameter at the bound
 *     of its search range)
 */
public record LawFit(Law law, Map<String, Double> params, double r2, double looErrorPct, Double nStar,
    Double minRuntimeS, int points, String note) {
  /** The distinct core counts {@link #fit} needs, for every law. */
  public static final int MIN_CORE_COUNTS = 3;

  public LawFit {
    params = Collections.unmodifiableMap(new LinkedHashMap<>(params));
  }

  /**
   * The least-squares fit of {@code law} to the points (n_i, y_i), by the exact solvers of reference 003 §2.5 (see
   * {@code LawSolvers}), with its R², leave-one-out error and optimum.
   *
   * @param n total cores (task slots) of each point, each ≥ 1; at least {@value #MIN_CORE_COUNTS} distinct values
   * @param y runtime of each point, s
   */
  public static LawFit fit(Law law, double[] n, double[] y) {
    return fit(law, n, y, MIN_CORE_COUNTS, true);
  }

  /**
   * The fit of {@link #fit} without its diagnostics: the same parameters, optimum and note, but {@code r2} and
   * {@code looErrorPct} NaN. The leave-one-out refits the law once per point, so this costs a fraction of {@link
   * #fit}: what a predictor that only needs the curve uses.
   */
  public static LawFit curve(Law law, double[] n, double[] y) {
    return fit(law, n, y, MIN_CORE_COUNTS, false);
  }

  /**
   * Like {@link #fit}, but with as few distinct core counts as the law has parameters, where the fit is exact: the
   * two-run calibration of reference §2.5 determines Eq. 9's a and b from two runs.
   */
  public static LawFit calibrate(Law law, double[] n, double[] y) {
    return fit(law, n, y, law.parameters().size(), true);
  }

  /** Whether the law was fitted. */
  public boolean ok() {
    return !params.isEmpty();
  }

  /** The fitted parameter {@code name}; NaN when not fitted. */
  public double param(String name) {
    return params.getOrDefault(name, Double.NaN);
  }

  /** The predicted runtime at {@code n} total cores, s; NaN when not fitted. */
  public double predict(double n) {
    return ok() ? law.runtime(values(), n) : Double.NaN;
  }

  private double[] values() {
    return law.parameters().stream().mapToDouble(params::get).toArray();
  }

  private static LawFit fit(Law law, double[] n, double[] y, int minCoreCounts, boolean diagnostics) {
    Optional<String> invalid = Points.invalid(law.label(), n, y, minCoreCounts);
    if (invalid.isPresent()) {
      return new LawFit(law, Map.of(), Double.NaN, Double.NaN, null, null, n.length, invalid.get());
    }
    LawSolvers.Solution solution = LawSolvers.solve(law, n, y);
    if (solution.params() == null) {
      return new LawFit(law, Map.of(), Double.NaN, Double.NaN, null, null, n.length, solution.note());
    }
    double[] p = solution.params();
    double[] predicted = new double[n.length];
    for (int i = 0; i < n.length; i++) {
      predicted[i] = law.runtime(p, n[i]);
    }
    Double nStar = law.optimum(p);
    Map<String, Double> named = new LinkedHashMap<>();
    for (int i = 0; i < p.length; i++) {
      named.put(law.parameters().get(i), p[i]);
    }
    return new LawFit(law, named, diagnostics ? Goodness.r2(y, predicted) : Double.NaN,
        diagnostics ? looErrorPct(law, n, y) : Double.NaN, nStar,
        nStar == null ? null : law.runtime(p, nStar), n.length, solution.note());
  }

  private static double looErrorPct(Law law, double[] n, double[] y) {
    return Goodness.looErrorPct(y, i -> {
      double[] restN = Goodness.without(n, i);
      if (Goodness.distinct(restN) < law.parameters().size()) {
        return null;
      }
      double[] p = LawSolvers.solve(law, restN, Goodness.without(y, i)).params();
      return p == null ? null : law.runtime(p, n[i]);
    });
  }
}
