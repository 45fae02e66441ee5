package org.perflab.dagmodel;

import java.io.Serializable;

/**
 * A prediction of run {@code toAppId}'s duration (at {@code toSlots}) from the model of run {@code fromAppId} (at
 * {@code fromSlots}), by the simulator and by the two analytic baselines, in seconds. Errors follow the paper's
 * sign convention, {@code (actual − predicted) / actual}, in percent: negative means an overestimate.
 */
public record Prediction(String workload, String fromAppId, String toAppId, int fromSlots, int toSlots,
    double actualS, double simulatedS, double forkJoinS, double taskPrecedenceS) implements Serializable {

  public double simulatedErrorPct() {
    return errorPct(simulatedS);
  }

  public double forkJoinErrorPct() {
    return errorPct(forkJoinS);
  }

  public double taskPrecedenceErrorPct() {
    return errorPct(taskPrecedenceS);
  }

  private double errorPct(double predicted) {
    return 100.0 * (actualS - predicted) / actualS;
  }
}
