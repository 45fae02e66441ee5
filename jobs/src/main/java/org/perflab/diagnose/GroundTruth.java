package org.perflab.diagnose;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.upper;
import static org.apache.spark.sql.functions.trim;

import java.util.Locale;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * Labelled injected stragglers for {@code diagnose --grid-search} (docs/stragglers.md#ground-truth): a CSV with a
 * header, or JSON lines when the path ends in {@code .json} or {@code .jsonl}, one row per injected task:
 *
 * <pre>
 * log_id,app_id,stage_id,task_index,injection,expected_cause
 * 3f9a1c0d2e4b5a61,,2,7,skewed_partition,DATA_SKEW
 * ,app-20261122011932-0001,1,3,sleep,
 * </pre>
 *
 * {@code log_id} or {@code app_id} (either may be empty; given both, both must match); {@code stage_id} and
 * {@code task_index} (the partition index, any attempt); {@code injection} a free label; {@code expected_cause} a
 * {@link org.perflab.stragglers.Cause} name, or empty when the injection cannot be attributed from event logs.
 */
public final class GroundTruth {
  /** The columns, in order. */
  public static final StructType SCHEMA = new StructType()
      .add("log_id", DataTypes.StringType, true)
      .add("app_id", DataTypes.StringType, true)
      .add("stage_id", DataTypes.IntegerType, false)
      .add("task_index", DataTypes.IntegerType, false)
      .add("injection", DataTypes.StringType, true)
      .add("expected_cause", DataTypes.StringType, true);

  private GroundTruth() {}

  /** The labelled tasks under {@code path}, {@code expected_cause} upper-cased and blank as null. */
  public static Dataset<Row> read(SparkSession spark, String path) {
    String lower = path.toLowerCase(Locale.ROOT);
    Dataset<Row> rows = lower.endsWith(".json") || lower.endsWith(".jsonl")
        ? spark.read().schema(SCHEMA).option("mode", "FAILFAST").json(path)
        : spark.read().schema(SCHEMA).option("header", "true").option("mode", "FAILFAST").csv(path);
    return rows.filter(col("stage_id").isNotNull().and(col("task_index").isNotNull()))
        .withColumn("expected_cause", upper(trim(col("expected_cause"))))
        .withColumn("expected_cause", org.apache.spark.sql.functions.when(col("expected_cause").notEqual(""),
            col("expected_cause")));
  }
}
