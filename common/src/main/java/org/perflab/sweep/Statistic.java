package org.perflab.sweep;

/** The execution-time statistic a deadline and the time–cost front use ({@code --deadline-stat}). */
public enum Statistic {
  MEAN, P50, P90, P99;

  /** This statistic of a point, in seconds. */
  public double of(PointResult r) {
    return switch (this) {
      case MEAN -> r.meanS();
      case P50 -> r.p50S();
      case P90 -> r.p90S();
      case P99 -> r.p99S();
    };
  }
}
