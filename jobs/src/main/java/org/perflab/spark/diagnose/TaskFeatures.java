package org.perflab.spark.diagnose;

import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.greatest;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.when;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.perflab.stragglers.Category;
import org.perflab.stragglers.Feature;
import org.perflab.table.KeyColumns;

/**
 * The raw per-task features of straggler analysis from the ingest {@code tasks} table (reference 002 §5.1 C1's
 * mapping): successful task attempts only, one column {@code raw_<feature>} per numeric and time {@link Feature}
 * (counts, or ms; a metric the log lacks is 0) and the encoded locality.
 */
public final class TaskFeatures {
  /** The columns that identify a stage attempt. */
  static final String[] STAGE_KEY = {KeyColumns.LOG_ID, KeyColumns.APP_ID, KeyColumns.APP_ATTEMPT_ID, "stage_id",
      "stage_attempt_id"};
  /** The task columns carried through to the {@code stragglers} table. */
  static final String[] TASK_COLUMNS = {"task_id", "partition_id", "task_index", "executor_id", "host", "duration_ms",
      "launch_time_ms", "finish_time_ms"};

  private TaskFeatures() {}

  /** Column of a feature's raw value. */
  static String raw(Feature f) {
    return "raw_" + f.key();
  }

  /** Successful, finished task attempts with their raw features and {@code locality_code}. */
  public static Dataset<Row> of(Dataset<Row> tasks) {
    List<Column> columns = new ArrayList<>();
    for (String key : STAGE_KEY) {
      columns.add(col(key));
    }
    for (String c : TASK_COLUMNS) {
      columns.add(col(c));
    }
    for (Feature f : Feature.values()) {
      if (f.category() == Category.NUMERIC || f.category() == Category.TIME) {
        columns.add(coalesce(expression(f).cast("double"), lit(0.0)).as(raw(f)));
      }
    }
    columns.add(localityCode().as("locality_code"));
    return tasks.filter(col("status").equalTo("SUCCESS").and(col("duration_ms").isNotNull()))
        .select(columns.toArray(Column[]::new));
  }

  /** Eq. 3.2 in SQL, as {@link org.perflab.stragglers.LocalityEvidence#code}: NO_PREF is local. */
  private static Column localityCode() {
    return when(col("locality").equalTo("NODE_LOCAL"), 1)
        .when(col("locality").isin("RACK_LOCAL", "ANY"), 2).otherwise(0);
  }

  /** The event-log field of each feature, in the unit its category wants (ns become ms). */
  private static Column expression(Feature f) {
    return switch (f) {
      case INPUT_BYTES -> col("input_bytes");
      case INPUT_RECORDS -> col("input_records");
      case SHUFFLE_READ_BYTES -> zero("shuffle_remote_read_bytes").plus(zero("shuffle_local_read_bytes"));
      case SHUFFLE_READ_RECORDS -> col("shuffle_read_records");
      case CPU_TIME -> col("executor_cpu_time_ns").divide(1e6);
      case GC_TIME -> col("jvm_gc_time_ms");
      case DESERIALIZE_TIME -> col("executor_deserialize_time_ms");
      case RESULT_SERIALIZATION_TIME -> col("result_serialization_time_ms");
      case FETCH_WAIT_TIME -> col("shuffle_fetch_wait_time_ms");
      case SHUFFLE_WRITE_TIME -> col("shuffle_write_time_ns").divide(1e6);
      case SHUFFLE_WRITE_BYTES -> col("shuffle_write_bytes");
      case MEMORY_SPILLED -> col("memory_spilled_bytes");
      case DISK_SPILLED -> col("disk_spilled_bytes");
      case SCHEDULER_DELAY -> schedulerDelay();
      case OUTPUT_BYTES -> col("output_bytes");
      case OUTPUT_RECORDS -> col("output_records");
      default -> throw new IllegalArgumentException("Cannot extract " + f + ": not a task metric");
    };
  }

  /**
   * Spark's UI definition: duration − run time − deserialize time − result serialization time − time fetching the
   * result, at least 0.
   */
  private static Column schedulerDelay() {
    Column gettingResult = when(col("getting_result_time_ms").gt(0),
        col("finish_time_ms").minus(col("getting_result_time_ms"))).otherwise(0);
    return greatest(lit(0), col("duration_ms").minus(zero("executor_run_time_ms"))
        .minus(zero("executor_deserialize_time_ms")).minus(zero("result_serialization_time_ms"))
        .minus(gettingResult));
  }

  private static Column zero(String column) {
    return coalesce(col(column), lit(0));
  }
}
