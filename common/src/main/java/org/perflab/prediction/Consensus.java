package org.perflab.prediction;

import java.util.List;
import java.util.Locale;

/**
 * The median of the predictions of several predictors, where at least {@value #MIN_MEMBERS} of them can predict the
 * target: a guard against any single model's failure mode (a law extrapolating past the measured core counts, Ernest
 * blending machine types), at the price of the best member's accuracy where one is clearly best.
 *
 * @param name the predictor's name
 * @param members the predictors whose predictions are combined
 */
public record Consensus(String name, List<Predictor> members) implements Predictor {
  public static final String NAME = "consensus";
  /** Fewest member predictions a consensus needs. */
  public static final int MIN_MEMBERS = 2;

  public Consensus {
    members = List.copyOf(members);
  }

  @Override
  public Estimate predict(List<Measured> training, Target target) {
    double[] predictions = members.stream().map(p -> p.predict(training, target)).filter(Estimate::present)
        .mapToDouble(Estimate::predictedS).toArray();
    if (predictions.length < MIN_MEMBERS) {
      return Estimate.none(String.format(Locale.ROOT, "Cannot predict by consensus: %d of its %d predictors can "
          + "predict this configuration (at least %d)", predictions.length, members.size(), MIN_MEMBERS));
    }
    return Estimate.of(Stats.median(predictions));
  }
}
