package org.perflab.prediction;

import java.io.Serializable;

/**
 * One row of {@code prediction_eval}: one held-out configuration of a workload, predicted by one predictor from the
 * workload's other configurations (docs/tables.md#prediction_eval).
 *
 * @param workloadId the workload
 * @param inputBytes median input bytes of the configuration's runs
 * @param executors executors
 * @param coresPerExecutor cores per executor
 * @param totalCores executors × cores per executor
 * @param executorMemoryBytes executor memory, bytes; null when unknown
 * @param runs runs at the configuration
 * @param actualS their median duration, seconds
 * @param predictor the predictor's name
 * @param predictedS the prediction, seconds; null when the predictor cannot predict the configuration
 * @param lowS lower end of the 80 % interval, seconds; null without one
 * @param highS upper end of the 80 % interval, seconds; null without one
 * @param absErrorPct |actual − predicted| ÷ actual × 100; null without a prediction
 * @param selected whether this is the predictor PerfLab uses for this workload and configuration
 * @param intervalSource where the interval came from
 * @param note why there is no prediction or interval, or why this predictor was selected; null otherwise
 */
public record PredictionRow(String workloadId, long inputBytes, int executors, int coresPerExecutor, int totalCores,
    Long executorMemoryBytes, int runs, double actualS, String predictor, Double predictedS, Double lowS,
    Double highS, Double absErrorPct, boolean selected, IntervalSource intervalSource, String note)
    implements Serializable {

  /** |actual − predicted| ÷ actual × 100. */
  public static double absErrorPct(double actualS, double predictedS) {
    return Math.abs(actualS - predictedS) / actualS * 100.0;
  }

  /** Whether the actual runtime lies inside the interval (ends included); false without an interval. */
  public boolean covered() {
    return lowS != null && highS != null && actualS >= lowS && actualS <= highS;
  }

  /** This row with another selection flag and note. */
  public PredictionRow withSelected(boolean isSelected, String newNote) {
    return new PredictionRow(workloadId, inputBytes, executors, coresPerExecutor, totalCores, executorMemoryBytes,
        runs, actualS, predictor, predictedS, lowS, highS, absErrorPct, isSelected, intervalSource, newNote);
  }
}
