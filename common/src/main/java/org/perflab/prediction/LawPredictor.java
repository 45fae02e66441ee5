package org.perflab.prediction;

import java.util.List;
import java.util.Locale;
import org.perflab.scaling.Law;
import org.perflab.scaling.LawFit;

/**
 * A scaling law of reference 003 ({@link Law}) fitted over the target's series: the training configurations of the
 * same input-size class, cores per executor and executor memory ({@link Configuration#sameSeries}), each one point
 * (total cores, median runtime). The law then predicts the target's total cores. A series with fewer than
 * {@value LawFit#MIN_CORE_COUNTS} distinct core counts gives no prediction, with the fitter's reason. The prediction
 * reads the target's series only ({@link #reads}).
 *
 * @param law the law
 * @param diagnostics whether each fit also computes the R² and leave-one-out error that {@code scaling_fits} reports
 *     ({@link LawFit#fit}), as issue 11's harness did: the same predictions at several times the cost, kept as the
 *     benchmarks' baseline; false fits the curve alone ({@link LawFit#curve})
 */
public record LawPredictor(Law law, boolean diagnostics) implements Predictor {

  /** The law, fitting the curve alone. */
  public LawPredictor(Law law) {
    this(law, false);
  }

  @Override
  public String name() {
    return law.label();
  }

  /** The training configurations of the target's series. */
  @Override
  public List<Measured> reads(List<Measured> training, Target target) {
    return training.stream().filter(m -> m.configuration().sameSeries(target.configuration())).toList();
  }

  @Override
  public Estimate predict(List<Measured> training, Target target) {
    List<Measured> series = reads(training, target);
    double[] n = series.stream().mapToDouble(Measured::totalCores).toArray();
    double[] y = series.stream().mapToDouble(Measured::actualS).toArray();
    LawFit fit = diagnostics ? LawFit.fit(law, n, y) : LawFit.curve(law, n, y);
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
