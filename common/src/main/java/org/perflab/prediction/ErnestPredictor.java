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
 */
public record ErnestPredictor() implements Predictor {

  @Override
  public String name() {
    return ErnestFit.LABEL;
  }

  @Override
  public Estimate predict(List<Measured> training, Target target) {
    List<Measured> same = training.stream().filter(m -> sameMachine(m.configuration(), target.configuration()))
        .toList();
    ErnestFit fit = fit(same);
    if (!fit.ok()) {
      fit = fit(training);
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

  private static ErnestFit fit(List<Measured> points) {
    return ErnestFit.fit(points.stream().mapToDouble(Measured::inputBytes).toArray(),
        points.stream().mapToDouble(Measured::totalCores).toArray(),
        points.stream().mapToDouble(Measured::actualS).toArray());
  }
}
