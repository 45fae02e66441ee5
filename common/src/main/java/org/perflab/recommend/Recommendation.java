package org.perflab.recommend;

/**
 * One row of {@code recommendations}: the configuration PerfLab recommends for a workload's input-size class, its
 * predicted runtime and cost, or why there is none (docs/tables.md#recommendations has every column's unit).
 *
 * @param workloadId the workload
 * @param sizeClass the input-size class, round(log2 bytes)
 * @param inputBytes the class's median input bytes
 * @param runs runs of the class measured
 * @param candidates candidate configurations ranked
 * @param executors recommended executors; null without a recommendation (likewise every configuration field)
 * @param coresPerExecutor recommended cores per executor
 * @param executorMemoryBytes recommended executor memory, bytes
 * @param memoryOverheadBytes recommended memory overhead, bytes; null for Spark's default
 * @param shufflePartitions recommended {@code spark.sql.shuffle.partitions}
 * @param minExecutors dynamic-allocation lower bound
 * @param maxExecutors dynamic-allocation upper bound
 * @param predictedS predicted runtime, seconds
 * @param predictedLowS lower end of its 80 % interval, seconds; null without one
 * @param predictedHighS upper end (p90), seconds; null without one
 * @param coreHours predicted core·h
 * @param gbHours predicted GiB·h of executor containers; null when the memory is unknown
 * @param cost in {@code costUnit}
 * @param costUnit the prices' currency, or {@code core_hours}
 * @param objective the objective, in words
 * @param predictor the predictor used ({@code sweep:<statistic>} for the simulator sweep); null when none
 * @param sparkSubmitArgs the flags and {@code --conf} lines to apply
 * @param evidence predictor, memory source, shuffle rule, findings and scaling fit, "; "-separated
 * @param reason why there is no recommendation ("Cannot ..."); null when there is one
 */
public record Recommendation(String workloadId, int sizeClass, long inputBytes, int runs, int candidates,
    Integer executors, Integer coresPerExecutor, Long executorMemoryBytes, Long memoryOverheadBytes,
    Integer shufflePartitions, Integer minExecutors, Integer maxExecutors, Double predictedS, Double predictedLowS,
    Double predictedHighS, Double coreHours, Double gbHours, Double cost, String costUnit, String objective,
    String predictor, String sparkSubmitArgs, String evidence, String reason) implements java.io.Serializable {

  /** A row without a recommendation. */
  public static Recommendation none(String workloadId, int sizeClass, long inputBytes, int runs, int candidates,
      String costUnit, String objective, String predictor, String evidence, String reason) {
    return new Recommendation(workloadId, sizeClass, inputBytes, runs, candidates, null, null, null, null, null,
        null, null, null, null, null, null, null, null, costUnit, objective, predictor, null, evidence, reason);
  }
}
