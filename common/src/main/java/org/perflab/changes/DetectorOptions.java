package org.perflab.changes;

/**
 * The thresholds of {@link ChangeDetector}.
 *
 * @param minHistory earlier runs a workload needs before any verdict (at least 2)
 * @param threshold robust z (|log value − baseline median| ÷ noise) from which a run is a change, e.g. 4
 * @param noiseFloor the least noise assumed, in log units (0.02 is 2 %): a history of identical runs still varies
 * @param window the latest runs of the baseline level whose median and noise are taken
 * @param trendZ the Mann–Kendall z from which a level's runs are a trend (3.29: two-sided p = 0.001 for runs that
 *     do not trend); positive infinity turns the trend test off
 * @param pairZ robust z from which two runs in a row on the same side of the level are a change, though neither is
 *     beyond {@code threshold} ({@link #pairThreshold}: 2.54 for a threshold of 4); positive infinity turns the pair
 *     test off
 * @param tripleZ robust z from which three runs in a row on the same side of the level are a change, though none is
 *     beyond {@code threshold} and no two make a pair ({@link #tripleThreshold}: 1.86 for a threshold of 4); positive
 *     infinity turns the triple test off
 */
public record DetectorOptions(int minHistory, double threshold, double noiseFloor, int window, double trendZ,
    double pairZ, double tripleZ) {
  public static final int DEFAULT_MIN_HISTORY = 5;
  public static final double DEFAULT_THRESHOLD = 4.0;
  public static final double DEFAULT_NOISE_FLOOR = 0.02;
  public static final int DEFAULT_WINDOW = 20;
  public static final double DEFAULT_TREND_Z = 3.29;
  /** {@link #pairThreshold} of {@link #DEFAULT_THRESHOLD}: 2.54. */
  public static final double DEFAULT_PAIR_Z = pairThreshold(DEFAULT_THRESHOLD);
  /** {@link #tripleThreshold} of {@link #DEFAULT_THRESHOLD}: 1.86. */
  public static final double DEFAULT_TRIPLE_Z = tripleThreshold(DEFAULT_THRESHOLD);

  public DetectorOptions {
    if (minHistory < 2) {
      throw new IllegalArgumentException("Cannot judge runs: the minimum history must be at least 2 (" + minHistory
          + ")");
    }
    if (!(threshold > 0) || !(noiseFloor >= 0) || window < minHistory || !(trendZ > 0) || !(pairZ > 0)
        || !(tripleZ > 0)) {
      throw new IllegalArgumentException(String.format(java.util.Locale.ROOT,
          "Cannot judge runs: threshold > 0, noise floor >= 0, window >= min history, trend z > 0, pair z > 0,"
              + " triple z > 0 (%s, %s, %s, %s, %s, %s)", threshold, noiseFloor, window, trendZ, pairZ, tripleZ));
    }
  }

  /** The defaults with {@code minHistory} earlier runs. */
  public static DetectorOptions withMinHistory(int minHistory) {
    return new DetectorOptions(minHistory, DEFAULT_THRESHOLD, DEFAULT_NOISE_FLOOR,
        Math.max(DEFAULT_WINDOW, minHistory), DEFAULT_TREND_Z, DEFAULT_PAIR_Z, DEFAULT_TRIPLE_Z);
  }

  /** These options with the trend test off. */
  public DetectorOptions withoutTrend() {
    return new DetectorOptions(minHistory, threshold, noiseFloor, window, Double.POSITIVE_INFINITY, pairZ, tripleZ);
  }

  /** These options with the pair and triple tests off. */
  public DetectorOptions withoutPairs() {
    return new DetectorOptions(minHistory, threshold, noiseFloor, window, trendZ, Double.POSITIVE_INFINITY,
        Double.POSITIVE_INFINITY);
  }

  /** These options with the triple test off. */
  public DetectorOptions withoutTriples() {
    return new DetectorOptions(minHistory, threshold, noiseFloor, window, trendZ, pairZ, Double.POSITIVE_INFINITY);
  }

  /** Whether the trend test is on. */
  public boolean trends() {
    return !Double.isInfinite(trendZ);
  }

  /**
   * The pair threshold that goes with a step threshold: the z whose one-sided standard normal tail, squared, is the
   * tail of {@code threshold}, so that two independent runs in a row beyond it on one side are as unlikely, for
   * steady normal noise, as one run beyond {@code threshold} (for 4: 0.0056² = 3.2 × 10⁻⁵, z 2.54).
   */
  public static double pairThreshold(double threshold) {
    return inARowThreshold(threshold, 2);
  }

  /**
   * The triple threshold that goes with a step threshold: the z whose one-sided standard normal tail, cubed, is the
   * tail of {@code threshold}, so that three independent runs in a row beyond it on one side are as unlikely, for
   * steady normal noise, as one run beyond {@code threshold} (for 4: 0.0317³ = 3.2 × 10⁻⁵, z 1.86).
   */
  public static double tripleThreshold(double threshold) {
    return inARowThreshold(threshold, 3);
  }

  /** The z whose one-sided standard normal tail to the power {@code runs} is the tail of {@code threshold}. */
  private static double inARowThreshold(double threshold, int runs) {
    double target = Math.pow(upperTail(threshold), 1.0 / runs);
    double low = 0;
    double high = threshold;
    for (int k = 0; k < 60; k++) {
      double mid = (low + high) / 2;
      if (upperTail(mid) > target) {
        low = mid;
      } else {
        high = mid;
      }
    }
    return (low + high) / 2;
  }

  /**
   * P(Z ≥ z) for a standard normal Z, z ≥ 0: the density integrated from z to z + 12 by Simpson's rule (relative error
   * below 10⁻⁹ for z up to 8).
   */
  static double upperTail(double z) {
    int intervals = 4000;
    double h = 12.0 / intervals;
    double sum = density(z) + density(z + 12);
    for (int k = 1; k < intervals; k++) {
      sum += (k % 2 == 1 ? 4 : 2) * density(z + k * h);
    }
    return sum * h / 3;
  }

  private static double density(double x) {
    return Math.exp(-x * x / 2) / Math.sqrt(2 * Math.PI);
  }
}
