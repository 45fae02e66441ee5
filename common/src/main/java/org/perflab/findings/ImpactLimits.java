package org.perflab.findings;

/**
 * The highest severity a finding's impact allows, whatever its metric's grade: the severity is the lower of the two.
 * Each measure is graded as a metric is ({@link Thresholds}, ascending), except that a finding is never bounded below
 * LOW (the {@code findings} table keeps its rows). A {@link Impact#TIME} finding is bounded by both its savings' share
 * of the application's wall time and the core-hours they stand for (savings × the application's slots); an unknown
 * wall time bounds nothing. Limits' LOW values are not used (LOW is the floor).
 *
 * @param wallShare estimated savings ÷ the application's wall time
 * @param coreHours core-hours saved or wasted per run (core-seconds ÷ 3600)
 * @param gbHours GB-hours of executor memory wasted per run (10^9 bytes × hours)
 */
public record ImpactLimits(Thresholds wallShare, Thresholds coreHours, Thresholds gbHours) {
  /**
   * The defaults: MODERATE from 5 % of wall time and 0.05 core-hours (3 core-minutes), SEVERE from 10 % and 0.5,
   * CRITICAL from 20 % and 2 core-hours; memory at 4 GB per core (0.2 / 2 / 8 GB-hours).
   */
  public static final ImpactLimits DEFAULT = new ImpactLimits(Thresholds.ascending(0, 0.05, 0.10, 0.20),
      Thresholds.ascending(0, 0.05, 0.5, 2), Thresholds.ascending(0, 0.2, 2, 8));

  public ImpactLimits {
    for (Thresholds t : new Thresholds[] {wallShare, coreHours, gbHours}) {
      if (!t.ascending()) {
        throw new IllegalArgumentException("Cannot bound severities: impact limits must be ascending (" + t + ")");
      }
    }
  }
}
