package org.perflab.spark.features;


import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.perflab.table.KeyColumns;

/**
 * The tables {@code features} writes, with their schemas (documented column by column in docs/tables.md, which
 * {@code DocumentedTablesTest} keeps in step). Column names carry their unit: {@code _s}, {@code _ms},
 * {@code _bytes}; shares and ratios are unitless doubles.
 */
public final class FeatureTables {
  public static final String WORKLOADS_TABLE = "workloads";
  public static final String APP_FEATURES_TABLE = "app_features";
  public static final String STAGE_FEATURES_TABLE = "stage_features";

  /** Every table {@code features} writes, in the order it writes them. */
  public static final List<String> NAMES = List.of(WORKLOADS_TABLE, APP_FEATURES_TABLE, STAGE_FEATURES_TABLE);

  private static final DataType STRING = DataTypes.StringType;
  private static final DataType INT = DataTypes.IntegerType;
  private static final DataType LONG = DataTypes.LongType;
  private static final DataType DOUBLE = DataTypes.DoubleType;
  private static final DataType BOOLEAN = DataTypes.BooleanType;

  public static final StructType WORKLOADS = keyed(
      nullable("app_name", STRING),
      required("workload_id", STRING),
      required("workload_source", STRING),
      required("input_bytes", LONG),
      required("input_bytes_source", STRING),
      required("size_class", INT),
      nullable("executors", INT),
      nullable("cores_per_executor", INT),
      nullable("total_cores", INT),
      nullable("executor_memory_bytes", LONG),
      nullable("start_time_ms", LONG),
      nullable("duration_ms", LONG),
      nullable("completed", BOOLEAN));

  public static final StructType APP_FEATURES = keyed(
      required("workload_id", STRING),
      required("size_class", INT),
      nullable("wall_time_s", DOUBLE),
      nullable("completed", BOOLEAN),
      nullable("driver_only_s", DOUBLE),
      nullable("outside_jobs_s", DOUBLE),
      nullable("executor_core_s_available", DOUBLE),
      required("executor_core_s_busy", DOUBLE),
      nullable("utilization", DOUBLE),
      required("task_time_s", DOUBLE),
      required("executor_run_time_s", DOUBLE),
      required("gc_time_s", DOUBLE),
      nullable("gc_share", DOUBLE),
      nullable("serialization_share", DOUBLE),
      required("scheduler_delay_s", DOUBLE),
      nullable("scheduler_delay_share", DOUBLE),
      required("input_bytes", LONG),
      required("output_bytes", LONG),
      required("shuffle_read_bytes", LONG),
      required("shuffle_write_bytes", LONG),
      required("memory_spilled_bytes", LONG),
      required("disk_spilled_bytes", LONG),
      required("jobs", LONG),
      required("stages", LONG),
      required("skipped_stages", LONG),
      required("failed_stages", LONG),
      required("tasks", LONG),
      required("failed_tasks", LONG),
      required("killed_tasks", LONG),
      required("speculative_tasks", LONG),
      required("failed_task_time_s", DOUBLE),
      required("killed_task_time_s", DOUBLE),
      nullable("longest_task_s", DOUBLE),
      nullable("critical_path_s", DOUBLE),
      nullable("ideal_time_s", DOUBLE),
      nullable("executors", INT),
      nullable("cores_per_executor", INT),
      nullable("total_cores", INT),
      required("task_cpus", INT),
      nullable("slots", INT),
      nullable("executor_memory_bytes", LONG),
      nullable("driver_memory_bytes", LONG),
      nullable("dynamic_allocation_enabled", BOOLEAN),
      nullable("dynamic_allocation_min_executors", INT),
      nullable("dynamic_allocation_max_executors", INT),
      nullable("shuffle_partitions", INT),
      nullable("peak_jvm_heap_bytes", LONG),
      nullable("peak_on_heap_execution_bytes", LONG),
      nullable("peak_task_execution_memory_bytes", LONG));

  public static final StructType STAGE_FEATURES = keyed(
      required("stage_id", INT),
      required("stage_attempt_id", INT),
      nullable("job_id", INT),
      nullable("name", STRING),
      nullable("status", STRING),
      nullable("num_tasks", INT),
      required("tasks", LONG),
      required("successful_tasks", LONG),
      nullable("duration_ms", LONG),
      required("task_time_ms", LONG),
      nullable("duration_p50_ms", DOUBLE),
      nullable("duration_p90_ms", DOUBLE),
      nullable("duration_p99_ms", DOUBLE),
      nullable("duration_max_ms", LONG),
      nullable("duration_max_over_median", DOUBLE),
      nullable("duration_cv", DOUBLE),
      required("input_bytes", LONG),
      nullable("input_max_over_median", DOUBLE),
      nullable("input_cv", DOUBLE),
      required("shuffle_read_bytes", LONG),
      nullable("shuffle_read_max_over_median", DOUBLE),
      nullable("shuffle_read_cv", DOUBLE),
      required("shuffle_write_bytes", LONG),
      required("memory_spilled_bytes", LONG),
      required("disk_spilled_bytes", LONG),
      required("gc_time_ms", LONG),
      nullable("gc_share", DOUBLE),
      required("process_local_tasks", LONG),
      required("node_local_tasks", LONG),
      required("rack_local_tasks", LONG),
      required("no_pref_tasks", LONG),
      required("any_tasks", LONG),
      nullable("slots", INT),
      nullable("waves", DOUBLE));

  private FeatureTables() {}

  /**
   * {@code rows} with exactly the columns of {@code schema}, in its order, cast to its types and with its
   * nullability (a null in a required column fails the write: a bug, not bad input).
   */
  static Dataset<Row> conform(Dataset<Row> rows, StructType schema) {
    return org.perflab.spark.storage.TableStore.conform(rows, schema);
  }

  private static StructType keyed(StructField... fields) {
    StructType schema = new StructType()
        .add(KeyColumns.LOG_ID, STRING, false)
        .add(KeyColumns.APP_ID, STRING, false)
        .add(KeyColumns.APP_ATTEMPT_ID, STRING, false);
    for (StructField field : fields) {
      schema = schema.add(field);
    }
    return schema;
  }

  private static StructField required(String name, DataType type) {
    return DataTypes.createStructField(name, type, false);
  }

  private static StructField nullable(String name, DataType type) {
    return DataTypes.createStructField(name, type, true);
  }
}
