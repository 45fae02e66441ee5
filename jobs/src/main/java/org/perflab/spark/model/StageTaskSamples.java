package org.perflab.spark.model;

import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.collect_list;
import static org.apache.spark.sql.functions.expr;
import static org.apache.spark.sql.functions.greatest;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.min;
import static org.apache.spark.sql.functions.struct;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.when;

import org.apache.spark.sql.Column;
import org.perflab.spark.sampling.SeededUniform;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.perflab.table.KeyColumns;

/**
 * The task rows of every stage id of every application, summarised in Spark into one bounded row each (what
 * {@link org.perflab.dagmodel.AppTrace.StageTasks} holds), so that no application's tasks ever meet in one group.
 *
 * <p>A stage of at most {@code bound} successful task attempts keeps every duration: its model is the one built from
 * every task. A larger stage keeps a uniform sample of exactly {@code bound} of them, without replacement: the attempts
 * with the smallest hash of (seed, application, stage, task id), a bottom-k sample, deterministic for a seed. Its
 * empirical distribution function is within {@code sqrt(ln(2/0.05) / (2 * bound))} of the stage's (DKW inequality,
 * 95 %): 1.4 percentage points at the default bound of 10,000 (docs/simulator.md, "Applications of any size"). Counts,
 * bytes and the first launch are exact.
 */
public final class StageTaskSamples {
  /** Successful task durations kept per stage: every one up to this, a uniform sample of this many beyond. */
  public static final int DEFAULT_BOUND = 10_000;

  private StageTaskSamples() {}

  /**
   * One row per (log_id, app_id, app_attempt_id, stage_id) of {@code tasks} rows with a launch and finish time (a null
   * attempt id reads as the empty string):
   * {@code first_launch_ms} (any attempt), {@code successful}, {@code input_bytes} and {@code shuffle_read_bytes} (of
   * the successful attempts), {@code durations_ms} (launch to finish, at least 0, in launch order and then task id;
   * empty without a successful attempt) and {@code sampled}.
   */
  public static Dataset<Row> of(Dataset<Row> tasks, int bound, long seed) {
    String[] keys = {KeyColumns.LOG_ID, KeyColumns.APP_ID, KeyColumns.APP_ATTEMPT_ID, "stage_id"};
    Column ok = col("status").equalTo("SUCCESS");
    Dataset<Row> timed = tasks.where(col("launch_time_ms").isNotNull().and(col("finish_time_ms").isNotNull()))
        .withColumn(keys[2], coalesce(col(keys[2]), lit("")));
    Dataset<Row> totals = timed.groupBy(keys[0], keys[1], keys[2], keys[3]).agg(
        min("launch_time_ms").as("first_launch_ms"),
        sum(when(ok, 1L).otherwise(0L)).as("successful"),
        coalesce(sum(when(ok, coalesce(col("input_bytes"), lit(0L)))), lit(0L)).as("input_bytes"),
        coalesce(sum(when(ok, coalesce(col("shuffle_remote_read_bytes"), lit(0L))
            .plus(coalesce(col("shuffle_local_read_bytes"), lit(0L))))), lit(0L)).as("shuffle_read_bytes"));
    Column uniform = SeededUniform.of(seed, col(keys[0]), col(keys[1]), col(keys[2]), col(keys[3]), col("task_id"));
    // Twice the bound pass the filter on average, so at least `bound` do but for a chance below 1e-20.
    Dataset<Row> samples = timed.where(ok)
        .join(totals.select(keys[0], keys[1], keys[2], keys[3], "successful"), keys, "inner")
        .where(col("successful").leq(bound).or(uniform.lt(lit(2.0 * bound).divide(col("successful")))))
        .groupBy(keys[0], keys[1], keys[2], keys[3])
        .agg(collect_list(struct(uniform.as("u"), col("launch_time_ms").as("l"), col("task_id").as("t"),
            greatest(col("finish_time_ms").minus(col("launch_time_ms")), lit(0L)).as("d"))).as("picked"))
        .select(col(keys[0]), col(keys[1]), col(keys[2]), col(keys[3]), expr("transform(array_sort(transform("
            + "slice(array_sort(picked), 1, " + bound + "), x -> struct(x.l AS l, x.t AS t, x.d AS d))), y -> y.d)")
            .as("durations_ms"));
    return totals.join(samples, keys, "left")
        .withColumn("durations_ms", coalesce(col("durations_ms"), expr("CAST(array() AS ARRAY<BIGINT>)")))
        .withColumn("sampled", col("successful").gt(bound));
  }
}
