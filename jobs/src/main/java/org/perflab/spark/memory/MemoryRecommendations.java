package org.perflab.spark.memory;

import static org.apache.spark.sql.functions.col;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.perflab.table.KeyColumns;

/** The rows of {@code memory_recommendations}: one per application attempt, and one per workload when known. */
public final class MemoryRecommendations {
  /**
   * The version of the recommendations' rules, for {@code memory}'s watermark ({@code ChangedLogs}): an output root
   * sized by other rules is sized again in full. 2 (2026-12-05): no settings where nothing bounds the execution memory.
   */
  public static final int RULES_VERSION = 2;

  private MemoryRecommendations() {}

  /**
   * The recommendation rows and what the Tier B scan found.
   *
   * @param rows schema {@link MemoryTables#RECOMMENDATIONS}
   */
  public record Result(Dataset<Row> rows, TierB.Scan telemetry) {}

  /**
   * Application rows from the ingest tables, with the GC model's heap (Tier B) for the applications whose telemetry
   * lies beside their event log ({@code ingest_status.log_path}), and, with a {@code workloads} table, workload rows.
   *
   * @param workloads the features job's {@code workloads} table, when there is one
   */
  public static Result of(Dataset<Row> applications, Dataset<Row> stages, Dataset<Row> tasks,
      Dataset<Row> executors, Dataset<Row> ingestStatus, Optional<Dataset<Row>> workloads, MemoryParams params) {
    Dataset<Row> tierA = ApplicationMemory.of(applications, stages, tasks, executors, params).cache();
    TierB.Scan scan = TierB.scan(candidates(tierA, ingestStatus),
        applications.sparkSession().sparkContext().hadoopConfiguration());
    Map<String, TierB.Advice> advice = scan.advice();
    int logId = MemoryTables.RECOMMENDATIONS.fieldIndex(KeyColumns.LOG_ID);
    Dataset<Row> apps = advice.isEmpty() ? tierA : tierA.map((MapFunction<Row, Row>) row -> {
      TierB.Advice a = row.isNullAt(logId) ? null : advice.get(row.getString(logId));
      return a == null ? row : TierB.apply(row, a);
    }, Encoders.row(MemoryTables.RECOMMENDATIONS));
    Dataset<Row> rows = workloads.map(w -> apps.unionByName(WorkloadMemory.of(apps, w))).orElse(apps);
    return new Result(rows, scan);
  }

  /** The applications with a Tier A recommendation, where their event logs are, and their managed need. */
  private static List<TierB.Candidate> candidates(Dataset<Row> tierA, Dataset<Row> ingestStatus) {
    return tierA.where(col(MemoryTables.REASON).isNull())
        .join(ingestStatus.select(KeyColumns.LOG_ID, "log_path"), KeyColumns.LOG_ID)
        .select(col(KeyColumns.LOG_ID), col("log_path"),
            col(MemoryTables.STORAGE_BYTES).plus(col(MemoryTables.EXECUTION_BYTES)))
        .collectAsList().stream()
        .map(r -> new TierB.Candidate(r.getString(0), r.getString(1), r.isNullAt(2) ? 0L : r.getLong(2)))
        .toList();
  }
}
