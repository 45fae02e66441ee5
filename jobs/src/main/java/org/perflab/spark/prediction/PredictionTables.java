package org.perflab.spark.prediction;

import java.util.List;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/** The tables {@code evaluate} writes (docs/tables.md#prediction_eval and the two after it). */
public final class PredictionTables {
  public static final String EVAL_TABLE = "prediction_eval";
  public static final String SUMMARY_TABLE = "prediction_eval_summary";
  public static final String CHOICE_TABLE = "predictor_choice";
  public static final List<String> NAMES = List.of(EVAL_TABLE, SUMMARY_TABLE, CHOICE_TABLE);

  /** The workload of the summary's rows over all workloads. */
  public static final String ALL_WORKLOADS = "*";
  /** The predictor of the summary's rows for the selected predictions. */
  public static final String SELECTED = "selected";

  /** One row per held-out configuration and predictor. */
  public static final StructType EVAL = new StructType()
      .add("workload_id", DataTypes.StringType, false)
      .add("input_bytes", DataTypes.LongType, false)
      .add("executors", DataTypes.IntegerType, false)
      .add("cores_per_executor", DataTypes.IntegerType, false)
      .add("total_cores", DataTypes.IntegerType, false)
      .add("executor_memory_bytes", DataTypes.LongType, true)
      .add("runs", DataTypes.IntegerType, false)
      .add("actual_s", DataTypes.DoubleType, false)
      .add("predictor", DataTypes.StringType, false)
      .add("predicted_s", DataTypes.DoubleType, true)
      .add("predicted_low_s", DataTypes.DoubleType, true)
      .add("predicted_high_s", DataTypes.DoubleType, true)
      .add("abs_error_pct", DataTypes.DoubleType, true)
      .add("selected", DataTypes.BooleanType, false)
      .add("interval_source", DataTypes.StringType, false)
      .add("note", DataTypes.StringType, true);

  /** Per workload and predictor, and over all workloads. */
  public static final StructType SUMMARY = new StructType()
      .add("workload_id", DataTypes.StringType, false)
      .add("predictor", DataTypes.StringType, false)
      .add("configurations", DataTypes.IntegerType, false)
      .add("predicted", DataTypes.IntegerType, false)
      .add("mean_abs_error_pct", DataTypes.DoubleType, true)
      .add("median_abs_error_pct", DataTypes.DoubleType, true)
      .add("p90_abs_error_pct", DataTypes.DoubleType, true)
      .add("with_interval", DataTypes.IntegerType, false)
      .add("interval_coverage", DataTypes.DoubleType, true)
      .add("note", DataTypes.StringType, true);

  /** Per workload: the predictor chosen on all its configurations, and why. */
  public static final StructType CHOICE = new StructType()
      .add("workload_id", DataTypes.StringType, false)
      .add("configurations", DataTypes.IntegerType, false)
      .add("runs", DataTypes.IntegerType, false)
      .add("predictor", DataTypes.StringType, true)
      .add("inner_mean_abs_error_pct", DataTypes.DoubleType, true)
      .add("reason", DataTypes.StringType, false)
      .add("inner_errors", DataTypes.createMapType(DataTypes.StringType, DataTypes.DoubleType), false);

  private PredictionTables() {}
}
