package org.perflab.spark.memory;

import org.perflab.memory.MemoryManager;
import org.perflab.memory.WorkerMemory;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.when;

import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.perflab.spark.memory.MemoryTables.Scope;
import org.perflab.table.KeyColumns;

/**
 * Workload rows: the safe combination over a recurring workload's applications. Each per-worker minimum (storage,
 * unroll, execution, page cache) is the largest any application needed, and the Spark settings are derived again from
 * those maxima, so the workload's heap covers every run of it.
 */
public final class WorkloadMemory {
  static final String NONE_RECOMMENDED = "no application of the workload has a recommendation";
  private static final String[] MAXIMA = {MemoryTables.STORAGE_BYTES, MemoryTables.UNROLL_BYTES,
      MemoryTables.EXECUTION_BYTES, MemoryTables.PAGE_CACHE_BYTES, "rdd_cache_bytes", "broadcast_bytes",
      "largest_partition_bytes", "workers", "tasks_per_worker", "recompute_bytes_at_80pct",
      "storage_bytes_at_2x_partitions", "safety_factor"};

  private WorkloadMemory() {}

  /**
   * One row (scope workload) per workload id of {@code workloads} (the features job's table, keyed by log id) that has
   * an application row in {@code applicationRows}.
   */
  public static Dataset<Row> of(Dataset<Row> applicationRows, Dataset<Row> workloads) {
    Dataset<Row> keyed = applicationRows.drop(MemoryTables.WORKLOAD_ID)
        .join(workloads.select(KeyColumns.LOG_ID, MemoryTables.WORKLOAD_ID).distinct(), KeyColumns.LOG_ID);
    Column[] aggregates = new Column[MAXIMA.length + 1];
    aggregates[0] = sum(when(col(MemoryTables.REASON).isNull(), 1).otherwise(0)).as("recommended");
    for (int i = 0; i < MAXIMA.length; i++) {
      // over the recommended rows only: an application whose execution memory is unknown keeps its sizes
      aggregates[i + 1] = max(when(col(MemoryTables.REASON).isNull(), col(MAXIMA[i]))).as(MAXIMA[i]);
    }
    Column[] all = java.util.Arrays.copyOf(aggregates, aggregates.length + 1);
    // "unified" sorts after "static": a workload any of whose recommended runs had the unified manager (an upgrade)
    // is sized for it; rows written before the column (null) do not count.
    all[aggregates.length] = max(when(col(MemoryTables.REASON).isNull(), col(MemoryTables.MEMORY_MANAGER)))
        .as(MemoryTables.MEMORY_MANAGER);
    return keyed.groupBy(MemoryTables.WORKLOAD_ID).agg(count("*").as("applications"), all)
        .map((MapFunction<Row, Row>) WorkloadMemory::row, Encoders.row(MemoryTables.RECOMMENDATIONS));
  }

  private static Row row(Row w) {
    String id = w.getAs(MemoryTables.WORKLOAD_ID);
    int applications = (int) w.<Long>getAs("applications").longValue();
    long recommended = w.<Long>getAs("recommended");
    if (recommended == 0) {
      return MemoryRows.unrecommended(Scope.WORKLOAD, id, null, null, null, NONE_RECOMMENDED);
    }
    WorkerMemory worker = new WorkerMemory(w.getAs(MemoryTables.STORAGE_BYTES), w.getAs(MemoryTables.UNROLL_BYTES),
        w.getAs(MemoryTables.EXECUTION_BYTES), w.getAs(MemoryTables.PAGE_CACHE_BYTES));
    MemoryRows.Sizes sizes = new MemoryRows.Sizes(worker, w.getAs("rdd_cache_bytes"), w.getAs("broadcast_bytes"),
        w.getAs("largest_partition_bytes"), w.getAs("workers"), w.getAs("tasks_per_worker"),
        w.getAs("recompute_bytes_at_80pct"), w.getAs("storage_bytes_at_2x_partitions"));
    String evidence = String.format("maximum of each per-worker minimum over %d of the workload's %d applications"
        + " (sizes from different runs: workers and task slots are the largest seen)", recommended, applications);
    MemoryManager manager = MemoryRows.name(MemoryManager.STATIC).equals(w.getAs(MemoryTables.MEMORY_MANAGER))
        ? MemoryManager.STATIC : MemoryManager.UNIFIED;
    return MemoryRows.recommended(new MemoryRows.Key(Scope.WORKLOAD, id, null, null, null, applications), sizes,
        w.getAs("safety_factor"), evidence, manager);
  }
}
