package org.perflab.spark.memory;

import java.util.List;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/** The tables {@code memory} writes (documented column by column in docs/tables.md). */
public final class MemoryTables {
  public static final String RECOMMENDATIONS_TABLE = "memory_recommendations";
  public static final String SKEW_TABLE = "memory_skew";

  /** Every table {@code memory} writes. */
  public static final List<String> NAMES = List.of(RECOMMENDATIONS_TABLE, SKEW_TABLE);

  /** What a row of memory_recommendations covers. */
  public enum Scope { APPLICATION, WORKLOAD }

  /** Which data a recommendation rests on. */
  public enum Tier {
    /** Tier A: event logs only (lineage, cached sizes, task metrics). */
    EVENT_LOG,
    /** Tier B: PerfLab's SparkPlugin's block accesses and GC telemetry. */
    INSTRUMENTED
  }

  /** What the heap size rests on. */
  public enum HeapBasis {
    /** The framework's managed need times the safety factor (reference 004's first-run rule): no GC data. */
    SAFETY_FACTOR,
    /** The GC model's eden and tenured sizes (Tier B). */
    GC_MODEL
  }

  public static final String SCOPE = "scope";
  public static final String WORKLOAD_ID = "workload_id";
  public static final String EXECUTOR_MEMORY_BYTES = "executor_memory_bytes";
  public static final String STORAGE_BYTES = "storage_bytes";
  public static final String EXECUTION_BYTES = "execution_bytes";
  public static final String UNROLL_BYTES = "unroll_bytes";
  public static final String PAGE_CACHE_BYTES = "page_cache_bytes";
  public static final String REASON = "reason";
  /** {@code unified} or {@code static} ({@link org.perflab.memory.MemoryManager}). */
  public static final String MEMORY_MANAGER = "memory_manager";
  /** A boolean column the applications may carry: {@code spark.memory.useLegacyMode} set to true. */
  public static final String LEGACY_MODE = "legacy_mode";

  private static final DataType STRING = DataTypes.StringType;
  private static final DataType LONG = DataTypes.LongType;
  private static final DataType INT = DataTypes.IntegerType;
  private static final DataType DOUBLE = DataTypes.DoubleType;

  /** One row per application and one per workload: see docs/tables.md#memory_recommendations. */
  public static final StructType RECOMMENDATIONS = new StructType()
      .add(SCOPE, STRING, false)
      .add(WORKLOAD_ID, STRING, true)
      .add("log_id", STRING, true)
      .add("app_id", STRING, true)
      .add("app_attempt_id", STRING, true)
      .add("applications", INT, false)
      .add(EXECUTOR_MEMORY_BYTES, LONG, true)
      .add("memory_fraction", DOUBLE, true)
      .add("storage_fraction", DOUBLE, true)
      .add("memory_overhead_bytes", LONG, true)
      .add("gc_flags", STRING, true)
      .add("collector", STRING, true)
      .add("heap_basis", STRING, true)
      .add(STORAGE_BYTES, LONG, true)
      .add(EXECUTION_BYTES, LONG, true)
      .add(UNROLL_BYTES, LONG, true)
      .add(PAGE_CACHE_BYTES, LONG, true)
      .add("rdd_cache_bytes", LONG, true)
      .add("broadcast_bytes", LONG, true)
      .add("largest_partition_bytes", LONG, true)
      .add("workers", INT, true)
      .add("tasks_per_worker", INT, true)
      .add("predicted_spill_bytes", LONG, true)
      .add("predicted_recompute_bytes", LONG, true)
      .add("recompute_bytes_at_80pct", LONG, true)
      .add("storage_bytes_at_2x_partitions", LONG, true)
      .add("tier", STRING, false)
      .add("safety_factor", DOUBLE, true)
      .add("evidence", STRING, true)
      .add(REASON, STRING, true)
      .add(MEMORY_MANAGER, STRING, true)
      .add("storage_memory_fraction", DOUBLE, true)
      .add("shuffle_memory_fraction", DOUBLE, true);

  /** One row per mean and standard deviation of reference 004 Table 5.3: see docs/tables.md#memory_skew. */
  public static final StructType SKEW = new StructType()
      .add("mean_tasks", INT, false)
      .add("sd", DOUBLE, false)
      .add("machines", INT, false)
      .add("runs", INT, false)
      .add("p99_max_tasks", INT, false)
      .add("correction", DOUBLE, false);

  private MemoryTables() {}
}
