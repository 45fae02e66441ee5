package org.perflab.stragglers;

/**
 * How the straggler's host ran the application's other successful tasks: how many, and how slow against their own
 * stages ({@link BigRoots#slowHost}).
 *
 * @param otherTasks the host's other tasks of the application with a duration and a stage median above 0
 * @param otherSlowness their geometric mean of duration ÷ their stage's median duration (1 for a host like the
 *     others); NaN without other tasks or without a known host
 */
public record HostEvidence(long otherTasks, double otherSlowness) {
  /** No host known, or no other task on it. */
  public static final HostEvidence NONE = new HostEvidence(0, Double.NaN);

  /**
   * The evidence from the host's tasks' summed natural logarithms of duration ÷ stage median, the straggler's own
   * included: {@code tasks} of them summing to {@code logSum}, the straggler's own log ratio {@code ownLog}.
   */
  public static HostEvidence fromLogs(long tasks, double logSum, double ownLog) {
    long others = tasks - 1;
    return others <= 0 || Double.isNaN(logSum) ? NONE : new HostEvidence(others, Math.exp((logSum - ownLog) / others));
  }
}
