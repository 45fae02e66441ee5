package org.perflab.spark.report;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.expr;
import static org.apache.spark.sql.functions.lit;

import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The {@code workload_history} table: one row per night (ingest run) and workload, appended by every report so that
 * the overview can draw the trend of cost and runtime over earlier nights without Delta time travel (which
 * {@code VACUUM} cuts short). A night is the latest ingest run ({@code ingest_status.run_id}); its rows describe the
 * applications whose logs that run ingested. Writing the same run again replaces its rows, so a rerun of the report
 * (or of the nightly) never counts a night twice.
 */
public final class WorkloadHistory {
  public static final String TABLE = "workload_history";

  /** The columns, units in docs/tables.md. */
  public static final StructType SCHEMA = new StructType()
      .add("run_id", DataTypes.StringType, false)
      .add("night", DataTypes.DateType, false)
      .add("recorded_at_ms", DataTypes.LongType, false)
      .add("workload_id", DataTypes.StringType, false)
      .add("applications", DataTypes.LongType, false)
      .add("median_wall_time_s", DataTypes.DoubleType, true)
      .add("p90_wall_time_s", DataTypes.DoubleType, true)
      .add("core_hours", DataTypes.DoubleType, true)
      .add("gb_hours", DataTypes.DoubleType, true);

  private static final DateTimeFormatter RUN_DAY = DateTimeFormatter.ofPattern("yyyyMMdd");

  private WorkloadHistory() {}

  /** The night a report describes: the latest ingest run, or the clock's day when there is no ingest_status. */
  public record Night(String runId, LocalDate date) {}

  /** The night of the tables under the input root. */
  public static Night night(Inputs in, Clock clock) {
    LocalDate today = LocalDate.now(clock.withZone(ZoneOffset.UTC));
    Optional<String> run = in.read("ingest_status")
        .map(status -> status.agg(expr("max(run_id)")).first())
        .filter(row -> !row.isNullAt(0)).map(row -> row.getString(0));
    return run.map(id -> new Night(id, day(id).orElse(today))).orElse(new Night("report-" + today, today));
  }

  private static Optional<LocalDate> day(String runId) {
    try {
      return Optional.of(LocalDate.parse(runId.substring(0, Math.min(8, runId.length())), RUN_DAY));
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }

  /**
   * The night's rows: per workload, the applications of {@code features} whose log {@code status} lists with the
   * night's run (all of them when {@code status} is empty). Dataset to Dataset; no I/O.
   */
  public static Dataset<Row> rows(Dataset<Row> features, Optional<Dataset<Row>> status, Night night,
      long recordedAtMs) {
    Dataset<Row> apps = status.map(s -> features.join(
            s.where(col("run_id").equalTo(night.runId())).select("log_id").distinct(), "log_id"))
        .orElse(features);
    return apps.groupBy("workload_id").agg(
            expr("count(*)").as("applications"),
            expr("percentile(wall_time_s, 0.5)").as("median_wall_time_s"),
            expr("percentile(wall_time_s, 0.9)").as("p90_wall_time_s"),
            expr("sum(coalesce(executor_core_s_available, executor_core_s_busy)) / 3600").as("core_hours"),
            expr("sum(executors * executor_memory_bytes / 1e9 * wall_time_s) / 3600").as("gb_hours"))
        .select(lit(night.runId()).as("run_id"), lit(java.sql.Date.valueOf(night.date())).as("night"),
            lit(recordedAtMs).as("recorded_at_ms"), col("workload_id"), col("applications"),
            col("median_wall_time_s"), col("p90_wall_time_s"), col("core_hours"), col("gb_hours"));
  }

  /**
   * Writes the night's rows to {@code workload_history} under the output root, replacing the rows of the same run in
   * one commit. Returns the rows written; nothing is written without {@code app_features}.
   */
  public static long record(Inputs in, Night night, Clock clock) {
    Optional<Dataset<Row>> features = in.read("app_features");
    if (features.isEmpty()) {
      return 0;
    }
    if (!night.runId().matches("[0-9A-Za-z_.:-]+")) {
      throw new IllegalArgumentException("Cannot record workload_history: the run id is not a plain token ("
          + night.runId() + ")");
    }
    Dataset<Row> rows = rows(features.get(), in.read("ingest_status"), night, clock.millis()).cache();
    try {
      long count = rows.count();
      if (in.output().exists(TABLE)) {
        in.output().replaceWhere(TABLE, rows, "run_id = '" + night.runId() + "'");
      } else {
        in.output().ensure(TABLE, SCHEMA);
        in.output().append(TABLE, rows);
      }
      return count;
    } finally {
      rows.unpersist();
    }
  }
}
