package org.perflab.spark.prediction;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.concat_ws;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.udf;
import static org.apache.spark.sql.functions.when;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.expressions.UserDefinedFunction;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.perflab.errors.BadInputException;
import org.perflab.grouping.SizeClass;
import org.perflab.table.KeyColumns;

/**
 * The runs that runtime prediction learns from and is judged on: one row per completed application, with its
 * workload, input size and configuration, from the {@code workloads} table, or one row per line of a user's runtime
 * table ({@code --runs FILE.csv}). Both give {@link #SCHEMA}; rows that cannot be used are counted by reason, never
 * dropped silently.
 */
public final class RunTable {
  /** A run's columns, in this order. {@code run_key} is {@code log_id/app_id/attempt} or {@code csv:<row number>}. */
  public static final StructType SCHEMA = new StructType()
      .add("run_key", DataTypes.StringType, false)
      .add(KeyColumns.LOG_ID, DataTypes.StringType, true)
      .add("workload_id", DataTypes.StringType, false)
      .add("input_bytes", DataTypes.LongType, false)
      .add("size_class", DataTypes.IntegerType, false)
      .add("executors", DataTypes.IntegerType, false)
      .add("cores_per_executor", DataTypes.IntegerType, false)
      .add("total_cores", DataTypes.IntegerType, false)
      .add("executor_memory_bytes", DataTypes.LongType, true)
      .add("duration_s", DataTypes.DoubleType, false);

  /** The columns a runtime table must have (header names, any order); {@code executor_memory_bytes} may be empty. */
  public static final List<String> CSV_COLUMNS = List.of("workload_id", "input_bytes", "executors",
      "cores_per_executor", "executor_memory_bytes", "duration_s");

  /** Why a row was not used, as counted in {@link Runs#skipped()}. */
  public enum SkipReason {
    NOT_COMPLETED("the application has no end event"),
    NO_DURATION("no duration"),
    NO_CONFIGURATION("executors or cores per executor unknown"),
    BAD_VALUE("a value is missing, not a number, or out of range (workload set, input_bytes >= 0, "
        + "executors >= 1, cores_per_executor >= 1, executor_memory_bytes > 0 or empty, duration_s > 0)");

    private final String text;

    SkipReason(String text) {
      this.text = text;
    }

    /** The reason as the summary prints it. */
    public String text() {
      return text;
    }
  }

  /** The usable runs, and how many rows were skipped for each reason. */
  public record Runs(Dataset<Row> rows, Map<SkipReason, Long> skipped) {
    /** Rows skipped in all. */
    public long skippedTotal() {
      return skipped.values().stream().mapToLong(Long::longValue).sum();
    }
  }

  private RunTable() {}

  /**
   * The completed applications of a {@code workloads} table (docs/tables.md#workloads) as runs: duration from
   * {@code duration_ms}, configuration as that table resolves it (executors alive at once where
   * {@code spark.executor.instances} is unset).
   */
  public static Runs fromWorkloads(Dataset<Row> workloads) {
    Column completed = col("completed").equalTo(true);
    Column hasDuration = col("duration_ms").isNotNull().and(col("duration_ms").gt(0));
    Column hasConfig = col("executors").isNotNull().and(col("executors").geq(1))
        .and(col("cores_per_executor").isNotNull()).and(col("cores_per_executor").geq(1));
    Column reason = when(completed.equalTo(false).or(col("completed").isNull()), lit(SkipReason.NOT_COMPLETED.name()))
        .when(hasDuration.equalTo(false), lit(SkipReason.NO_DURATION.name()))
        .when(hasConfig.equalTo(false), lit(SkipReason.NO_CONFIGURATION.name()));
    Dataset<Row> marked = workloads.withColumn("_skip", reason).cache();
    Map<SkipReason, Long> skipped = countSkipped(marked);
    Dataset<Row> rows = marked.where(col("_skip").isNull()).select(
        runKey().as("run_key"),
        col(KeyColumns.LOG_ID),
        col("workload_id"),
        col("input_bytes").cast(DataTypes.LongType).as("input_bytes"),
        col("size_class").cast(DataTypes.IntegerType).as("size_class"),
        col("executors"),
        col("cores_per_executor"),
        col("executors").multiply(col("cores_per_executor")).cast(DataTypes.IntegerType).as("total_cores"),
        col("executor_memory_bytes"),
        col("duration_ms").divide(1000.0).as("duration_s"));
    return new Runs(conform(rows), skipped);
  }

  /**
   * A user's runtime table: a CSV file with a header naming {@link #CSV_COLUMNS} (other columns are ignored). Every
   * line that does not give a usable run is counted under {@link SkipReason#BAD_VALUE}.
   *
   * @throws BadInputException when the file cannot be read or a required column is missing
   */
  public static Runs fromCsv(SparkSession spark, String path) {
    Dataset<Row> raw;
    try {
      raw = spark.read().option("header", "true").option("mode", "PERMISSIVE").csv(path);
    } catch (RuntimeException e) {
      throw new BadInputException("Cannot read runs: " + e.getMessage() + " (" + path + ")", e);
    }
    Set<String> present = Set.of(raw.columns());
    List<String> missing = CSV_COLUMNS.stream().filter(c -> !present.contains(c)).toList();
    BadInputException.require(missing.isEmpty(),
        "Cannot read runs: %s lacks the columns %s (a header with %s)", path, missing, CSV_COLUMNS);
    Dataset<Row> typed = raw.select(
        col("workload_id").cast(DataTypes.StringType).as("workload_id"),
        col("input_bytes").try_cast(DataTypes.DoubleType).cast(DataTypes.LongType).as("input_bytes"),
        col("executors").try_cast(DataTypes.IntegerType).as("executors"),
        col("cores_per_executor").try_cast(DataTypes.IntegerType).as("cores_per_executor"),
        col("executor_memory_bytes").try_cast(DataTypes.DoubleType).cast(DataTypes.LongType)
            .as("executor_memory_bytes"),
        col("executor_memory_bytes").isNull().or(org.apache.spark.sql.functions.trim(
            col("executor_memory_bytes")).equalTo("")).as("_memory_empty"),
        col("duration_s").try_cast(DataTypes.DoubleType).as("duration_s"))
        .withColumn("_line", org.apache.spark.sql.functions.monotonically_increasing_id());
    Column good = col("workload_id").isNotNull().and(org.apache.spark.sql.functions.trim(col("workload_id"))
            .notEqual(""))
        .and(col("input_bytes").isNotNull()).and(col("input_bytes").geq(0))
        .and(col("executors").isNotNull()).and(col("executors").geq(1))
        .and(col("cores_per_executor").isNotNull()).and(col("cores_per_executor").geq(1))
        .and(col("_memory_empty").or(col("executor_memory_bytes").isNotNull()
            .and(col("executor_memory_bytes").gt(0))))
        .and(col("duration_s").isNotNull()).and(col("duration_s").gt(0))
        .and(col("duration_s").notEqual(Double.POSITIVE_INFINITY)).and(col("duration_s").equalTo(col("duration_s")));
    Dataset<Row> marked = typed.withColumn("_skip", when(good, lit(null).cast(DataTypes.StringType))
        .otherwise(lit(SkipReason.BAD_VALUE.name()))).cache();
    Map<SkipReason, Long> skipped = countSkipped(marked);
    Dataset<Row> rows = marked.where(col("_skip").isNull()).select(
        concat_ws(":", lit("csv"), col("_line").cast(DataTypes.StringType)).as("run_key"),
        lit(null).cast(DataTypes.StringType).as(KeyColumns.LOG_ID),
        org.apache.spark.sql.functions.trim(col("workload_id")).as("workload_id"),
        col("input_bytes"),
        SIZE_CLASS.apply(col("input_bytes")).as("size_class"),
        col("executors"),
        col("cores_per_executor"),
        col("executors").multiply(col("cores_per_executor")).as("total_cores"),
        col("executor_memory_bytes"),
        col("duration_s"));
    return new Runs(conform(rows), skipped);
  }

  /**
   * The {@code run_key} of an application attempt, {@code log_id/app_id/app_attempt_id} (an empty attempt when null),
   * from the key columns of a table of the {@code features} job ({@code workloads}, {@code app_features}).
   */
  public static Column runKey() {
    return concat_ws("/", col(KeyColumns.LOG_ID), col(KeyColumns.APP_ID),
        functionsCoalesce(col(KeyColumns.APP_ATTEMPT_ID)));
  }

  /** One line per skip reason with a count, for a job's summary; empty when nothing was skipped. */
  public static List<String> describeSkipped(Map<SkipReason, Long> skipped) {
    List<String> lines = new ArrayList<>();
    skipped.forEach((reason, n) -> lines.add(String.format(Locale.ROOT, "%d rows skipped: %s", n, reason.text())));
    return lines;
  }

  private static final UserDefinedFunction SIZE_CLASS =
      udf((UDF1<Long, Integer>) bytes -> SizeClass.of(bytes == null ? 0 : bytes), DataTypes.IntegerType);

  private static Column functionsCoalesce(Column c) {
    return org.apache.spark.sql.functions.coalesce(c, lit(""));
  }

  private static Map<SkipReason, Long> countSkipped(Dataset<Row> marked) {
    Map<SkipReason, Long> skipped = new LinkedHashMap<>();
    for (Row r : marked.where(col("_skip").isNotNull()).groupBy("_skip").count().collectAsList()) {
      skipped.put(SkipReason.valueOf(r.getString(0)), r.getLong(1));
    }
    return skipped;
  }

  private static Dataset<Row> conform(Dataset<Row> rows) {
    return org.perflab.spark.storage.TableStore.conform(rows, SCHEMA);
  }
}
