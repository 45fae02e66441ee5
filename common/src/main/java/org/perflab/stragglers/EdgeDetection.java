package org.perflab.stragglers;

import java.util.NavigableMap;

/**
 * Resource features with the corrected edge detection (reference 002 §2.1.3, Eq. 3.1 and 3.4). The thesis's prose
 * says a task satisfying Eq. 3.4 caused its own load; the inequalities say the opposite. As the reference resolves it,
 * high utilisation is external contention, and so a root-cause candidate, only when it is already high in the
 * {@code t} seconds before the task starts and still high in the {@code t} seconds after it ends:
 * {@code head > λe·F} and {@code tail > λe·F}. The "edge" pattern (low before, high during, low after) is the task's
 * own load and is rejected.
 */
public final class EdgeDetection {
  private EdgeDetection() {}

  /** Mean utilisation during, before and after a task; NaN where no sample falls in the window. */
  public record Window(double during, double head, double tail) {}

  /**
   * Eq. 3.4 as corrected: whether the load persists outside the task's run. NaN (no samples before or after, e.g. a
   * task at the start of monitoring) is never external.
   */
  public static boolean external(double head, double during, double tail, double lambdaE) {
    return head > lambdaE * during && tail > lambdaE * during;
  }

  /**
   * Eq. 3.1 over 1 Hz samples keyed by epoch second: the mean over the task's seconds {@code [startS, endS]}, the head
   * window {@code [startS - t, startS - 1]} and the tail window {@code [endS + 1, endS + t]}.
   */
  public static Window measure(NavigableMap<Long, Double> samples, long startS, long endS, int windowS) {
    return new Window(mean(samples, startS, endS), mean(samples, startS - windowS, startS - 1),
        mean(samples, endS + 1, endS + windowS));
  }

  private static double mean(NavigableMap<Long, Double> samples, long from, long to) {
    var range = samples.subMap(from, true, to, true).values();
    return range.isEmpty() ? Double.NaN : range.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
  }
}
