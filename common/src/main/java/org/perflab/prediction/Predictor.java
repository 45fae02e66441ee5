package org.perflab.prediction;

import java.io.Serializable;
import java.util.List;

/**
 * A runtime predictor of one workload: from the measured configurations it may learn from, the runtime at a target.
 * Implementations must never see more than {@code training}, must be deterministic, and must not throw for a target
 * they cannot predict: they return {@link Estimate#none} with the reason.
 */
public interface Predictor extends Serializable {

  /** The predictor's name, as {@code prediction_eval.predictor} records it. */
  String name();

  /**
   * The runtime at {@code target}, learnt from {@code training} only.
   *
   * @param training the workload's measured configurations the predictor may use (never the target's own)
   * @param target the configuration and input size to predict
   */
  Estimate predict(List<Measured> training, Target target);

  /**
   * Whether the predictor models how the configuration changes the runtime. A lookup ({@link Nearest}) does not: it
   * gives a configuration the runtime of a measured neighbour, unchanged, so it predicts no difference between the
   * two. {@code recommend} ranks with such a predictor only the configurations that were measured.
   */
  default boolean modelsConfiguration() {
    return true;
  }

  /**
   * Whether the selection may choose this predictor ({@link Candidacy}). A predictor that is not always a candidate
   * still gives its row for every held-out configuration, so that its error is measured beside the others': a new model
   * is measured before it is trusted (docs/prediction.md, {@code stages}).
   */
  default Candidacy candidacy() {
    return Candidacy.ALWAYS;
  }

  /**
   * The training configurations a prediction for {@code target} reads, in {@code training}'s order: {@link #predict}
   * depends on {@code training} only through them, so two training sets with the same ones give the same
   * prediction. {@link Memo} keys on them. All of {@code training} unless the predictor says less.
   */
  default List<Measured> reads(List<Measured> training, Target target) {
    return training;
  }
}
