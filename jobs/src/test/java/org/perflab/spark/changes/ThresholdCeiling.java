package org.perflab.spark.changes;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.DoubleStream;

/**
 * The best that any one threshold on one score could do on a labelled corpus: flag a run when its score is at least
 * the threshold, with every threshold tried. It bounds every detector that reads that score alone, whatever its
 * rule, so a goal this ceiling does not reach is out of the score's reach, not only out of the detector's.
 *
 * <p>Of the thresholds whose false alarms are within {@code maxFalseAlarmShare}, the one that detects most (then the
 * fewest false alarms); of those that detect at least {@code minDetectionShare}, the one with the fewest false alarms
 * (then the most detected). Both goals can be met by one threshold exactly when the first detects enough.
 *
 * @param must how many runs must be flagged
 * @param steady how many runs must not be
 * @param quietThreshold the threshold that best meets the false-alarm goal
 * @param quietDetected runs that must be flagged at or above it
 * @param quietFalseAlarms steady runs at or above it
 * @param sensitiveThreshold the threshold that best meets the detection goal
 * @param sensitiveDetected runs that must be flagged at or above it
 * @param sensitiveFalseAlarms steady runs at or above it
 * @param bothGoals whether one threshold meets both goals
 */
record ThresholdCeiling(int must, int steady, double quietThreshold, int quietDetected, int quietFalseAlarms,
    double sensitiveThreshold, int sensitiveDetected, int sensitiveFalseAlarms, boolean bothGoals) {

  /**
   * The ceiling over {@code mustScores} (runs to flag) and {@code steadyScores} (runs not to flag); a higher score is
   * more suspect. Shares are fractions in [0, 1].
   */
  static ThresholdCeiling of(double[] mustScores, double[] steadyScores, double maxFalseAlarmShare,
      double minDetectionShare) {
    double[] thresholds = DoubleStream.concat(DoubleStream.concat(Arrays.stream(mustScores),
        Arrays.stream(steadyScores)), DoubleStream.of(Double.POSITIVE_INFINITY)).distinct().sorted().toArray();
    double quiet = Double.POSITIVE_INFINITY;
    double sensitive = Double.NEGATIVE_INFINITY;
    int quietDetected = -1;
    int quietAlarms = 0;
    int sensitiveDetected = 0;
    int sensitiveAlarms = Integer.MAX_VALUE;
    for (double t : thresholds) {
      int detected = atOrAbove(mustScores, t);
      int alarms = atOrAbove(steadyScores, t);
      if (alarms <= maxFalseAlarmShare * steadyScores.length
          && (detected > quietDetected || detected == quietDetected && alarms < quietAlarms)) {
        quiet = t;
        quietDetected = detected;
        quietAlarms = alarms;
      }
      if (detected >= minDetectionShare * mustScores.length
          && (alarms < sensitiveAlarms || alarms == sensitiveAlarms && detected > sensitiveDetected)) {
        sensitive = t;
        sensitiveDetected = detected;
        sensitiveAlarms = alarms;
      }
    }
    return new ThresholdCeiling(mustScores.length, steadyScores.length, quiet, quietDetected, quietAlarms, sensitive,
        sensitiveDetected, sensitiveAlarms, quietDetected >= minDetectionShare * mustScores.length);
  }

  private static int atOrAbove(double[] scores, double threshold) {
    return (int) Arrays.stream(scores).filter(s -> s >= threshold).count();
  }

  /** One line: the two thresholds with what they flag, and whether one threshold meets both goals. */
  String describe(String unit) {
    return String.format(Locale.ROOT, "within the false-alarm goal: detection %d/%d, false alarms %d/%d (threshold"
        + " %s); within the detection goal: detection %d/%d, false alarms %d/%d (threshold %s); both goals at one"
        + " threshold: %s", quietDetected, must, quietFalseAlarms, steady, format(quietThreshold, unit),
        sensitiveDetected, must, sensitiveFalseAlarms, steady, format(sensitiveThreshold, unit),
        bothGoals ? "yes" : "no");
  }

  private static String format(double threshold, String unit) {
    return Double.isInfinite(threshold) ? "none" : String.format(Locale.ROOT, "%.2f%s", threshold, unit);
  }
}
