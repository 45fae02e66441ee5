package org.perflab.spark.features;

import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.collect_list;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.greatest;
import static org.apache.spark.sql.functions.least;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.min;
import static org.apache.spark.sql.functions.struct;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.when;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.api.java.UDF2;
import org.apache.spark.sql.expressions.UserDefinedFunction;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.perflab.spark.storage.AppKeyColumns;
import org.perflab.timing.CriticalPath;

/**
 * The {@code app_features} table: per application attempt, where its time went (driver, tasks, GC, serialisation,
 * scheduling), how busy its executors were, the bytes it moved, its failures, its critical path and ideal time, and
 * its effective configuration. Columns and their units: {@link FeatureTables#APP_FEATURES} and docs/tables.md.
 */
public final class AppFeatures {
  private static final StructType TIMES_TYPE = new StructType()
      .add("critical_path_ms", DataTypes.LongType, false)
      .add("ideal_stage_ms", DataTypes.DoubleType, true);

  private static final UserDefinedFunction TIMES = functions.udf(
      (UDF2<scala.collection.Seq<Row>, Integer, Row>) (stages, slots) -> {
        CriticalPath.Times times = CriticalPath.of(stageTimes(stages), slots);
        return RowFactory.create(times.criticalPathMs(), times.idealMs());
      }, TIMES_TYPE);

  private AppFeatures() {}

  /**
   * One row per application attempt of {@code in.applications()}.
   *
   * @param workloads the {@link WorkloadTable#of} rows of the same applications (for {@code workload_id} and
   *     {@code size_class})
   */
  public static Dataset<Row> of(FeatureInputs in, Dataset<Row> workloads) {
    Dataset<Row> apps = in.applications().select(AppKeyColumns.with("start_time_ms", "end_time_ms", "duration_ms",
        "completed"));
    Dataset<Row> config = Configurations.effective(in);
    Dataset<Row> rows = apps
        .join(workloads.select(AppKeyColumns.with("workload_id", "size_class")), AppKeyColumns.using(), "left");
    for (Dataset<Row> part : List.of(config, taskSums(in), stageCounts(in), jobCounts(in), coverage(in),
        availability(in), peaks(in), stagePaths(in, config))) {
      rows = FeatureKeys.leftJoin(rows, part);
    }
    return FeatureTables.conform(derive(rows), FeatureTables.APP_FEATURES);
  }

  /** The columns computed from the joined parts. */
  private static Dataset<Row> derive(Dataset<Row> rows) {
    Column wallMs = col("duration_ms");
    Column taskTimeMs = coalesce(col("task_time_ms"), lit(0L));
    Column busyCoreMs = taskTimeMs.multiply(col("task_cpus"));
    Column outsideJobsMs = greatest(lit(0L), wallMs.minus(coalesce(col("job_covered_ms"), lit(0L))));
    return rows
        .withColumn("wall_time_s", FeatureKeys.seconds(wallMs))
        .withColumn("driver_only_s",
            FeatureKeys.seconds(greatest(lit(0L), wallMs.minus(coalesce(col("task_covered_ms"), lit(0L))))))
        .withColumn("outside_jobs_s", FeatureKeys.seconds(outsideJobsMs))
        .withColumn("executor_core_s_available", FeatureKeys.seconds(col("available_core_ms")))
        .withColumn("executor_core_s_busy", FeatureKeys.seconds(busyCoreMs))
        .withColumn("utilization", FeatureKeys.ratio(busyCoreMs, col("available_core_ms")))
        .withColumn("task_time_s", FeatureKeys.seconds(taskTimeMs))
        .withColumn("executor_run_time_s", FeatureKeys.seconds(zero("run_time_ms")))
        .withColumn("gc_time_s", FeatureKeys.seconds(zero("gc_time_ms")))
        .withColumn("gc_share", FeatureKeys.ratio(col("gc_time_ms"), col("run_time_ms")))
        .withColumn("serialization_share", FeatureKeys.ratio(col("serialization_ms"), col("task_time_ms")))
        .withColumn("scheduler_delay_s", FeatureKeys.seconds(zero("scheduler_delay_ms")))
        .withColumn("scheduler_delay_share", FeatureKeys.ratio(col("scheduler_delay_ms"), col("task_time_ms")))
        .withColumn("failed_task_time_s", FeatureKeys.seconds(zero("failed_task_time_ms")))
        .withColumn("killed_task_time_s", FeatureKeys.seconds(zero("killed_task_time_ms")))
        .withColumn("longest_task_s", FeatureKeys.seconds(col("longest_task_ms")))
        .withColumn("critical_path_s",
            FeatureKeys.seconds(outsideJobsMs.plus(coalesce(col("critical_path_ms"), lit(0L)))))
        .withColumn("ideal_time_s", when(col("slots").isNotNull(),
            FeatureKeys.seconds(outsideJobsMs).plus(coalesce(col("ideal_stage_ms"), lit(0.0)).divide(1000.0))))
        .na().fill(0L, new String[] {"input_bytes", "output_bytes", "shuffle_read_bytes", "shuffle_write_bytes",
            "memory_spilled_bytes", "disk_spilled_bytes", "jobs", "stages", "skipped_stages", "failed_stages",
            "tasks", "failed_tasks", "killed_tasks", "speculative_tasks"});
  }

  private static Column zero(String column) {
    return coalesce(col(column), lit(0L));
  }

  /** Sums and counts over every task attempt. */
  private static Dataset<Row> taskSums(FeatureInputs in) {
    return in.tasks().groupBy(AppKeyColumns.with()).agg(
        count(lit(1)).as("tasks"),
        sum("duration_ms").as("task_time_ms"),
        sum("executor_run_time_ms").as("run_time_ms"),
        sum("jvm_gc_time_ms").as("gc_time_ms"),
        sum(TaskColumns.metric("executor_deserialize_time_ms")
            .plus(TaskColumns.metric("result_serialization_time_ms"))).as("serialization_ms"),
        sum(TaskColumns.schedulerDelayMs()).as("scheduler_delay_ms"),
        sum(TaskColumns.metric("input_bytes")).as("input_bytes"),
        sum(TaskColumns.metric("output_bytes")).as("output_bytes"),
        sum(TaskColumns.shuffleReadBytes()).as("shuffle_read_bytes"),
        sum(TaskColumns.metric("shuffle_write_bytes")).as("shuffle_write_bytes"),
        sum(TaskColumns.metric("memory_spilled_bytes")).as("memory_spilled_bytes"),
        sum(TaskColumns.metric("disk_spilled_bytes")).as("disk_spilled_bytes"),
        sum(TaskColumns.is("FAILED")).as("failed_tasks"),
        sum(TaskColumns.is("KILLED")).as("killed_tasks"),
        sum(when(col("speculative"), 1L).otherwise(0L)).as("speculative_tasks"),
        sum(when(col("status").equalTo("FAILED"), col("duration_ms"))).as("failed_task_time_ms"),
        sum(when(col("status").equalTo("KILLED"), col("duration_ms"))).as("killed_task_time_ms"),
        max("duration_ms").as("longest_task_ms"),
        max("peak_execution_memory_bytes").as("peak_task_execution_memory_bytes"));
  }

  /** Stage attempts that ran, were skipped, failed. */
  private static Dataset<Row> stageCounts(FeatureInputs in) {
    Column ran = functions.not(col("status").isin("SKIPPED", "PENDING"));
    return in.stages().groupBy(AppKeyColumns.with()).agg(
        sum(when(ran, 1L).otherwise(0L)).as("stages"),
        sum(when(col("status").equalTo("SKIPPED"), 1L).otherwise(0L)).as("skipped_stages"),
        sum(when(col("status").equalTo("FAILED"), 1L).otherwise(0L)).as("failed_stages"));
  }

  private static Dataset<Row> jobCounts(FeatureInputs in) {
    return in.jobs().groupBy(AppKeyColumns.with()).agg(count(lit(1)).as("jobs"));
  }

  /**
   * {@code task_covered_ms}: time in which at least one task runs; {@code job_covered_ms}: time in which at least one
   * job runs. A task or job that never ended in the log runs until the application's end.
   */
  private static Dataset<Row> coverage(FeatureInputs in) {
    Dataset<Row> ends = in.applications().select(AppKeyColumns.with("end_time_ms")).withColumnRenamed("end_time_ms", "app_end");
    Dataset<Row> tasks = Intervals.coveredMs(FeatureKeys.leftJoin(in.tasks(), ends)
        .select(AppKeyColumns.with("launch_time_ms", "finish_time_ms", "app_end"))
        .withColumn("start_ms", col("launch_time_ms"))
        .withColumn("end_ms", coalesce(col("finish_time_ms"), col("app_end")))).withColumnRenamed("covered_ms",
        "task_covered_ms");
    Dataset<Row> jobs = Intervals.coveredMs(jobSpans(in)).withColumnRenamed("covered_ms", "job_covered_ms");
    return tasks.join(jobs, AppKeyColumns.using(), "full_outer");
  }

  /**
   * Key columns, {@code job_id}, {@code start_ms} and {@code end_ms}: each job's submission and completion; in logs
   * that do not record them (Spark 1.2), its stages' first submission and last completion; a job that never ended
   * runs until the application's end.
   */
  private static Dataset<Row> jobSpans(FeatureInputs in) {
    Dataset<Row> ends = in.applications().select(AppKeyColumns.with("end_time_ms"));
    Dataset<Row> stageSpans = in.stages().groupBy(AppKeyColumns.with("job_id")).agg(
        min("submission_time_ms").as("first_stage_ms"), max("completion_time_ms").as("last_stage_ms"));
    return FeatureKeys.leftJoin(in.jobs().join(stageSpans, AppKeyColumns.using("job_id"), "left"), ends).select(
        AppKeyColumns.with("job_id")[0], AppKeyColumns.with("job_id")[1], AppKeyColumns.with("job_id")[2], col("job_id"),
        coalesce(col("submission_time_ms"), col("first_stage_ms")).as("start_ms"),
        coalesce(col("completion_time_ms"), col("last_stage_ms"), col("end_time_ms")).as("end_ms"));
  }

  /**
   * {@code available_core_ms}: Σ over the executors that run tasks (every executor but the driver; the driver in
   * local mode) of the cores × the time it was alive within the application.
   */
  private static Dataset<Row> availability(FeatureInputs in) {
    Dataset<Row> apps = in.applications().select(AppKeyColumns.with("start_time_ms", "end_time_ms"));
    Column alive = least(coalesce(col("remove_time_ms"), col("end_time_ms")), col("end_time_ms"))
        .minus(greatest(col("add_time_ms"), col("start_time_ms")));
    return FeatureKeys.leftJoin(runsTasks(in.executors()), apps).groupBy(AppKeyColumns.with())
        .agg(sum(greatest(alive, lit(0L)).multiply(col("total_cores"))).as("available_core_ms"));
  }

  /** Peak JVM heap and execution memory over the executors that run tasks (needs executor metrics, Spark 3.0+). */
  private static Dataset<Row> peaks(FeatureInputs in) {
    return runsTasks(in.executors()).groupBy(AppKeyColumns.with()).agg(
        max("peak_jvm_heap_bytes").as("peak_jvm_heap_bytes"),
        max("peak_on_heap_execution_bytes").as("peak_on_heap_execution_bytes"));
  }

  private static Dataset<Row> runsTasks(Dataset<Row> executors) {
    // The driver's row has cores only in local mode, where it runs the tasks.
    return executors.where(col("total_cores").isNotNull());
  }

  /**
   * {@code critical_path_ms} and {@code ideal_stage_ms}: sparklens' critical path and ideal time at the measured
   * slots, without driver time ({@link CriticalPath}), from each stage attempt's longest task and task time.
   */
  private static Dataset<Row> stagePaths(FeatureInputs in, Dataset<Row> config) {
    Dataset<Row> perStage = in.tasks().groupBy(AppKeyColumns.with("stage_id", "stage_attempt_id")).agg(
        max("duration_ms").as("longest_ms"), sum("duration_ms").as("stage_task_ms"));
    Dataset<Row> jobs = jobSpans(in).withColumnRenamed("start_ms", "submission_time_ms")
        .withColumnRenamed("end_ms", "completion_time_ms");
    Dataset<Row> withDag = perStage.join(in.stages().select(AppKeyColumns.with("stage_id", "stage_attempt_id", "job_id",
        "parent_stage_ids")), AppKeyColumns.using("stage_id", "stage_attempt_id"), "left");
    Dataset<Row> withJobs = withDag.join(jobs, AppKeyColumns.using("job_id"), "left");
    Dataset<Row> times = withJobs.groupBy(AppKeyColumns.with()).agg(collect_list(struct(col("job_id"),
        col("submission_time_ms"), col("completion_time_ms"), col("stage_id"), col("parent_stage_ids"),
        coalesce(col("longest_ms"), lit(0L)).as("longest_ms"),
        coalesce(col("stage_task_ms"), lit(0L)).as("stage_task_ms"))).as("stage_times"));
    return FeatureKeys.leftJoin(times, config.select(AppKeyColumns.with("slots")))
        .withColumn("times", TIMES.apply(col("stage_times"), col("slots")))
        .select(AppKeyColumns.with("times.critical_path_ms", "times.ideal_stage_ms"));
  }

  /** The rows of {@code stage_times}, the structs {@link #stagePaths} collects. */
  private static List<CriticalPath.StageTime> stageTimes(scala.collection.Seq<Row> rows) {
    List<CriticalPath.StageTime> stages = new ArrayList<>();
    scala.collection.Iterator<Row> it = rows.iterator();
    while (it.hasNext()) {
      Row r = it.next();
      List<Integer> parents = r.isNullAt(4) ? List.of() : r.<Integer>getList(4);
      stages.add(new CriticalPath.StageTime(r.isNullAt(0) ? null : r.getInt(0), r.isNullAt(1) ? null : r.getLong(1),
          r.isNullAt(2) ? null : r.getLong(2), r.getInt(3), parents, r.getLong(5), r.getLong(6)));
    }
    return stages;
  }
}
