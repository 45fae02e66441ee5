package org.perflab.spark.recommend;

import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.countDistinct;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max_by;
import static org.apache.spark.sql.functions.percentile_approx;

import java.util.Optional;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataTypes;
import org.perflab.spark.features.FeatureTables;
import org.perflab.spark.findings.FindingsTable;
import org.perflab.spark.memory.MemoryTables;
import org.perflab.spark.prediction.PredictionTables;
import org.perflab.spark.prediction.RunTable;
import org.perflab.spark.scaling.ScalingTables;
import org.perflab.spark.storage.TableStore;
import org.perflab.spark.sweep.SweepTables;
import org.perflab.table.KeyColumns;
import org.perflab.table.Table;

/**
 * What {@code recommend} reads, each table optional but the runs. {@link #read} reads them; the transform does no I/O.
 *
 * @param runs the usable runs ({@code org.perflab.spark.prediction.RunTable.SCHEMA})
 * @param classes one row per workload and size class that must get a row: {@code workload_id}, {@code size_class},
 *     {@code runs} (int, applications of the class, usable or not), {@code input_bytes} (long, their median)
 * @param choices {@code predictor_choice}
 * @param sweep {@code sweep_results}, with {@code input_bytes} filled from the swept log where the grid had none
 * @param memory {@code memory_recommendations}
 * @param shuffle {@code workload_id}, {@code size_class}, {@code shuffle_bytes} (long, median per run)
 * @param findings {@code workload_id}, {@code rule}, {@code runs} (long, runs with the finding)
 * @param scaling {@code scaling_fits}
 * @param versions {@code workload_id}, {@code spark_version}: the Spark version of each workload's latest run that
 *     declares one ({@link #latestVersions})
 */
public record RecommendInputs(Dataset<Row> runs, Dataset<Row> classes, Optional<Dataset<Row>> choices,
    Optional<Dataset<Row>> sweep, Optional<Dataset<Row>> memory, Optional<Dataset<Row>> shuffle,
    Optional<Dataset<Row>> findings, Optional<Dataset<Row>> scaling, Optional<Dataset<Row>> versions) {

  /**
   * The transform's inputs: the runs, the classes to cover, and every side table under {@code in} that exists. The
   * shuffle sizes and the findings need {@code workloads} (absent when the runs come from a runtime table).
   */
  public static RecommendInputs read(TableStore in, Optional<Dataset<Row>> workloads, Dataset<Row> runs) {
    Optional<Dataset<Row>> sweep = in.read(SweepTables.RESULTS_TABLE).map(s -> withSweptInput(s, workloads));
    Optional<Dataset<Row>> shuffle = workloads.flatMap(w -> in.read(FeatureTables.APP_FEATURES_TABLE))
        .map(RecommendInputs::shuffleBytes);
    Optional<Dataset<Row>> findings = workloads.flatMap(w -> in.read(FindingsTable.NAME)
        .map(f -> runsPerFinding(f, w)));
    Optional<Dataset<Row>> versions = workloads.flatMap(w -> in.read(Table.APPLICATIONS)
        .map(a -> latestVersions(w, a)));
    return new RecommendInputs(runs, classes(workloads.orElse(runs)), in.read(PredictionTables.CHOICE_TABLE), sweep,
        in.read(MemoryTables.RECOMMENDATIONS_TABLE), shuffle, findings, in.read(ScalingTables.FITS_TABLE), versions);
  }

  /**
   * The Spark version of each workload's latest run (by start time) among those whose log declares one: the version
   * whose keys a recommendation's arguments are written in.
   */
  static Dataset<Row> latestVersions(Dataset<Row> workloads, Dataset<Row> applications) {
    return workloads.select(KeyColumns.LOG_ID, "workload_id").distinct()
        .join(applications.where(col("spark_version").isNotNull())
            .select(col(KeyColumns.LOG_ID), col("start_time_ms"), col("spark_version")), KeyColumns.LOG_ID)
        .groupBy("workload_id").agg(max_by(col("spark_version"), coalesce(col("start_time_ms"), lit(0L)))
            .as("spark_version"));
  }

  /** One row per workload and size class of {@code runs}: its applications and their median input bytes. */
  static Dataset<Row> classes(Dataset<Row> runs) {
    return runs.groupBy("workload_id", "size_class").agg(
        count(lit(1)).cast(DataTypes.IntegerType).as("runs"),
        percentile_approx(col("input_bytes"), lit(0.5), lit(10000)).cast(DataTypes.LongType).as("input_bytes"));
  }

  /** The median shuffle bytes read per run of each workload and size class, from {@code app_features}. */
  static Dataset<Row> shuffleBytes(Dataset<Row> appFeatures) {
    return appFeatures.groupBy("workload_id", "size_class").agg(percentile_approx(col("shuffle_read_bytes"), lit(0.5),
        lit(10000)).cast(DataTypes.LongType).as("shuffle_bytes"));
  }

  /** The runs of each workload with each finding's rule, from {@code findings} keyed to {@code workloads}. */
  static Dataset<Row> runsPerFinding(Dataset<Row> findings, Dataset<Row> workloads) {
    return findings.join(
            workloads.select(KeyColumns.LOG_ID, KeyColumns.APP_ID, KeyColumns.APP_ATTEMPT_ID, "workload_id"),
            new String[] {KeyColumns.LOG_ID, KeyColumns.APP_ID, KeyColumns.APP_ATTEMPT_ID})
        .groupBy("workload_id", "rule").agg(countDistinct(RunTable.runKey()).as("runs"));
  }

  /** Sweep points without an input size in the grid get the swept log's median input bytes. */
  static Dataset<Row> withSweptInput(Dataset<Row> sweep, Optional<Dataset<Row>> workloads) {
    if (workloads.isEmpty()) {
      return sweep;
    }
    Dataset<Row> logInput = workloads.get().groupBy(col(KeyColumns.LOG_ID).as("_log"))
        .agg(percentile_approx(col("input_bytes"), lit(0.5), lit(10000)).cast(DataTypes.LongType).as("_log_input"));
    Column filled = org.apache.spark.sql.functions.coalesce(col("input_bytes"), col("_log_input"));
    return sweep.join(logInput, sweep.col(KeyColumns.LOG_ID).equalTo(logInput.col("_log")), "left")
        .withColumn("input_bytes", filled).drop("_log", "_log_input");
  }
}
