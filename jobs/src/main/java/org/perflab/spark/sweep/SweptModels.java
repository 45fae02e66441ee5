package org.perflab.spark.sweep;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.row_number;

import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.expressions.Window;
import org.apache.spark.sql.expressions.WindowSpec;
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
    return lastOkAttempts(models, List.of(appId)).drop(APP_ID);
  }

  /**
   * The row of each of {@code appIds}' last attempt with status {@code OK} (the greatest attempt id; a null one
   * last), at most one per application: {@code app_id} and the columns of {@link #lastOkAttempt}.
   */
  static Dataset<Row> lastOkAttempts(Dataset<Row> models, Collection<String> appIds) {
    WindowSpec byApp = Window.partitionBy(col(APP_ID)).orderBy(col("app_attempt_id").desc());
    return models.where(col(APP_ID).isin(appIds.toArray()).and(col("status").equalTo("OK")))
        .withColumn("_latest", row_number().over(byApp)).where(col("_latest").equalTo(1))
        .select(col(APP_ID), col("model_json"), col("log_id"),
            TableStore.columnOrNull(models, "workload_id", DataTypes.StringType).as("workload_id"),
            TableStore.columnOrNull(models, "input_bytes", DataTypes.LongType).as("input_bytes"));
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
    return dagModel(dir, appId, rows.isEmpty() ? null : rows.get(0));
  }

  /**
   * The last OK attempts of {@code appIds} in the {@code dag_models} table under {@code dir}, read in one query (a
   * per-workload sweep reads the table once, not once per application); each model is parsed when asked for, so that
   * one that does not parse fails only its own sweep.
   */
  public static Models models(SparkSession spark, String dir, Collection<String> appIds) {
    return models(read(spark, dir), dir, appIds);
  }

  /** {@link #models(SparkSession, String, Collection)} of the table {@code models}, read from {@code dir}. */
  static Models models(Dataset<Row> models, String dir, Collection<String> appIds) {
    Map<String, Row> last = new HashMap<>();
    if (!appIds.isEmpty()) {
      lastOkAttempts(models, appIds).collectAsList().forEach(row -> last.put(row.getAs(APP_ID), row));
    }
    return new Models(dir, last);
  }

  /** The last OK attempts of some applications in one {@code dag_models} table, by app id: {@link #models}. */
  public static final class Models {
    private final String dir;
    private final Map<String, Row> lastOkAttempts;

    private Models(String dir, Map<String, Row> lastOkAttempts) {
      this.dir = dir;
      this.lastOkAttempts = lastOkAttempts;
    }

    /**
     * The model of {@code appId}, as {@link SweptModels#model(SparkSession, String, String)} reads it.
     *
     * @throws BadInputException when the table has no OK model of the application, or its model does not parse
     */
    public DagModel model(String appId) {
      return dagModel(dir, appId, lastOkAttempt(appId));
    }

    /** {@code appId}'s row of {@link SweptModels#lastOkAttempts}, or null. */
    Row lastOkAttempt(String appId) {
      return lastOkAttempts.get(appId);
    }
  }

  /** A row of {@link #lastOkAttempt} (null: none) as the application's model. */
  private static DagModel dagModel(String dir, String appId, Row row) {
    BadInputException.require(row != null, "Cannot sweep: %s has no model of application %s (status OK)", dir,
        appId);
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
