package org.perflab.spark.features;

import static org.apache.spark.sql.functions.array;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.element_at;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.mean;
import static org.apache.spark.sql.functions.percentile;
import static org.apache.spark.sql.functions.stddev_pop;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.when;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * The {@code stage_features} table: per stage attempt, the spread of its successful tasks' durations (exact
 * quantiles), the skew of their duration, input and shuffle-read bytes, spill, GC, the locality mix and the waves it
 * ran in. Columns and units: {@link FeatureTables#STAGE_FEATURES} and docs/tables.md.
 */
public final class StageFeatures {
  /** Spark's locality levels, with the column counting each. */
  private static final String[][] LOCALITY = {{"PROCESS_LOCAL", "process_local_tasks"},
      {"NODE_LOCAL", "node_local_tasks"}, {"RACK_LOCAL", "rack_local_tasks"}, {"NO_PREF", "no_pref_tasks"},
      {"ANY", "any_tasks"}};

  private StageFeatures() {}

  /** One row per stage attempt of {@code in.stages()}, skipped stages included (with no tasks). */
  public static Dataset<Row> of(FeatureInputs in) {
    Dataset<Row> stages = in.stages().select(FeatureKeys.with("stage_id", "stage_attempt_id", "job_id", "name", "status",
        "num_tasks", "duration_ms"));
    Dataset<Row> tasks = in.tasks().withColumn("ok", col("status").equalTo("SUCCESS"))
        .withColumn("shuffle_read", TaskColumns.shuffleReadBytes());
    Dataset<Row> sums = tasks.groupBy(FeatureKeys.with("stage_id", "stage_attempt_id")).agg(aggregates().get(0),
        aggregates().subList(1, aggregates().size()).toArray(Column[]::new));
    Dataset<Row> slots = Configurations.effective(in).select(FeatureKeys.with("slots"));
    Dataset<Row> rows = FeatureKeys.leftJoin(stages.join(sums, FeatureKeys.using("stage_id", "stage_attempt_id"), "left"), slots);
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

  private static List<Column> aggregates() {
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
    Column quantiles = percentile(okOnly(col("duration_ms")), array(lit(0.5), lit(0.9), lit(0.99)));
    aggregates.add(element_at(quantiles, 1).as("duration_p50"));
    aggregates.add(element_at(quantiles, 2).as("duration_p90_ms"));
    aggregates.add(element_at(quantiles, 3).as("duration_p99_ms"));
    aggregates.addAll(spread("duration", col("duration_ms")));
    aggregates.addAll(spread("input", TaskColumns.metric("input_bytes")));
    aggregates.addAll(spread("shuffle_read", col("shuffle_read")));
    for (String[] level : LOCALITY) {
      aggregates.add(sum(when(col("locality").equalTo(level[0]), 1L).otherwise(0L)).as(level[1]));
    }
    return aggregates;
  }

  /** Max, median, mean and population standard deviation of {@code value} over the successful tasks. */
  private static List<Column> spread(String name, Column value) {
    Column ok = okOnly(value);
    List<Column> columns = new ArrayList<>(List.of(max(ok).as(name + "_max"), mean(ok).as(name + "_mean"),
        stddev_pop(ok).as(name + "_std")));
    if (!name.equals("duration")) {
      columns.add(percentile(ok, lit(0.5)).as(name + "_p50"));
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
