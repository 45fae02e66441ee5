package org.perflab.sweep;

/**
 * One row of {@code sweep_best}: a point on the time–cost Pareto front ({@link Kind#PARETO}), or the cheapest point
 * whose statistic meets the deadline ({@link Kind#DEADLINE}, with {@code deadlineS}; NaN for front rows).
 */
public record BestPoint(Kind kind, Statistic statistic, double deadlineS, PointResult result) {

  /** Why a point is in {@code sweep_best}. */
  public enum Kind { PARETO, DEADLINE }

  /** The statistic's value at this point, in seconds. */
  public double timeS() {
    return statistic.of(result);
  }
}
