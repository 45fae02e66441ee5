package org.perflab.spark.features;

import static org.apache.spark.sql.functions.array;
import static org.apache.spark.sql.functions.broadcast;
import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.element_at;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.mean;
import static org.apache.spark.sql.functions.not;
import static org.apache.spark.sql.functions.percentile;
import static org.apache.spark.sql.functions.percentile_approx;
import static org.apache.spark.sql.functions.stddev_pop;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.when;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataTypes;
import org.perflab.spark.storage.AppKeyColumns;

/**
 * The {@code stage_features} table: per stage attempt, the spread of its successful tasks' durations (quantiles), the
 * skew of their duration, input and shuffle-read bytes, spill, GC, the locality mix and the waves it ran in. Columns
 * and units: {@link FeatureTables#STAGE_FEATURES} and docs/tables.md.
 *
 * <p>The quantiles are exact (Spark's {@code percentile}, interpolated) for a stage attempt of at most
 * {@link #EXACT_QUANTILES_UP_TO} tasks. An exact quantile holds every distinct value of its group, as many as the
 * stage's tasks for byte counts; beyond the bound a stage's quantiles come from {@code percentile_approx} at
 * {@link #QUANTILE_ACCURACY}: a value of the stage whose rank is within {@code tasks / QUANTILE_ACCURACY} of the exact
 * one, from a summary of bounded size. Every other column is exact at any size.
 */
public final class StageFeatures {
  /** Spark's locality levels, with the column counting each. */
  private static final String[][] LOCALITY = {{"PROCESS_LOCAL", "process_local_tasks"},
      {"NODE_LOCAL", "node_local_tasks"}, {"RACK_LOCAL", "rack_local_tasks"}, {"NO_PREF", "no_pref_tasks"},
      {"ANY", "any_tasks"}};

  /** The most tasks (by the stage's declared {@code num_tasks}) of a stage attempt whose quantiles are exact. */
  static final long EXACT_QUANTILES_UP_TO = 100_000;
  /** {@code percentile_approx}'s accuracy beyond the bound: a relative rank error of 1/10,000. */
  static final int QUANTILE_ACCURACY = 10_000;

  private StageFeatures() {}

  /** One row per stage attempt of {@code in.stages()}, skipped stages included (with no tasks). */
  public static Dataset<Row> of(FeatureInputs in) {
    return of(in, EXACT_QUANTILES_UP_TO);
  }

  /**
   * As {@link #of(FeatureInputs)}, with exact quantiles for stage attempts of at most {@code exactUpTo} declared tasks
   * (a stage without a declared count counts as small).
   */
  static Dataset<Row> of(FeatureInputs in, long exactUpTo) {
    Dataset<Row> stages = in.stages().select(AppKeyColumns.with("stage_id", "stage_attempt_id", "job_id", "name", "status",
        "num_tasks", "duration_ms"));
    Dataset<Row> tasks = in.tasks().withColumn("ok", col("status").equalTo("SUCCESS"))
        .withColumn("shuffle_read", TaskColumns.shuffleReadBytes());
    Dataset<Row> sized = tasks.join(broadcast(stages.select(AppKeyColumns.with("stage_id", "stage_attempt_id",
        "num_tasks"))), AppKeyColumns.using("stage_id", "stage_attempt_id"), "left");
    Column large = coalesce(col("num_tasks"), lit(0L)).gt(exactUpTo);
    Dataset<Row> sums = aggregated(sized.where(not(large)), true).unionByName(aggregated(sized.where(large), false));
    Dataset<Row> slots = Configurations.effective(in).select(AppKeyColumns.with("slots"));
    Dataset<Row> rows = FeatureKeys.leftJoin(stages.join(sums, AppKeyColumns.using("stage_id", "stage_attempt_id"), "left"), slots);
    for (String metric : List.of("duration", "input", "shuffle_read")) {
      rows = rows
          .withColumn(metric + "_max_over_median", FeatureKeys.ratio(col(metric + "_max"), col(metric + "_p50")))
          .withColumn(metric + "_cv", FeatureKeys.ratio(col(metric + "_std"), col(metric + "_mean")));
    }
    rows = rows
        .withColumn("duration_max_ms", col("duration_max"))
        .withColumn("duration_p50_ms", col("duration_p50"))
        .withColumn("gc_share", FeatureKeys.ratio(col("gc_time_ms"), col("run_time_ms")))
        .withColumn("waves", FeatureKeys.ratio(col("num_tasks"), col("slots")))
        .na().fill(0L, zeroWhenNoTasks());
    return FeatureTables.conform(rows, FeatureTables.STAGE_FEATURES);
  }

  /** The aggregates of {@code tasks} per stage attempt, with exact or approximate quantiles. */
  private static Dataset<Row> aggregated(Dataset<Row> tasks, boolean exact) {
    List<Column> aggregates = aggregates(exact);
    return tasks.groupBy(AppKeyColumns.with("stage_id", "stage_attempt_id")).agg(aggregates.get(0),
        aggregates.subList(1, aggregates.size()).toArray(Column[]::new));
  }

  /**
   * The quantiles of {@code value} at {@code percentages}: exact and interpolated, or approximate; doubles either way
   * ({@code percentile_approx} returns its input's type, hence the cast of the input).
   */
  private static Column quantile(Column value, Column percentages, boolean exact) {
    return exact ? percentile(value, percentages)
        : percentile_approx(value.cast(DataTypes.DoubleType), percentages, lit(QUANTILE_ACCURACY));
  }

  private static List<Column> aggregates(boolean exact) {
    List<Column> aggregates = new ArrayList<>(List.of(
        count(lit(1)).as("tasks"),
        sum(when(col("ok"), 1L).otherwise(0L)).as("successful_tasks"),
        sum("duration_ms").as("task_time_ms"),
        sum(TaskColumns.metric("input_bytes")).as("input_bytes"),
        sum(col("shuffle_read")).as("shuffle_read_bytes"),
        sum(TaskColumns.metric("shuffle_write_bytes")).as("shuffle_write_bytes"),
        sum(TaskColumns.metric("memory_spilled_bytes")).as("memory_spilled_bytes"),
        sum(TaskColumns.metric("disk_spilled_bytes")).as("disk_spilled_bytes"),
        sum(TaskColumns.metric("jvm_gc_time_ms")).as("gc_time_ms"),
        sum("executor_run_time_ms").as("run_time_ms")));
    Column quantiles = quantile(okOnly(col("duration_ms")), array(lit(0.5), lit(0.9), lit(0.99)), exact);
    aggregates.add(element_at(quantiles, 1).as("duration_p50"));
    aggregates.add(element_at(quantiles, 2).as("duration_p90_ms"));
    aggregates.add(element_at(quantiles, 3).as("duration_p99_ms"));
    aggregates.addAll(spread("duration", col("duration_ms"), exact));
    aggregates.addAll(spread("input", TaskColumns.metric("input_bytes"), exact));
    aggregates.addAll(spread("shuffle_read", col("shuffle_read"), exact));
    for (String[] level : LOCALITY) {
      aggregates.add(sum(when(col("locality").equalTo(level[0]), 1L).otherwise(0L)).as(level[1]));
    }
    return aggregates;
  }

  /** Max, median, mean and population standard deviation of {@code value} over the successful tasks. */
  private static List<Column> spread(String name, Column value, boolean exact) {
    Column ok = okOnly(value);
    List<Column> columns = new ArrayList<>(List.of(max(ok).as(name + "_max"), mean(ok).as(name + "_mean"),
        stddev_pop(ok).as(name + "_std")));
    if (!name.equals("duration")) {
      columns.add(quantile(ok, lit(0.5), exact).as(name + "_p50"));
    }
    return columns;
  }

  private static Column okOnly(Column value) {
    return when(col("ok"), value);
  }

  /** Sums and counts that are 0, not null, for a stage attempt with no task (skipped, or pending). */
  private static String[] zeroWhenNoTasks() {
    List<String> columns = new ArrayList<>(List.of("tasks", "successful_tasks", "task_time_ms", "input_bytes",
        "shuffle_read_bytes", "shuffle_write_bytes", "memory_spilled_bytes", "disk_spilled_bytes", "gc_time_ms"));
    for (String[] level : LOCALITY) {
      columns.add(level[1]);
    }
    return columns.toArray(String[]::new);
  }
}
