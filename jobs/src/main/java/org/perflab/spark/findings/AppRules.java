package org.perflab.spark.findings;

import org.perflab.findings.FindingLimits;
import org.perflab.findings.Rule;
import static org.apache.spark.sql.functions.ceil;
import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.greatest;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.try_divide;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.not;
import static org.perflab.spark.findings.RuleCandidate.conf;
import static org.perflab.spark.findings.RuleCandidate.evidence;
import static org.perflab.spark.findings.RuleCandidate.mebibytes;
import static org.perflab.spark.findings.RuleCandidate.onlyIf;

import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;
import org.perflab.spark.diagnose.StragglerTable;
import org.perflab.spark.storage.AppKeyColumns;
import org.perflab.stragglers.Cause;
import org.perflab.table.KeyColumns;

/**
 * The application rules over {@code app_features}, the slow-hosts rule over {@code stragglers} too, and the
 * dropped-events rule over {@code ingest_status}.
 */
final class AppRules {
  private static final Column SLOTS = coalesce(col("slots"), lit(1));

  private AppRules() {}

  /** Every application rule's findings. */
  static List<Dataset<Row>> of(FindingInputs in) {
    Dataset<Row> apps = in.appFeatures();
    List<Dataset<Row>> rules = new java.util.ArrayList<>(List.of(gcPressure(apps), idleExecutors(apps),
        memoryOversized(apps), wastedTasks(apps), driverBound(apps), droppedEvents(in.ingestStatus())));
    in.stragglers().ifPresent(stragglers -> {
      rules.add(slowHosts(apps, stragglers));
      rules.add(coldExecutors(apps, stragglers));
    });
    return rules;
  }

  /** GC time ÷ executor run time; savings: the GC time above the LOW share, spread over the slots. */
  static Dataset<Row> gcPressure(Dataset<Row> apps) {
    Column excess = greatest(lit(0.0), col("gc_share").minus(FindingLimits.GC_SHARE.low()));
    return new RuleCandidate(Rule.GC_PRESSURE, col("gc_share"),
        evidence("gc_share", col("gc_share"), "gc_time_s", col("gc_time_s"), "executor_run_time_s",
            col("executor_run_time_s")),
        try_divide(excess.multiply(col("executor_run_time_s")), SLOTS),
        lit("Tasks spend a large share of their time in garbage collection. Give executors more memory, use fewer"
            + " cores per executor, or cache serialized data."),
        conf("spark.executor.memory", mebibytes(col("executor_memory_bytes").multiply(FindingLimits.MEMORY_INCREASE))))
        .ofApplications(apps.where(col("executor_run_time_s").geq(FindingLimits.GC_MIN_RUN_S)));
  }

  /**
   * 1 − utilisation of the executor cores available; no time savings (the gain is cluster capacity, in the
   * evidence as {@code idle_core_s}).
   */
  static Dataset<Row> idleExecutors(Dataset<Row> apps) {
    Column idle = lit(1.0).minus(col("utilization"));
    Column recommended = greatest(lit(1L),
        ceil(col("executors").multiply(col("utilization")).divide(FindingLimits.IDLE_TARGET_UTILIZATION)));
    Column dynamic = coalesce(col("dynamic_allocation_enabled"), lit(false));
    return new RuleCandidate(Rule.IDLE_EXECUTORS, idle,
        evidence("idle_share", idle, "utilization", col("utilization"), "idle_core_s",
            col("executor_core_s_available").minus(col("executor_core_s_busy")), "executors", col("executors"),
            "recommended_executors", recommended),
        lit(0.0),
        functions.when(dynamic, lit("Executors sit idle although dynamic allocation is on: cap it lower, or"
            + " shorten spark.dynamicAllocation.executorIdleTimeout.")).otherwise(lit("Executors sit idle: the"
            + " application is over-provisioned. Ask for fewer executors, or enable dynamic allocation.")),
        conf("spark.dynamicAllocation.maxExecutors", onlyIf(dynamic, recommended),
            "spark.executor.instances", onlyIf(not(dynamic), recommended)))
        .ofApplications(apps.where(col("wall_time_s").geq(FindingLimits.IDLE_MIN_WALL_S)
            .and(col("utilization").isNotNull()).and(col("executors").isNotNull())));
  }

  /**
   * spark.executor.memory ÷ (peak JVM heap + reserved memory); no time savings. The evidence's
   * {@code wasted_gb_hours} is the memory above the recommendation (GB, 10^9 bytes) × executor-hours alive, null
   * when the executors' time or cores are unknown.
   */
  static Dataset<Row> memoryOversized(Dataset<Row> apps) {
    Column needed = col("peak_jvm_heap_bytes").plus(FindingLimits.RESERVED_MEMORY_BYTES);
    Column ratio = try_divide(col("executor_memory_bytes").cast("double"), needed);
    Column recommended = needed.multiply(1 + FindingLimits.MEMORY_BUFFER);
    Column executorHours = try_divide(col("executor_core_s_available"), col("cores_per_executor")).divide(3600.0);
    Column wastedGbHours = greatest(lit(0.0), col("executor_memory_bytes").minus(recommended)).divide(1e9)
        .multiply(executorHours);
    return new RuleCandidate(Rule.EXECUTOR_MEMORY_OVERSIZED, ratio,
        evidence("memory_over_peak", ratio, "executor_memory_bytes", col("executor_memory_bytes"),
            "peak_jvm_heap_bytes", col("peak_jvm_heap_bytes"), ImpactCap.WASTED_GB_HOURS, wastedGbHours),
        lit(0.0),
        lit("Executors are given far more memory than their JVM heap ever used. Lower spark.executor.memory to the"
            + " peak plus headroom, or run more cores per executor."),
        conf("spark.executor.memory", mebibytes(recommended)))
        .ofApplications(apps.where(col("executor_memory_bytes").geq(FindingLimits.MEMORY_MIN_EXECUTOR_BYTES)
            .and(col("peak_jvm_heap_bytes").isNotNull())));
  }

  /** Failed and killed task time ÷ all task time; savings: that time spread over the slots. */
  static Dataset<Row> wastedTasks(Dataset<Row> apps) {
    Column wasted = col("failed_task_time_s").plus(col("killed_task_time_s"));
    Column share = try_divide(wasted, col("task_time_s"));
    Column speculation = col("speculative_tasks").gt(0).and(col("killed_task_time_s").geq(col("failed_task_time_s")));
    return new RuleCandidate(Rule.WASTED_TASKS, share,
        evidence("wasted_share", share, "failed_task_time_s", col("failed_task_time_s"), "killed_task_time_s",
            col("killed_task_time_s"), "failed_tasks", col("failed_tasks"), "killed_tasks", col("killed_tasks"),
            "speculative_tasks", col("speculative_tasks")),
        try_divide(wasted, SLOTS),
        functions.when(speculation, lit("Speculative copies are killed after running long: speculate later and"
            + " less often.")).otherwise(lit("Failed task attempts waste time: read their errors (lost executors,"
            + " fetch failures, out of memory) and fix the cause.")),
        conf("spark.speculation.multiplier", onlyIf(speculation, "3"),
            "spark.speculation.quantile", onlyIf(speculation, "0.9")))
        .ofApplications(apps.where(col("task_time_s").gt(0).and(wasted.gt(0))));
  }

  /**
   * What the application's {@code SLOW_HOST} stragglers lost (duration − their stage's median, s) ÷ its task time;
   * savings: that time ÷ slots, what speculative copies on other hosts could win back at most. The evidence counts the
   * stragglers and their hosts; the text names up to three hosts, most time lost first.
   */
  static Dataset<Row> slowHosts(Dataset<Row> apps, Dataset<Row> stragglers) {
    Dataset<Row> byHost = StragglerTable.withCause(stragglers, Cause.SLOW_HOST)
        .groupBy(AppKeyColumns.with("host"))
        .agg(functions.sum(StragglerTable.lostSeconds()).as("host_lost_s"),
            functions.count(lit(1)).as("host_stragglers"));
    Dataset<Row> lost = byHost.groupBy(AppKeyColumns.with())
        .agg(functions.sum("host_lost_s").as("slow_host_lost_s"), functions.sum("host_stragglers")
            .as("slow_host_stragglers"), functions.count(lit(1)).as("slow_hosts"),
            functions.sort_array(functions.collect_list(functions.struct(functions.negate(col("host_lost_s")),
                col("host"))), true).as("by_loss"));
    Dataset<Row> rows = apps.join(lost, AppKeyColumns.using());
    Column share = try_divide(col("slow_host_lost_s"), col("task_time_s"));
    Column named = functions.concat_ws(", ", functions.slice(functions.transform(col("by_loss"),
        x -> x.getField("host")), 1, 3));
    Column speculating = coalesce(col("speculative_tasks"), lit(0L)).gt(0);
    return new RuleCandidate(Rule.SLOW_HOSTS, share,
        evidence("slow_host_share", share, "slow_host_lost_s", col("slow_host_lost_s"), "slow_host_stragglers",
            col("slow_host_stragglers"), "slow_hosts", col("slow_hosts"), "task_time_s", col("task_time_s")),
        try_divide(col("slow_host_lost_s"), SLOTS),
        functions.concat(lit("Stragglers ran on hosts whose other tasks of this application ran slow too (SLOW_HOST: "),
            named, functions.when(col("slow_hosts").gt(3), lit(", ...")).otherwise(lit("")),
            functions.when(speculating, lit("). Speculation is on: check those hosts (hardware, other load, disks)."))
                .otherwise(lit("). Turn on speculation, whose copies of slow tasks run on other hosts, and check"
                    + " those hosts (hardware, other load, disks)."))),
        conf("spark.speculation", onlyIf(not(speculating), "true")))
        .ofApplications(rows.where(col("task_time_s").gt(0)));
  }

  /**
   * What the application's {@code COLD_EXECUTOR} stragglers lost (duration − their stage's median, s) ÷ its task
   * time; a straggler that is {@code SLOW_HOST} too counts for {@link #slowHosts} only, whose fix (another host)
   * removes it. Savings: that time ÷ slots, what warm executors could win back at most. The recommendation: under
   * dynamic allocation a longer idle timeout (executors kept between jobs are not warmed again); otherwise, with fewer
   * than {@value FindingLimits#COLD_TARGET_CORES} cores per executor, the same slots in fewer, larger executors (cores,
   * instances and memory scaled together, so memory per core stays); otherwise no property, only the text.
   */
  static Dataset<Row> coldExecutors(Dataset<Row> apps, Dataset<Row> stragglers) {
    Dataset<Row> lost = stragglers.where(StragglerTable.coldNotSlowHost())
        .groupBy(AppKeyColumns.with())
        .agg(functions.sum(StragglerTable.lostSeconds()).as("cold_lost_s"),
            functions.count(lit(1)).as("cold_stragglers"),
            functions.countDistinct(col("executor_id")).as("cold_executors"));
    Dataset<Row> rows = apps.join(lost, AppKeyColumns.using());
    Column share = try_divide(col("cold_lost_s"), col("task_time_s"));
    Column dynamic = coalesce(col("dynamic_allocation_enabled"), lit(false));
    int target = FindingLimits.COLD_TARGET_CORES;
    Column larger = not(dynamic).and(col("cores_per_executor").lt(target)).and(col("executors").gt(1));
    Column perCore = try_divide(col("executor_memory_bytes"), col("cores_per_executor"));
    return new RuleCandidate(Rule.COLD_EXECUTORS, share,
        evidence("cold_share", share, "cold_lost_s", col("cold_lost_s"), "cold_stragglers", col("cold_stragglers"),
            "cold_executors", col("cold_executors"), "task_time_s", col("task_time_s"), "executors",
            col("executors"), "cores_per_executor", col("cores_per_executor")),
        try_divide(col("cold_lost_s"), SLOTS),
        functions.concat(lit("Stragglers were among their executors' first tasks, which ran slow as a group against"
            + " the tasks of warm executors (COLD_EXECUTOR: class loading, JIT compilation, jars, broadcast variables"
            + " and Python workers fetched or started once per executor). "), functions.when(dynamic,
                lit("Dynamic allocation releases idle executors and warms new ones: keep them longer between jobs."))
            .when(larger, lit("Each executor warms up once: run the same cores in fewer, larger executors."))
            .otherwise(lit("Each executor warms up once: keep executors for longer-lived applications, and for"
                + " PySpark keep spark.python.worker.reuse on."))),
        conf("spark.dynamicAllocation.executorIdleTimeout", onlyIf(dynamic, FindingLimits.COLD_IDLE_TIMEOUT_S + "s"),
            "spark.executor.cores", onlyIf(larger, String.valueOf(target)),
            "spark.executor.instances", onlyIf(larger, ceil(col("executors").multiply(col("cores_per_executor"))
                .divide(target))),
            "spark.executor.memory", onlyIf(larger.and(perCore.isNotNull()), mebibytes(perCore.multiply(target)))))
        .ofApplications(rows.where(col("task_time_s").gt(0)));
  }

  /** Time when no task runs ÷ wall time; savings: the driver-only time above the LOW share. */
  static Dataset<Row> driverBound(Dataset<Row> apps) {
    Column share = try_divide(col("driver_only_s"), col("wall_time_s"));
    return new RuleCandidate(Rule.DRIVER_BOUND, share,
        evidence("driver_share", share, "driver_only_s", col("driver_only_s"), "wall_time_s", col("wall_time_s")),
        greatest(lit(0.0), col("driver_only_s").minus(col("wall_time_s").multiply(FindingLimits.DRIVER_SHARE.low()))),
        lit("Most of the time only the driver works (planning, listing files, collect(), driver-side loops). Move"
            + " the work into Spark jobs or parallelise it."),
        conf())
        .ofApplications(apps.where(col("wall_time_s").geq(FindingLimits.DRIVER_MIN_WALL_S)
            .and(col("driver_only_s").isNotNull())));
  }

  /**
   * The latest ingest of each log that is PARTIAL or does not reconcile its tasks; the metric counts the lost
   * evidence (at least 1); no time savings.
   */
  static Dataset<Row> droppedEvents(Dataset<Row> ingestStatus) {
    Dataset<Row> latest = ingestStatus.join(ingestStatus.groupBy(col(KeyColumns.LOG_ID))
        .agg(max("run_id").as("run_id")), AppKeyColumns.usingLog("run_id"), "left_semi");
    Column unreconciled = col("tasks_reconciled").equalTo(false);
    Column lost = coalesce(col("stages_missing_tasks"), lit(0L)).plus(coalesce(col("task_ends_without_start"),
        lit(0L))).plus(coalesce(col("bad_lines"), lit(0L)));
    return new RuleCandidate(Rule.DROPPED_EVENTS, greatest(lost, lit(1L)),
        evidence("lost_evidence", lost, "stages_missing_tasks", col("stages_missing_tasks"),
            "task_ends_without_start", col("task_ends_without_start"), "bad_lines", col("bad_lines")),
        lit(0.0),
        lit("The log misses events, so task-level figures undercount. Enlarge the listener bus queue and keep the"
            + " event log writer from falling behind."),
        conf("spark.scheduler.listenerbus.eventqueue.capacity",
            onlyIf(unreconciled, String.valueOf(FindingLimits.EVENT_QUEUE_CAPACITY))))
        .ofApplications(latest.where(col(KeyColumns.APP_ID).isNotNull()
            .and(unreconciled.or(col("status").equalTo("PARTIAL")))));
  }
}
