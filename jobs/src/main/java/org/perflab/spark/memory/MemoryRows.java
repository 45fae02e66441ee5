package org.perflab.spark.memory;

import org.perflab.memory.MemoryManager;
import org.perflab.memory.SparkMemorySettings;
import org.perflab.memory.StaticMemorySettings;
import org.perflab.memory.WorkerMemory;
import java.util.List;
import org.apache.spark.sql.Row;
import org.perflab.memory.gc.Collector;
import org.perflab.spark.storage.SchemaRow;
import org.perflab.spark.memory.MemoryTables.HeapBasis;
import org.perflab.spark.memory.MemoryTables.Scope;
import org.perflab.spark.memory.MemoryTables.Tier;

/** Builds rows of {@link MemoryTables#RECOMMENDATIONS}, with or without a recommendation. */
final class MemoryRows {
  private MemoryRows() {}

  /**
   * What a row is about.
   *
   * @param applications the applications it covers (1 for an application row)
   */
  record Key(Scope scope, String workloadId, String logId, String appId, String appAttemptId, int applications) {}

  /**
   * The sizes of a recommendation, bytes unless named otherwise.
   *
   * @param worker the per-worker minimums
   * @param rddCacheBytes S_rdd over the whole cluster
   * @param broadcastBytes S_bc
   * @param largestPartitionBytes P_max
   * @param workers W
   * @param tasksPerWorker K
   * @param recomputeAt80Percent the miss curve's bytes at 80 % of S_rdd
   * @param storageAtTwicePartitions per-worker storage with twice the partitions
   */
  record Sizes(WorkerMemory worker, long rddCacheBytes, long broadcastBytes, long largestPartitionBytes, int workers,
      int tasksPerWorker, long recomputeAt80Percent, long storageAtTwicePartitions) {}

  /**
   * A row with Tier A settings for {@code sizes} under {@code manager}, the heap being safetyFactor × the managed need:
   * {@code spark.memory.fraction} and {@code storageFraction} for the unified manager ({@link SparkMemorySettings}),
   * {@code spark.storage.memoryFraction} and {@code spark.shuffle.memoryFraction} for the static one
   * ({@link StaticMemorySettings}), the other pair null.
   */
  static Row recommended(Key key, Sizes sizes, double safetyFactor, String evidence, MemoryManager manager) {
    WorkerMemory w = sizes.worker();
    SchemaRow row = sized(key, sizes, evidence, manager)
        .set("collector", name(Collector.G1))
        .set("heap_basis", name(HeapBasis.SAFETY_FACTOR))
        .set("predicted_spill_bytes", 0L)
        .set("predicted_recompute_bytes", 0L)
        .set("safety_factor", safetyFactor);
    if (manager == MemoryManager.STATIC) {
      StaticMemorySettings settings = StaticMemorySettings.of(w, safetyFactor);
      row.set(MemoryTables.EXECUTOR_MEMORY_BYTES, settings.executorMemoryBytes())
          .set("memory_overhead_bytes", settings.memoryOverheadBytes())
          .set("storage_memory_fraction", settings.storageMemoryFraction())
          .set("shuffle_memory_fraction", settings.shuffleMemoryFraction());
    } else {
      SparkMemorySettings settings = SparkMemorySettings.of(w, safetyFactor);
      row.set(MemoryTables.EXECUTOR_MEMORY_BYTES, settings.executorMemoryBytes())
          .set("memory_overhead_bytes", settings.memoryOverheadBytes())
          .set("memory_fraction", settings.memoryFraction())
          .set("storage_fraction", settings.storageFraction());
    }
    return row.row();
  }

  /**
   * A row with the sizes the log supports and no settings (heap, fractions, overhead, collector, basis and safety
   * factor null), for an application whose execution memory is unknown, and the reason why.
   */
  static Row unsized(Key key, Sizes sizes, String evidence, MemoryManager manager, String reason) {
    return sized(key, sizes, evidence, manager).set(MemoryTables.REASON, reason).row();
  }

  /** A row with no recommendation and the reason why. */
  static Row unrecommended(Scope scope, String workloadId, String logId, String appId, String attempt,
      String reason) {
    return keyed(new Key(scope, workloadId, logId, appId, attempt, 1)).set(MemoryTables.REASON, reason).row();
  }

  /** The key's columns and the event-log tier; every other column null. */
  private static SchemaRow keyed(Key key) {
    return SchemaRow.of(MemoryTables.RECOMMENDATIONS)
        .set(MemoryTables.SCOPE, name(key.scope()))
        .set(MemoryTables.WORKLOAD_ID, key.workloadId())
        .set("log_id", key.logId())
        .set("app_id", key.appId())
        .set("app_attempt_id", key.appAttemptId())
        .set("applications", key.applications())
        .set("tier", name(Tier.EVENT_LOG));
  }

  /** {@link #keyed} with the sizes, the evidence and the memory manager; no settings. */
  private static SchemaRow sized(Key key, Sizes sizes, String evidence, MemoryManager manager) {
    WorkerMemory w = sizes.worker();
    return keyed(key)
        .set(MemoryTables.STORAGE_BYTES, w.storageBytes())
        .set(MemoryTables.EXECUTION_BYTES, w.executionBytes())
        .set(MemoryTables.UNROLL_BYTES, w.unrollBytes())
        .set(MemoryTables.PAGE_CACHE_BYTES, w.pageCacheBytes())
        .set("rdd_cache_bytes", sizes.rddCacheBytes())
        .set("broadcast_bytes", sizes.broadcastBytes())
        .set("largest_partition_bytes", sizes.largestPartitionBytes())
        .set("workers", sizes.workers())
        .set("tasks_per_worker", sizes.tasksPerWorker())
        .set("recompute_bytes_at_80pct", sizes.recomputeAt80Percent())
        .set("storage_bytes_at_2x_partitions", sizes.storageAtTwicePartitions())
        .set("evidence", evidence)
        .set(MemoryTables.MEMORY_MANAGER, name(manager));
  }

  /** An enum constant as the table spells it: lower case. */
  static String name(Enum<?> value) {
    return value.name().toLowerCase(java.util.Locale.ROOT);
  }

  /** A list column's value (an empty list when null). */
  static <T> List<T> listOf(Row row, String field) {
    int i = row.fieldIndex(field);
    return row.isNullAt(i) ? List.of() : row.getList(i);
  }
}
