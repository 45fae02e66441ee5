package org.perflab.spark.memory;

import org.perflab.memory.MemoryManager;
import org.perflab.memory.SparkMemorySettings;
import org.perflab.memory.StaticMemorySettings;
import org.perflab.memory.WorkerMemory;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.perflab.memory.gc.Collector;
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
    long heap;
    long overhead;
    Double memoryFraction = null;
    Double storageFraction = null;
    Double storageMemoryFraction = null;
    Double shuffleMemoryFraction = null;
    if (manager == MemoryManager.STATIC) {
      StaticMemorySettings settings = StaticMemorySettings.of(w, safetyFactor);
      heap = settings.executorMemoryBytes();
      overhead = settings.memoryOverheadBytes();
      storageMemoryFraction = settings.storageMemoryFraction();
      shuffleMemoryFraction = settings.shuffleMemoryFraction();
    } else {
      SparkMemorySettings settings = SparkMemorySettings.of(w, safetyFactor);
      heap = settings.executorMemoryBytes();
      overhead = settings.memoryOverheadBytes();
      memoryFraction = settings.memoryFraction();
      storageFraction = settings.storageFraction();
    }
    return RowFactory.create(name(key.scope()), key.workloadId(), key.logId(), key.appId(), key.appAttemptId(),
        key.applications(), heap, memoryFraction, storageFraction, overhead, null, name(Collector.G1),
        name(HeapBasis.SAFETY_FACTOR), w.storageBytes(), w.executionBytes(), w.unrollBytes(), w.pageCacheBytes(),
        sizes.rddCacheBytes(), sizes.broadcastBytes(), sizes.largestPartitionBytes(), sizes.workers(),
        sizes.tasksPerWorker(), 0L, 0L, sizes.recomputeAt80Percent(), sizes.storageAtTwicePartitions(),
        name(Tier.EVENT_LOG), safetyFactor, evidence, null, name(manager), storageMemoryFraction,
        shuffleMemoryFraction);
  }

  /**
   * A row with the sizes the log supports and no settings (heap, fractions, overhead, collector, basis and safety
   * factor null), for an application whose execution memory is unknown, and the reason why.
   */
  static Row unsized(Key key, Sizes sizes, String evidence, MemoryManager manager, String reason) {
    WorkerMemory w = sizes.worker();
    return RowFactory.create(name(key.scope()), key.workloadId(), key.logId(), key.appId(), key.appAttemptId(),
        key.applications(), null, null, null, null, null, null, null, w.storageBytes(), w.executionBytes(),
        w.unrollBytes(), w.pageCacheBytes(), sizes.rddCacheBytes(), sizes.broadcastBytes(),
        sizes.largestPartitionBytes(), sizes.workers(), sizes.tasksPerWorker(), null, null,
        sizes.recomputeAt80Percent(), sizes.storageAtTwicePartitions(), name(Tier.EVENT_LOG), null, evidence, reason,
        name(manager), null, null);
  }

  /** A row with no recommendation and the reason why. */
  static Row unrecommended(Scope scope, String workloadId, String logId, String appId, String attempt,
      String reason) {
    return RowFactory.create(name(scope), workloadId, logId, appId, attempt, 1, null, null, null, null, null, null,
        null, null, null, null, null, null, null, null, null, null, null, null, null, null, name(Tier.EVENT_LOG), null,
        null, reason, null, null, null);
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
