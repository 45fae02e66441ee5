package org.perflab.changes;

/** What {@link ChangeDetector} says of one run's metric against its workload's history. */
public enum Verdict {
  /** Significantly above the baseline level (slower, more expensive). */
  REGRESSION,
  /** Significantly below the baseline level. */
  IMPROVEMENT,
  /** Within the workload's own run-to-run noise. */
  WITHIN_NOISE,
  /** Fewer earlier runs than the minimum history: no verdict. */
  INSUFFICIENT_HISTORY,
  /** The run has no value for the metric (e.g. GB-hours without an executor memory setting). */
  NOT_MEASURED;

  /** A regression or an improvement. */
  public boolean changed() {
    return this == REGRESSION || this == IMPROVEMENT;
  }
}
