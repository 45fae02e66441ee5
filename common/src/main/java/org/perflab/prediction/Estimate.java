package org.perflab.prediction;

import java.io.Serializable;

/**
 * A predictor's answer for one target: the predicted runtime, or null and a note saying why it cannot predict.
 *
 * @param predictedS predicted runtime, seconds; null when the predictor cannot predict the target
 * @param lowS lower end of its own 80 % interval (simulation quantiles), seconds; null when the harness derives the
 *     interval from residuals instead
 * @param highS upper end of that interval, seconds; null likewise
 * @param note why there is no prediction, or what it assumed; null when there is nothing to say
 */
public record Estimate(Double predictedS, Double lowS, Double highS, String note) implements Serializable {

  /** A point prediction, its interval left to the harness. */
  public static Estimate of(double predictedS) {
    return new Estimate(predictedS, null, null, null);
  }

  /** No prediction, and why, in the form "Cannot predict ...: reason (value)". */
  public static Estimate none(String note) {
    return new Estimate(null, null, null, note);
  }

  /** Whether there is a finite, positive prediction. */
  public boolean present() {
    return predictedS != null && Double.isFinite(predictedS) && predictedS > 0;
  }

  /** Whether the predictor gave its own interval. */
  public boolean hasOwnInterval() {
    return present() && lowS != null && highS != null;
  }
}
