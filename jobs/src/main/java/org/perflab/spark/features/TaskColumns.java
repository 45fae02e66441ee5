package org.perflab.spark.features;

import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.greatest;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.when;

import org.apache.spark.sql.Column;

/**
 * Per-task expressions over the {@code tasks} table shared by the application and stage features (and by
 * {@code compare}, for the scheduler delay of a stage).
 */
public final class TaskColumns {
  private TaskColumns() {}

  /** A task metric, 0 when the log does not record it. */
  static Column metric(String name) {
    return coalesce(col(name), lit(0L));
  }

  /** Local plus remote shuffle bytes read, as the History Server sums them (bytes). */
  static Column shuffleReadBytes() {
    return metric("shuffle_local_read_bytes").plus(metric("shuffle_remote_read_bytes"));
  }

  /**
   * The task's scheduler delay as the History Server computes it (ms): duration − executor run time − deserialize
   * time − result serialization time − getting-result time, and never below 0. Getting-result time is
   * {@code finish − getting_result_time} when the task fetched its result remotely, else 0.
   */
  public static Column schedulerDelayMs() {
    Column gettingResult = when(col("getting_result_time_ms").gt(0),
        col("finish_time_ms").minus(col("getting_result_time_ms"))).otherwise(lit(0L));
    return greatest(lit(0L), metric("duration_ms").minus(metric("executor_run_time_ms"))
        .minus(metric("executor_deserialize_time_ms")).minus(metric("result_serialization_time_ms"))
        .minus(gettingResult));
  }

  /** 1 when the task's status is {@code status}, else 0. */
  static Column is(String status) {
    return when(col("status").equalTo(status), 1L).otherwise(0L);
  }
}
