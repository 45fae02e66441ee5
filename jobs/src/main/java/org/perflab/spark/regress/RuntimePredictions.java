package org.perflab.spark.regress;

import static org.apache.spark.sql.functions.abs;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;

import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.perflab.spark.storage.TableStore;
import org.perflab.table.KeyColumns;

/**
 * The {@code runtime_predictions} table of {@code regress} (docs/tables.md#runtime_predictions): one row per run and
 * regressor, the run's duration predicted by the model fitted on all runs, the run itself included, so its errors
 * are in-sample. {@code evaluate} gives the held-out errors.
 */
public final class RuntimePredictions {
  public static final String NAME = "runtime_predictions";
  public static final String PREDICTOR = "predictor";
  public static final String ABS_ERROR_PCT = "abs_error_pct";

  public static final StructType SCHEMA = new StructType()
      .add("run_key", DataTypes.StringType, false)
      .add(KeyColumns.LOG_ID, DataTypes.StringType, true)
      .add("workload_id", DataTypes.StringType, false)
      .add("input_bytes", DataTypes.LongType, false)
      .add("executors", DataTypes.IntegerType, false)
      .add("cores_per_executor", DataTypes.IntegerType, false)
      .add("total_cores", DataTypes.IntegerType, false)
      .add("executor_memory_bytes", DataTypes.LongType, true)
      .add("actual_s", DataTypes.DoubleType, false)
      .add(PREDICTOR, DataTypes.StringType, false)
      .add(RuntimeRegression.PREDICTED_S, DataTypes.DoubleType, false)
      .add(RuntimeRegression.PREDICTED_LOW_S, DataTypes.DoubleType, false)
      .add(RuntimeRegression.PREDICTED_HIGH_S, DataTypes.DoubleType, false)
      .add(ABS_ERROR_PCT, DataTypes.DoubleType, false);

  private RuntimePredictions() {}

  /** Table rows of {@code predicted}, runs with {@link RuntimeRegression#predict}'s columns, by {@code kind}. */
  public static Dataset<Row> rows(Dataset<Row> predicted, RegressionKind kind) {
    Column actual = col("duration_s");
    Column error = abs(actual.minus(col(RuntimeRegression.PREDICTED_S))).divide(actual).multiply(100);
    return TableStore.conform(predicted
        .withColumn("actual_s", actual)
        .withColumn(PREDICTOR, lit(kind.label()))
        .withColumn(ABS_ERROR_PCT, error), SCHEMA);
  }
}
