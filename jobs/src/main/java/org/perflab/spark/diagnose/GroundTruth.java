package org.perflab.spark.diagnose;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.trim;
import static org.apache.spark.sql.functions.upper;
import static org.apache.spark.sql.functions.when;

import java.util.Arrays;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.perflab.errors.BadInputException;

/**
 * Labelled injected stragglers, the one reader of {@code diagnose --grid-search} and {@link InjectionScore}
 * (docs/stragglers.md#ground-truth): a CSV with a header, or JSON lines when the path ends in {@code .json} or
 * {@code .jsonl}, one row per injected task. Columns are found by name, in any order; others (such as
 * {@code log_file}) are ignored:
 *
 * <pre>
 * log_id,app_id,stage_id,task_index,injection,expected_cause
 * 3f9a1c0d2e4b5a61,,2,7,skewed_partition,DATA_SKEW
 * ,app-20261122011932-0001,1,3,sleep,
 * </pre>
 *
 * {@code log_id} or {@code app_id} (at least one column, and on each row at least one value; given both, both must
 * match); {@code stage_id} and {@code task_index} (the partition index) required; {@code stage_attempt_id} optional
 * (absent or empty: any attempt); {@code injection} an optional free label; {@code expected_cause} required, a
 * {@link org.perflab.stragglers.Cause} name (case-insensitive), or empty or {@value #NO_CAUSE} when the injection
 * cannot be attributed from event logs.
 */
public final class GroundTruth {
  /** What {@link #read} returns, in this order: ids and labels nullable, stage and task index not. */
  public static final StructType SCHEMA = new StructType()
      .add("log_id", DataTypes.StringType, true)
      .add("app_id", DataTypes.StringType, true)
      .add("stage_id", DataTypes.IntegerType, false)
      .add("stage_attempt_id", DataTypes.IntegerType, true)
      .add("task_index", DataTypes.IntegerType, false)
      .add("injection", DataTypes.StringType, true)
      .add("expected_cause", DataTypes.StringType, true);
  /** The expected cause of an injection that leaves no trace but run time; read as a null {@code expected_cause}. */
  public static final String NO_CAUSE = "NONE";

  private static final Set<String> REQUIRED = Set.of("stage_id", "task_index", "expected_cause");
  private static final Set<String> APPLICATION = Set.of("log_id", "app_id");

  private GroundTruth() {}

  /**
   * The labelled tasks under {@code path} as {@link #SCHEMA}, {@code expected_cause} upper-cased, blank and
   * {@value #NO_CAUSE} as null.
   *
   * @throws BadInputException when a required column is missing
   */
  public static Dataset<Row> read(SparkSession spark, String path) {
    String lower = path.toLowerCase(Locale.ROOT);
    Dataset<Row> raw = lower.endsWith(".json") || lower.endsWith(".jsonl")
        ? spark.read().option("mode", "FAILFAST").json(path)
        : spark.read().option("header", "true").option("mode", "FAILFAST").csv(path);
    return normalise(raw, path);
  }

  /** {@code raw}'s columns by name, as {@link #SCHEMA}. */
  static Dataset<Row> normalise(Dataset<Row> raw, String path) {
    Set<String> present = new TreeSet<>(Arrays.asList(raw.columns()));
    Set<String> missing = new TreeSet<>(REQUIRED);
    missing.removeAll(present);
    BadInputException.require(missing.isEmpty(), "Cannot read ground truth %s: columns missing (%s; found %s)", path,
        missing, present);
    BadInputException.require(present.stream().anyMatch(APPLICATION::contains),
        "Cannot read ground truth %s: no log_id or app_id column (found %s)", path, present);
    Column[] columns = Arrays.stream(SCHEMA.fields())
        .map(f -> column(raw, present, f.name(), f.dataType()).as(f.name())).toArray(Column[]::new);
    Column cause = upper(trim(col("expected_cause")));
    return raw.select(columns)
        .filter(col("stage_id").isNotNull().and(col("task_index").isNotNull()))
        .filter(col("log_id").isNotNull().or(col("app_id").isNotNull()))
        .withColumn("expected_cause", when(cause.notEqual("").and(cause.notEqual(NO_CAUSE)), cause));
  }

  /**
   * The ground truth's {@code logId} and {@code appId} name the application of {@code rows} (which has
   * {@code log_id} and {@code app_id}): each matches where given, and at least one is given.
   */
  public static Column sameApplication(Dataset<Row> rows, Column logId, Column appId) {
    Column log = logId.isNull().or(logId.equalTo(rows.col("log_id")));
    Column app = appId.isNull().or(appId.equalTo(rows.col("app_id")));
    return log.and(app).and(logId.isNotNull().or(appId.isNotNull()));
  }

  /** A present column cast to {@code type}, blank strings as null; an absent one as a typed null. */
  private static Column column(Dataset<Row> raw, Set<String> present, String name, DataType type) {
    if (!present.contains(name)) {
      return lit(null).cast(type);
    }
    Column value = raw.col(name).cast(DataTypes.StringType);
    return when(trim(value).notEqual(""), trim(value)).cast(type);
  }
}
