package org.perflab.changes;

/**
 * The thresholds of {@link ChangeDetector}.
 *
 * @param minHistory earlier runs a workload needs before any verdict (at least 2)
 * @param threshold robust z (|log value − baseline median| ÷ noise) from which a run is a change, e.g. 4
 * @param noiseFloor the least noise assumed, in log units (0.02 is 2 %): a history of identical runs still varies
 * @param window the latest runs of the baseline level whose median and MAD are taken
 * @param trendZ the Mann–Kendall z from which a level's runs are a trend (3.29: two-sided p = 0.001 for runs that
 *     do not trend); positive infinity turns the trend test off
 */
public record DetectorOptions(int minHistory, double threshold, double noiseFloor, int window, double trendZ) {
  public static final int DEFAULT_MIN_HISTORY = 5;
  public static final double DEFAULT_THRESHOLD = 4.0;
  public static final double DEFAULT_NOISE_FLOOR = 0.02;
  public static final int DEFAULT_WINDOW = 20;
  public static final double DEFAULT_TREND_Z = 3.29;

  public DetectorOptions {
    if (minHistory < 2) {
      throw new IllegalArgumentException("Cannot judge runs: the minimum history must be at least 2 (" + minHistory
          + ")");
    }
    if (!(threshold > 0) || !(noiseFloor >= 0) || window < minHistory || !(trendZ > 0)) {
      throw new IllegalArgumentException(String.format(java.util.Locale.ROOT,
          "Cannot judge runs: threshold > 0, noise floor >= 0, window >= min history, trend z > 0 (%s, %s, %s, %s)",
          threshold, noiseFloor, window, trendZ));
    }
  }

  /** The defaults with {@code minHistory} earlier runs. */
  public static DetectorOptions withMinHistory(int minHistory) {
    return new DetectorOptions(minHistory, DEFAULT_THRESHOLD, DEFAULT_NOISE_FLOOR,
        Math.max(DEFAULT_WINDOW, minHistory), DEFAULT_TREND_Z);
  }

  /** These options with the trend test off: only steps are changes. */
  public DetectorOptions withoutTrend() {
    return new DetectorOptions(minHistory, threshold, noiseFloor, window, Double.POSITIVE_INFINITY);
  }

  /** Whether the trend test is on. */
  public boolean trends() {
    return !Double.isInfinite(trendZ);
  }
}
