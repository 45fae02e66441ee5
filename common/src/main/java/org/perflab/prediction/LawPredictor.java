package org.perflab.prediction;

import java.util.List;
import java.util.Locale;
import org.perflab.scaling.Law;
import org.perflab.scaling.LawFit;

/**
 * A scaling law of reference 003 ({@link Law}) fitted over the target's series: the training configurations of the
 * same input-size class, cores per executor and executor memory ({@link Configuration#sameSeries}), each one point
 * (total cores, median runtime). The law then predicts the target's total cores. A series with fewer than
 * {@value LawFit#MIN_CORE_COUNTS} distinct core counts gives no prediction, with the fitter's reason.
 *
 * @param law the law
 */
public record LawPredictor(Law law) implements Predictor {

  @Override
  public String name() {
    return law.label();
  }

  @Override
  public Estimate predict(List<Measured> training, Target target) {
    List<Measured> series = training.stream()
        .filter(m -> m.configuration().sameSeries(target.configuration())).toList();
    double[] n = series.stream().mapToDouble(Measured::totalCores).toArray();
    double[] y = series.stream().mapToDouble(Measured::actualS).toArray();
    LawFit fit = LawFit.fit(law, n, y);
    if (!fit.ok()) {
      return Estimate.none(String.format(Locale.ROOT, "%s (series: size class %d, %d cores per executor)",
          fit.note(), target.configuration().sizeClass(), target.configuration().coresPerExecutor()));
    }
    double predicted = fit.predict(target.totalCores());
    if (!(predicted > 0) || !Double.isFinite(predicted)) {
      return Estimate.none(String.format(Locale.ROOT,
          "Cannot predict with %s: the fitted law gives %s s at %d total cores (a positive runtime)", name(),
          predicted, target.totalCores()));
    }
    return new Estimate(predicted, null, null, fit.note());
  }
}
