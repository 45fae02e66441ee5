package org.perflab.spark.nightly;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.max;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.perflab.spark.storage.TableStore;

/**
 * The {@code nightly_runs} table under an output root: one row per step per night, appended by the nightly pipeline
 * when the step ends (docs/tables.md). The report's overview shows the latest night's steps; {@code bench/run nightly}
 * reads the steps' seconds from here.
 */
public final class NightlyRuns {
  public static final String TABLE = "nightly_runs";
  public static final StructType SCHEMA = new StructType()
      .add("run_id", DataTypes.StringType, false)
      .add("step", DataTypes.StringType, false)
      .add("started_at", DataTypes.TimestampType, false)
      .add("seconds", DataTypes.DoubleType, false)
      .add("exit_code", DataTypes.IntegerType, true)
      .add("rows_written", DataTypes.createMapType(DataTypes.StringType, DataTypes.LongType, false), false)
      .add("message", DataTypes.StringType, false)
      .add("skipped_reason", DataTypes.StringType, true);

  private NightlyRuns() {}

  /**
   * One step's row.
   *
   * @param exitCode null for a step that was skipped
   * @param skippedReason null for a step that ran
   */
  public static Row row(String runId, String step, Instant startedAt, double seconds, Integer exitCode,
      Map<String, Long> rowsWritten, String message, String skippedReason) {
    return RowFactory.create(runId, step, Timestamp.from(startedAt), seconds, exitCode, Map.copyOf(rowsWritten), message,
        skippedReason);
  }

  /** Appends {@code rows} to {@code <root>/nightly_runs} in one commit, creating the table on its first night. */
  public static void append(SparkSession spark, String root, List<Row> rows) {
    create(spark, root);
    new TableStore(spark, root).append(TABLE, spark.createDataFrame(rows, SCHEMA).coalesce(1));
  }

  /** Creates {@code <root>/nightly_runs}, empty, unless it exists. */
  public static void create(SparkSession spark, String root) {
    new TableStore(spark, root).create(TABLE, SCHEMA);
  }

  /** The rows of the latest night (the greatest run id; run ids sort by time), in the order its steps started. */
  public static Dataset<Row> latestNight(Dataset<Row> runs) {
    Dataset<Row> latest = runs.agg(max(col("run_id")).as("latest"));
    return runs.join(latest, col("run_id").equalTo(col("latest"))).drop("latest").orderBy(col("started_at"));
  }
}
