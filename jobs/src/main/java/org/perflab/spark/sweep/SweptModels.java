package org.perflab.spark.sweep;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max;

import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.perflab.errors.BadInputException;
import org.perflab.sim.Model;
import org.perflab.sim.ModelReader;
import org.perflab.spark.storage.TableStore;

/**
 * What a sweep reads from the {@code dag_models} table that {@code perflab model} writes: an application's model (its
 * last attempt with status {@code OK}), the log and workload it came from, its input size, and the application to
 * sweep per workload. {@link #lastOkAttempt} and {@link #latestPerWorkload(Dataset)} are transforms with no I/O; the
 * methods that take a directory read the table and collect the answer.
 */
public final class SweptModels {
  private static final String APP_ID = "app_id";

  private SweptModels() {}

  /**
   * One application's model in {@code dag_models}.
   *
   * @param model the parsed model
   * @param swept the log and workload it was built from
   * @param inputBytes the run's input size in bytes; 0 when unknown (a table written before {@code input_bytes})
   */
  public record DagModel(Model model, SweepTables.Swept swept, long inputBytes) {}

  /**
   * The row of {@code appId}'s last attempt with status {@code OK}, at most one: {@code model_json}, {@code log_id},
   * {@code workload_id} and {@code input_bytes} (each of the last two null in a table written before it existed).
   */
  public static Dataset<Row> lastOkAttempt(Dataset<Row> models, String appId) {
    return models.where(col(APP_ID).equalTo(appId).and(col("status").equalTo("OK")))
        .orderBy(col("app_attempt_id").desc())
        .select(col("model_json"), col("log_id"),
            TableStore.columnOrNull(models, "workload_id", DataTypes.StringType).as("workload_id"),
            TableStore.columnOrNull(models, "input_bytes", DataTypes.LongType).as("input_bytes"))
        .limit(1);
  }

  /**
   * The application to sweep for each workload and size class ({@code app_id}, one row each, in app id order): the
   * greatest app id among its OK models (Spark's app ids grow with their start time). No rows for a table written
   * before {@code workload_id} existed.
   */
  public static Dataset<Row> latestPerWorkload(Dataset<Row> models) {
    if (!Arrays.asList(models.columns()).contains("workload_id")) {
      return models.select(col(APP_ID)).where(lit(false));
    }
    return models.where(col("status").equalTo("OK").and(col("workload_id").isNotNull()))
        .groupBy("workload_id", "size_class").agg(max(APP_ID).as(APP_ID))
        .select(APP_ID).distinct().orderBy(APP_ID);
  }

  /** {@link #latestPerWorkload(Dataset)} of the {@code dag_models} table under {@code dir}, collected. */
  public static List<String> latestPerWorkload(SparkSession spark, String dir) {
    return latestPerWorkload(read(spark, dir)).collectAsList().stream().map(r -> r.getString(0)).toList();
  }

  /**
   * The model of {@code appId} in the {@code dag_models} table under {@code dir}.
   *
   * @throws BadInputException when the table has no OK model of the application, or its model does not parse
   */
  public static DagModel model(SparkSession spark, String dir, String appId) {
    List<Row> rows = lastOkAttempt(read(spark, dir), appId).collectAsList();
    BadInputException.require(!rows.isEmpty(), "Cannot sweep: %s has no model of application %s (status OK)", dir,
        appId);
    Row row = rows.get(0);
    Long inputBytes = row.getAs("input_bytes");
    return new DagModel(ModelReader.parse(row.getAs("model_json"), dir + " (" + appId + ")"), swept(row),
        inputBytes == null ? 0L : inputBytes);
  }

  /**
   * The log and workload of {@code appId}'s model in the {@code dag_models} table under {@code dir};
   * {@link SweepTables.Swept#MODEL_FILE} when the table has no OK model of it.
   */
  public static SweepTables.Swept swept(SparkSession spark, String dir, String appId) {
    List<Row> rows = lastOkAttempt(read(spark, dir), appId).select("log_id", "workload_id").collectAsList();
    return rows.isEmpty() ? SweepTables.Swept.MODEL_FILE : swept(rows.get(0));
  }

  /** The log and workload of a row of {@link #lastOkAttempt}. */
  private static SweepTables.Swept swept(Row lastOkAttempt) {
    return new SweepTables.Swept(lastOkAttempt.getAs("log_id"), lastOkAttempt.getAs("workload_id"));
  }

  private static Dataset<Row> read(SparkSession spark, String dir) {
    return spark.read().format("delta").load(dir);
  }
}
