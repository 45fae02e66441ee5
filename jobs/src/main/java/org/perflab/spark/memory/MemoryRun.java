package org.perflab.spark.memory;

import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.perflab.errors.BadInputException;
import org.perflab.memory.MemoryManager;
import org.perflab.spark.environment.EffectiveProperties;
import org.perflab.spark.features.FeatureTables;
import org.perflab.spark.storage.ChangedLogs;
import org.perflab.spark.storage.TableStore;
import org.perflab.table.KeyColumns;
import org.perflab.table.Table;

/**
 * The rows of one {@code memory} run over the ingest tables: only the applications of the logs ingested since the last
 * run ({@link ChangedLogs}, watermark {@code memory}) are recommended again; the other application rows are kept from
 * {@code memory_recommendations}, and the workload rows are derived again from all of them. The first run, a run
 * after the table went missing, and {@code full} recommend every application.
 */
public final class MemoryRun {
  /** The job's name: its messages and its watermark. */
  public static final String JOB = "memory";
  /** How the job's messages name what it does: "Cannot recommend memory: ...". */
  static final String ACTION = "recommend memory";

  /**
   * What to write.
   *
   * @param plan which logs were recommended again; nothing is to be written when it is up to date
   * @param rows every row of {@code memory_recommendations} after the run (the table's rows when up to date)
   * @param telemetry what the Tier B scan of the recommended applications found
   */
  public record Result(ChangedLogs.Plan plan, Dataset<Row> rows, TierB.Scan telemetry) {}

  private MemoryRun() {}

  /** The rows of {@code out}'s {@code memory_recommendations} after a run over {@code in}'s changed logs. */
  public static Result recommend(TableStore in, TableStore out, MemoryParams params, boolean full) {
    ChangedLogs changed = new ChangedLogs(in, out, JOB, MemoryRecommendations.RULES_VERSION);
    ChangedLogs.Plan plan = changed.plan(full, List.of(MemoryTables.RECOMMENDATIONS_TABLE));
    if (plan.mode() == ChangedLogs.Mode.UP_TO_DATE) {
      return new Result(plan, out.read(MemoryTables.RECOMMENDATIONS_TABLE).orElseThrow(),
          new TierB.Scan(Map.of(), 0, 0, Map.of()));
    }
    Optional<Dataset<Row>> workloads = in.read(FeatureTables.WORKLOADS_TABLE);
    MemoryRecommendations.Result fresh = MemoryRecommendations.of(withLegacyMode(in, read(in, Table.APPLICATIONS, plan)),
        read(in, Table.STAGES, plan), read(in, Table.TASKS, plan), read(in, Table.EXECUTORS, plan),
        read(in, Table.INGEST_STATUS, plan), plan.incremental() ? Optional.empty() : workloads, params);
    if (!plan.incremental()) {
      return new Result(plan, fresh.rows(), fresh.telemetry());
    }
    Dataset<Row> kept = conform(out.read(MemoryTables.RECOMMENDATIONS_TABLE).orElseThrow()
        .where(col(MemoryTables.SCOPE).equalTo("application")
            .and(col(KeyColumns.LOG_ID).isin(plan.logIds().toArray()).unary_$bang())));
    Dataset<Row> apps = fresh.rows().unionByName(kept);
    Dataset<Row> rows = workloads.map(w -> apps.unionByName(WorkloadMemory.of(apps, w))).orElse(apps);
    return new Result(plan, rows, fresh.telemetry());
  }

  /** Writes the rows as the plan says (nothing when up to date), then records the watermark. */
  public static void write(TableStore in, TableStore out, Result result) {
    if (result.plan().mode() != ChangedLogs.Mode.UP_TO_DATE) {
      out.overwrite(MemoryTables.RECOMMENDATIONS_TABLE, result.rows().coalesce(1));
    }
    new ChangedLogs(in, out, JOB, MemoryRecommendations.RULES_VERSION).commit(result.plan());
  }

  /**
   * {@code applications} with {@link MemoryTables#LEGACY_MODE}: whether the log set {@code spark.memory.useLegacyMode}
   * to true (Spark 1.6 to 2.4 then keep the static memory manager), from its SPARK properties; false without them.
   */
  static Dataset<Row> withLegacyMode(TableStore in, Dataset<Row> applications) {
    Optional<Dataset<Row>> properties = EffectiveProperties.spark(in);
    if (properties.isEmpty()) {
      return applications.withColumn(MemoryTables.LEGACY_MODE, lit(false));
    }
    Dataset<Row> legacy = properties.get().where(col("key").equalTo(MemoryManager.LEGACY_MODE_KEY))
        .groupBy(KeyColumns.LOG_ID)
        .agg(max(EffectiveProperties.isTrue(col("value"))).as(MemoryTables.LEGACY_MODE));
    return applications.join(legacy, new String[] {KeyColumns.LOG_ID}, "left")
        .withColumn(MemoryTables.LEGACY_MODE, coalesce(col(MemoryTables.LEGACY_MODE), lit(false)));
  }

  /** Rows of the table as written by earlier code, with today's columns: those it lacks are null. */
  private static Dataset<Row> conform(Dataset<Row> rows) {
    Column[] columns = Arrays.stream(MemoryTables.RECOMMENDATIONS.fields())
        .map(f -> TableStore.columnOrNull(rows, f.name(), f.dataType()).as(f.name())).toArray(Column[]::new);
    return rows.select(columns);
  }

  private static Dataset<Row> read(TableStore store, Table table, ChangedLogs.Plan plan) {
    return plan.restrict(store.read(table).orElseThrow(() -> new BadInputException(String.format(
        "Cannot %s: no %s table under %s (run perflab ingest --output %s first)", ACTION, table.tableName(),
        store.root(), store.root()))));
  }
}
