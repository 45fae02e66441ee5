package org.perflab.spark.regress;

import static org.apache.spark.sql.functions.avg;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.greatest;
import static org.apache.spark.sql.functions.least;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.ln;
import static org.apache.spark.sql.functions.median;
import static org.apache.spark.sql.functions.regr_slope;
import static org.apache.spark.sql.functions.stddev_samp;
import static org.apache.spark.sql.functions.when;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.perflab.errors.BadInputException;
import org.perflab.spark.prediction.RunTable;
import org.perflab.spark.storage.TableStore;
import org.perflab.table.KeyColumns;

/**
 * What runtime regression knows of a workload: one row per workload, computed over the <b>training</b> runs only, so
 * that nothing measured on a run being predicted reaches its features. Runs of a workload without a training run get
 * nulls when joined, which the pipeline imputes with the training median ({@link RuntimeFeature}).
 *
 * <p>Columns ({@link #SCHEMA}): the workload's training runs; the medians of ln(duration s) and of ln(duration s ×
 * total cores ÷ (input bytes + 1)), its core-seconds per byte; and, when {@code app_features} is given (runs from
 * logs), the medians over its training runs of five ratios that describe what the workload does: shuffle bytes read
 * per input byte, GC share, utilisation, the share of wall time with no task running, and disk-spilled bytes per
 * input byte (input bytes as in the run table, + 1). Those five are null without {@code app_features}, for a
 * workload whose training runs have no {@code app_features} row, and where every value is null.
 */
public final class WorkloadFeatures {
  public static final String WORKLOAD_ID = "workload_id";
  public static final String TRAINING_RUNS = "workload_training_runs";
  public static final String MEDIAN_LOG_DURATION = "workload_median_log_duration";
  public static final String MEDIAN_LOG_CORE_S_PER_BYTE = "workload_median_log_core_s_per_byte";
  public static final String LOG_DURATION_SLOPE = "workload_log_duration_slope";
  public static final String LOG_DURATION_INTERCEPT = "workload_log_duration_intercept";
  public static final String SHUFFLE_READ_PER_INPUT_BYTE = "workload_shuffle_read_per_input_byte";
  public static final String GC_SHARE = "workload_gc_share";
  public static final String UTILIZATION = "workload_utilization";
  public static final String DRIVER_ONLY_SHARE = "workload_driver_only_share";
  public static final String SPILL_PER_INPUT_BYTE = "workload_spill_per_input_byte";

  /** The columns of {@link #workloadFeatures}, in order (units: see the class comment and docs/tables.md). */
  public static final StructType SCHEMA = new StructType()
      .add(WORKLOAD_ID, DataTypes.StringType, false)
      .add(TRAINING_RUNS, DataTypes.LongType, false)
      .add(MEDIAN_LOG_DURATION, DataTypes.DoubleType, false)
      .add(MEDIAN_LOG_CORE_S_PER_BYTE, DataTypes.DoubleType, false)
      .add(LOG_DURATION_SLOPE, DataTypes.DoubleType, true)
      .add(LOG_DURATION_INTERCEPT, DataTypes.DoubleType, true)
      .add(SHUFFLE_READ_PER_INPUT_BYTE, DataTypes.DoubleType, true)
      .add(GC_SHARE, DataTypes.DoubleType, true)
      .add(UTILIZATION, DataTypes.DoubleType, true)
      .add(DRIVER_ONLY_SHARE, DataTypes.DoubleType, true)
      .add(SPILL_PER_INPUT_BYTE, DataTypes.DoubleType, true);

  /** The {@code app_features} columns read (docs/tables.md#app_features). */
  static final List<String> APP_FEATURE_COLUMNS = List.of(KeyColumns.LOG_ID, KeyColumns.APP_ID,
      KeyColumns.APP_ATTEMPT_ID, "shuffle_read_bytes", "gc_share", "utilization", "driver_only_s", "wall_time_s",
      "disk_spilled_bytes");

  /**
   * The least spread of ln(bytes per core) over a workload's training runs (standard deviation; 0.1 is about 10 %)
   * for its log-log fit: below it, bytes per core barely vary and the slope would be noise.
   */
  public static final double MIN_LOG_BYTES_PER_CORE_SPREAD = 0.1;
  /** The log-log slope is clamped to [0, this]: duration neither falls with more bytes per core nor explodes. */
  public static final double MAX_LOG_DURATION_SLOPE = 2.0;

  private static final String RUN_KEY = "run_key";

  private WorkloadFeatures() {}

  /**
   * The features of each workload of {@code trainingRuns}, from those runs alone.
   *
   * @param trainingRuns runs with {@code org.perflab.spark.prediction.RunTable#SCHEMA}'s columns
   * @param appFeatures the {@code app_features} table, joined to the runs by {@code run_key}
   *     ({@code log_id/app_id/app_attempt_id}); empty for runs from a runtime table
   * @throws BadInputException when {@code appFeatures} lacks a column read
   */
  public static Dataset<Row> workloadFeatures(Dataset<Row> trainingRuns, Optional<Dataset<Row>> appFeatures) {
    Dataset<Row> runs = trainingRuns.select(RUN_KEY, WORKLOAD_ID, "input_bytes", "total_cores", "duration_s");
    Dataset<Row> withRatios = appFeatures.map(app -> runs.join(ratios(app), new String[] {RUN_KEY}, "left"))
        .orElseGet(() -> runs.withColumn("shuffle_read_bytes", lit(null).cast(DataTypes.DoubleType))
            .withColumn("gc_share", lit(null).cast(DataTypes.DoubleType))
            .withColumn("utilization", lit(null).cast(DataTypes.DoubleType))
            .withColumn("driver_only_share", lit(null).cast(DataTypes.DoubleType))
            .withColumn("disk_spilled_bytes", lit(null).cast(DataTypes.DoubleType)));
    Column bytes = col("input_bytes").plus(1);
    Column logDuration = ln(col("duration_s"));
    Column logBytesPerCore = ln(bytes.divide(col("total_cores")));
    Column spread = stddev_samp(logBytesPerCore);
    Column slope = when(spread.geq(MIN_LOG_BYTES_PER_CORE_SPREAD),
        least(greatest(regr_slope(logDuration, logBytesPerCore), lit(0.0)), lit(MAX_LOG_DURATION_SLOPE)));
    Dataset<Row> features = withRatios.groupBy(WORKLOAD_ID).agg(
        count(lit(1)).as(TRAINING_RUNS),
        median(logDuration).as(MEDIAN_LOG_DURATION),
        median(logDuration.minus(logBytesPerCore)).as(MEDIAN_LOG_CORE_S_PER_BYTE),
        slope.as(LOG_DURATION_SLOPE),
        avg(logDuration).minus(slope.multiply(avg(logBytesPerCore))).as(LOG_DURATION_INTERCEPT),
        median(col("shuffle_read_bytes").divide(bytes)).as(SHUFFLE_READ_PER_INPUT_BYTE),
        median(col("gc_share")).as(GC_SHARE),
        median(col("utilization")).as(UTILIZATION),
        median(col("driver_only_share")).as(DRIVER_ONLY_SHARE),
        median(col("disk_spilled_bytes").divide(bytes)).as(SPILL_PER_INPUT_BYTE));
    return TableStore.conform(features, SCHEMA);
  }

  /**
   * {@code workloadFeatures} conformed to {@link #SCHEMA}, collected and re-created: a few rows, so that later plans
   * (several fits over the same features, each predicting) do not recompute them. Holding features already held costs
   * no Spark job.
   */
  public static Dataset<Row> held(Dataset<Row> workloadFeatures) {
    Dataset<Row> conformed = TableStore.conform(workloadFeatures, SCHEMA);
    return conformed.sparkSession().createDataFrame(conformed.collectAsList(), SCHEMA);
  }

  /** Per run of {@code app_features}: its key and the columns the workload's medians are taken of. */
  private static Dataset<Row> ratios(Dataset<Row> app) {
    Set<String> have = Set.of(app.columns());
    List<String> missing = APP_FEATURE_COLUMNS.stream().filter(c -> !have.contains(c)).toList();
    BadInputException.require(missing.isEmpty(),
        "Cannot fit runtime regression: app_features lacks the columns %s (run perflab features)", missing);
    Column wall = col("wall_time_s");
    return app.select(
        RunTable.runKey().as(RUN_KEY),
        col("shuffle_read_bytes").cast(DataTypes.DoubleType).as("shuffle_read_bytes"),
        col("gc_share").cast(DataTypes.DoubleType).as("gc_share"),
        col("utilization").cast(DataTypes.DoubleType).as("utilization"),
        when(wall.gt(0), col("driver_only_s").divide(wall)).as("driver_only_share"),
        col("disk_spilled_bytes").cast(DataTypes.DoubleType).as("disk_spilled_bytes"));
  }
}
