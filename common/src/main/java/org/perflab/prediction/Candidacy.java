package org.perflab.prediction;

/**
 * Whether the selection may choose a predictor ({@link Predictor#candidacy()}). A predictor that is not always a
 * candidate still gives its row for every held-out configuration, so that its error is measured beside the others'.
 */
public enum Candidacy {
  /** Always compared with the other candidates. */
  ALWAYS,
  /**
   * Compared only where no {@link #ALWAYS} candidate that models the configuration ({@link
   * Predictor#modelsConfiguration()}) has inner evidence: predicted at least {@value Selection#MIN_COMMON} training
   * configurations from the others. Elsewhere it reaches the prediction through the predictors that combine it (the
   * blend), not by being picked on the two or three training configurations of a region.
   */
  FALLBACK,
  /** Never chosen, and never used by the consensus, {@code predictor_choice} or {@code recommend}. */
  NEVER
}
