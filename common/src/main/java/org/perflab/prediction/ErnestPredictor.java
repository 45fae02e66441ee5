package org.perflab.prediction;

import java.util.List;
import java.util.Objects;
import org.perflab.scaling.ErnestFit;

/**
 * Ernest's model (Venkataraman et al., NSDI'16), T = θ0 + θ1·size/cores + θ2·log(cores) + θ3·cores with θ ≥ 0,
 * fitted by non-negative least squares over the workload's training configurations of every input size, each one
 * point (median input bytes, total cores, median runtime). Where the training configurations with the target's
 * cores per executor and executor memory suffice for a fit ({@value ErnestFit#MIN_CONFIGURATIONS} or more), only
 * those are used, since the model has no term for either; otherwise all of them.
 *
 * @param diagnostics whether each fit also computes the R² and leave-one-out error that {@code scaling_fits} reports
 *     ({@link ErnestFit#fit}), as issue 11's harness did: the same predictions at several times the cost, kept as the
 *     benchmarks' baseline; false fits the model alone ({@link ErnestFit#model})
 */
public record ErnestPredictor(boolean diagnostics) implements Predictor {

  /** Ernest, fitting the model alone. */
  public ErnestPredictor() {
    this(false);
  }

  @Override
  public String name() {
    return ErnestFit.LABEL;
  }

  @Override
  public Estimate predict(List<Measured> training, Target target) {
    List<Measured> same = training.stream().filter(m -> sameMachine(m.configuration(), target.configuration()))
        .toList();
    ErnestFit fit = fit(same, diagnostics);
    if (!fit.ok()) {
      fit = fit(training, diagnostics);
    }
    if (!fit.ok()) {
      return Estimate.none(fit.note());
    }
    double predicted = fit.predict(target.inputBytes(), target.totalCores());
    return predicted > 0 ? Estimate.of(predicted) : Estimate.none(
        "Cannot predict with ernest: the fitted model gives " + predicted + " s (a positive runtime)");
  }

  private static boolean sameMachine(Configuration a, Configuration b) {
    return a.coresPerExecutor() == b.coresPerExecutor()
        && Objects.equals(a.executorMemoryBytes(), b.executorMemoryBytes());
  }

  private static ErnestFit fit(List<Measured> points, boolean diagnostics) {
    double[] bytes = points.stream().mapToDouble(Measured::inputBytes).toArray();
    double[] cores = points.stream().mapToDouble(Measured::totalCores).toArray();
    double[] seconds = points.stream().mapToDouble(Measured::actualS).toArray();
    return diagnostics ? ErnestFit.fit(bytes, cores, seconds) : ErnestFit.model(bytes, cores, seconds);
  }
}
