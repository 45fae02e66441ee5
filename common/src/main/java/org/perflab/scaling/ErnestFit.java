package org.perflab.scaling;

import java.util.Optional;

/**
 * Ernest's model (Venkataraman et al., "Ernest: Efficient Performance Prediction for Large-Scale Advanced Analytics",
 * NSDI'16) of a workload's runtime across input sizes and core counts, fitted by {@link #fit}:
 *
 * <pre>T = θ0 + θ1·(size / cores) + θ2·log(cores) + θ3·cores,   θ ≥ 0</pre>
 *
 * <p>with T in s, size in GB (10^9 bytes, for conditioning: the predictor takes bytes and converts), cores the total
 * cores (task slots; Ernest counts machines) and log the natural logarithm. So θ0 is in s (fixed cost), θ1 in s per
 * GB-per-core (parallel work), θ2 in s per log-core (tree aggregation), θ3 in s per core (all-to-all communication).
 * θ is the non-negative least-squares solution ({@link Nnls}), as in Ernest. Fits never throw: bad or too few points
 * give a result that is not {@link #ok()}, with a note.
 *
 * @param theta θ0..θ3, each ≥ 0; null when not fitted
 * @param r2 R² over the fitted points (centred, as Eq. 10 of reference 003); NaN when not fitted, when every
 *     runtime is equal, or from {@link #model}
 * @param looErrorPct leave-one-point-out mean absolute percentage error, % (beyond Ernest's paper): each point with a
 *     non-zero runtime predicted by the model fitted to the others, over the folds that keep
 *     {@value #MIN_CONFIGURATIONS} distinct configurations; NaN when none does, or from {@link #model}
 * @param points the points given
 * @param note null for a fit; otherwise why there is none
 */
public record ErnestFit(double[] theta, double r2, double looErrorPct, int points, String note) {
  /** The model's label, as the {@code model} column of {@code scaling_fits}. */
  public static final String LABEL = "ernest";
  /** Bytes per GB of the size term. */
  public static final double BYTES_PER_GB = 1e9;
  /** The distinct (input size, core count) configurations a fit needs: one per parameter. */
  public static final int MIN_CONFIGURATIONS = 4;

  public ErnestFit {
    theta = theta == null ? null : theta.clone();
  }

  @Override
  public double[] theta() {
    return theta == null ? null : theta.clone();
  }

  /**
   * Ernest's non-negative least-squares fit over the points (size_i, cores_i, y_i).
   *
   * @param inputBytes input size of each point, bytes, ≥ 0
   * @param totalCores total cores of each point, ≥ 1
   * @param runtimeS runtime of each point, s
   */
  public static ErnestFit fit(double[] inputBytes, double[] totalCores, double[] runtimeS) {
    return fit(inputBytes, totalCores, runtimeS, true);
  }

  /**
   * The fit of {@link #fit} without its diagnostics: the same θ and note, but {@code r2} and {@code looErrorPct}
   * NaN. The leave-one-out solves the model once per point, so this costs a fraction of {@link #fit}: what a
   * predictor that only needs the model uses.
   */
  public static ErnestFit model(double[] inputBytes, double[] totalCores, double[] runtimeS) {
    return fit(inputBytes, totalCores, runtimeS, false);
  }

  private static ErnestFit fit(double[] inputBytes, double[] totalCores, double[] runtimeS, boolean diagnostics) {
    Optional<String> invalid = invalid(inputBytes, totalCores, runtimeS);
    if (invalid.isPresent()) {
      return new ErnestFit(null, Double.NaN, Double.NaN, runtimeS.length, invalid.get());
    }
    double[] theta = solve(inputBytes, totalCores, runtimeS);
    if (!diagnostics) {
      return new ErnestFit(theta, Double.NaN, Double.NaN, runtimeS.length, null);
    }
    double[] predicted = new double[runtimeS.length];
    for (int i = 0; i < predicted.length; i++) {
      predicted[i] = predict(theta, inputBytes[i], totalCores[i]);
    }
    double loo = Goodness.looErrorPct(runtimeS, i -> {
      double[] bytes = Goodness.without(inputBytes, i);
      double[] cores = Goodness.without(totalCores, i);
      return Goodness.distinct(bytes, cores) < MIN_CONFIGURATIONS ? null
          : predict(solve(bytes, cores, Goodness.without(runtimeS, i)), inputBytes[i], totalCores[i]);
    });
    return new ErnestFit(theta, Goodness.r2(runtimeS, predicted), loo, runtimeS.length, null);
  }

  /** Whether the model was fitted. */
  public boolean ok() {
    return theta != null;
  }

  /**
   * The predicted runtime, s; NaN when not fitted.
   *
   * @param inputBytes input size, bytes
   * @param totalCores total cores, ≥ 1
   */
  public double predict(double inputBytes, double totalCores) {
    return ok() ? predict(theta, inputBytes, totalCores) : Double.NaN;
  }

  /** The regressors of one point: 1, GB per core, log(cores), cores. */
  static double[] features(double inputBytes, double totalCores) {
    return new double[] {1, inputBytes / BYTES_PER_GB / totalCores, Math.log(totalCores), totalCores};
  }

  private static double predict(double[] theta, double inputBytes, double totalCores) {
    double[] x = features(inputBytes, totalCores);
    double sum = 0;
    for (int j = 0; j < x.length; j++) {
      sum += theta[j] * x[j];
    }
    return sum;
  }

  private static double[] solve(double[] inputBytes, double[] totalCores, double[] runtimeS) {
    double[][] a = new double[runtimeS.length][];
    for (int i = 0; i < a.length; i++) {
      a[i] = features(inputBytes[i], totalCores[i]);
    }
    return Nnls.solve(a, runtimeS);
  }

  private static Optional<String> invalid(double[] inputBytes, double[] totalCores, double[] runtimeS) {
    if (inputBytes.length != totalCores.length || totalCores.length != runtimeS.length) {
      return Optional.of(String.format("Cannot fit %s: %d input sizes, %d core counts and %d runtimes (one of each"
          + " per point)", LABEL, inputBytes.length, totalCores.length, runtimeS.length));
    }
    for (double bytes : inputBytes) {
      if (!(bytes >= 0) || Double.isInfinite(bytes)) {
        return Optional.of(String.format("Cannot fit %s: an input size is negative or not finite (%s)", LABEL, bytes));
      }
    }
    Optional<String> values = Points.invalidValues(LABEL, totalCores, runtimeS);
    if (values.isPresent()) {
      return values;
    }
    int distinct = Goodness.distinct(inputBytes, totalCores);
    return distinct < MIN_CONFIGURATIONS ? Optional.of(String.format("Cannot fit %s: %d distinct (input size, core"
        + " count) configuration%s (at least %d)", LABEL, distinct, distinct == 1 ? "" : "s", MIN_CONFIGURATIONS))
        : Optional.empty();
  }
}
