package org.perflab.spark.regress;

/**
 * The MLlib regressors of runtime prediction: each predicts a run's log duration from the same features
 * ({@link RuntimeFeature}), with the fixed hyperparameters of {@link RuntimePipeline}.
 */
public enum RegressionKind {
  /** Ridge-regularised least squares ({@code LinearRegression}): extrapolates beyond the training range. */
  LINEAR("regression_linear", "linear"),
  /** Gradient-boosted trees ({@code GBTRegressor}): non-linear, but bounded by the training range. */
  GBT("regression_gbt", "gbt");

  private final String label;
  private final String directory;

  RegressionKind(String label, String directory) {
    this.label = label;
    this.directory = directory;
  }

  /** The predictor's name in {@code runtime_predictions.predictor} and {@code prediction_eval.predictor}. */
  public String label() {
    return label;
  }

  /** The directory of its fitted pipeline under {@code runtime_model/}: {@code linear} or {@code gbt}. */
  public String directory() {
    return directory;
  }
}
