package org.perflab.eventlog.parse;

/** Differences of epoch-millisecond timestamps that may be missing. */
final class Durations {
  private Durations() {}

  /** {@code end - start} in ms, or null when either is unknown or non-positive. */
  static Long between(Long start, Long end) {
    if (start == null || end == null || start <= 0 || end <= 0) {
      return null;
    }
    return end - start;
  }
}
