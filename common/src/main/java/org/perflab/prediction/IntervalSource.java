package org.perflab.prediction;

/** Where a prediction's 80 % interval comes from. */
public enum IntervalSource {
  /**
   * The predictor's own errors on the training configurations: each training configuration predicted from the
   * others (inner leave-one-configuration-out), the ratios actual ÷ predicted, and the order statistics of those
   * ratios that split-conformal prediction takes for 80 % coverage, applied to the prediction.
   */
  RESIDUALS,
  /** Ratios of actual to predicted on the rows the model was fitted on (in-sample; MLlib regression). */
  TRAINING_RESIDUALS,
  /**
   * Ratios of actual to predicted on the model's training rows, each predicted by the same model fitted without its
   * configuration's fold (five folds of configurations): the GBT regression fitted in memory.
   */
  FOLD_RESIDUALS,
  /** No interval: too few training configurations to judge the predictor's errors, or no prediction. */
  NONE
}
