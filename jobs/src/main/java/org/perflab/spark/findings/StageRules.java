package org.perflab.spark.findings;

import org.perflab.findings.FindingLimits;
import org.perflab.findings.Rule;
import static org.apache.spark.sql.functions.broadcast;
import static org.apache.spark.sql.functions.ceil;
import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.concat;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.greatest;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.not;
import static org.apache.spark.sql.functions.try_divide;
import static org.apache.spark.sql.functions.when;
import static org.perflab.spark.findings.RuleCandidate.conf;
import static org.perflab.spark.findings.RuleCandidate.evidence;
import static org.perflab.spark.findings.RuleCandidate.mebibytes;
import static org.perflab.spark.findings.RuleCandidate.onlyIf;

import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.perflab.spark.storage.AppKeyColumns;
import org.perflab.table.KeyColumns;

/**
 * The stage rules over {@code stage_features}, with the application's {@code shuffle_partitions} and
 * {@code executor_memory_bytes} from {@code app_features} (as {@code app_shuffle_partitions} and
 * {@code app_executor_memory_bytes}). Stage slots are {@code stage_features.slots}; when unknown, savings count 1.
 */
final class StageRules {
  private static final String ADAPTIVE = "spark.sql.adaptive.enabled";
  static final String SHUFFLE_PARTITIONS = "spark.sql.shuffle.partitions";
  static final String DEFAULT_PARALLELISM = "spark.default.parallelism";
  private static final Column TASKS = coalesce(col("num_tasks").cast("long"), col("tasks"));
  private static final Column SLOTS = coalesce(col("slots"), lit(1));

  private StageRules() {}

  /**
   * Every stage rule's findings; {@code outsideSql} ({@link OutsideSql#stages}) names the stages that ran outside Spark
   * SQL, which {@code SHUFFLE_PARTITIONS} (a rule on {@code spark.sql.shuffle.partitions}) leaves out;
   * {@code staticMemory} ({@link StaticMemory#of}) the logs whose runs had the static memory manager.
   */
  static List<Dataset<Row>> of(FindingInputs in, Dataset<Row> outsideSql, Dataset<Row> staticMemory) {
    Dataset<Row> stages = withApp(in).join(outsideSql, AppKeyColumns.using("stage_id", "stage_attempt_id"), "left")
        .withColumn(OutsideSql.FLAG, coalesce(col(OutsideSql.FLAG), lit(false)))
        .join(broadcast(staticMemory), new String[] {KeyColumns.LOG_ID}, "left");
    return List.of(skew(withStragglers(stages, in.stragglers())), tinyTasks(stages), tooFewPartitions(stages),
        shufflePartitions(stages), spill(stages));
  }

  private static Dataset<Row> withApp(FindingInputs in) {
    Dataset<Row> app = in.appFeatures().select(col(KeyColumns.LOG_ID), col(KeyColumns.APP_ID),
        col(KeyColumns.APP_ATTEMPT_ID), col("shuffle_partitions").as("app_shuffle_partitions"),
        col("executor_memory_bytes").as("app_executor_memory_bytes"));
    return in.stageFeatures().join(app, AppKeyColumns.using(), "left");
  }

  private static Dataset<Row> withStragglers(Dataset<Row> stages, Optional<Dataset<Row>> stragglers) {
    if (stragglers.isEmpty()) {
      return stages.withColumn("stragglers", lit(null).cast("long"));
    }
    Dataset<Row> counts = stragglers.get().groupBy(AppKeyColumns.with("stage_id", "stage_attempt_id"))
        .agg(count(lit(1)).as("stragglers"));
    return stages.join(counts, AppKeyColumns.using("stage_id", "stage_attempt_id"), "left")
        .withColumn("stragglers", coalesce(col("stragglers"), lit(0L)));
  }

  /** Max ÷ median task input or shuffle-read bytes; savings: the longest task's time above the median task's. */
  static Dataset<Row> skew(Dataset<Row> stages) {
    Column ratio = greatest(col("input_max_over_median"), col("shuffle_read_max_over_median"));
    return new RuleCandidate(Rule.DATA_SKEW, ratio,
        evidence("max_over_median", ratio, "input_max_over_median", col("input_max_over_median"),
            "shuffle_read_max_over_median", col("shuffle_read_max_over_median"),
            "duration_max_over_median", col("duration_max_over_median"), "duration_max_ms", col("duration_max_ms"),
            "duration_p50_ms", col("duration_p50_ms"), "stragglers", col("stragglers")),
        col("duration_max_ms").minus(col("duration_p50_ms")).divide(1000.0),
        lit("A few tasks read far more data than their peers. Let AQE split skewed join partitions, or salt or"
            + " repartition the skewed key."),
        conf(ADAPTIVE, "true", "spark.sql.adaptive.skewJoin.enabled", "true"))
        .ofStages(stages.where(TASKS.geq(FindingLimits.SKEW_MIN_TASKS)
            .and(col("duration_max_ms").geq(FindingLimits.SKEW_MIN_MAX_TASK_MS))));
  }

  /**
   * Median task time; savings: the per-task overhead of the tasks beyond those a stage of
   * {@link FindingLimits#TINY_TARGET_TASK_MS} tasks would need, spread over the slots.
   */
  static Dataset<Row> tinyTasks(Dataset<Row> stages) {
    Column target = greatest(SLOTS.cast("long"),
        ceil(col("task_time_ms").cast("double").divide(FindingLimits.TINY_TARGET_TASK_MS)));
    Column extra = greatest(lit(0L), TASKS.minus(target));
    return new RuleCandidate(Rule.TINY_TASKS, col("duration_p50_ms"),
        evidence("duration_p50_ms", col("duration_p50_ms"), "tasks", TASKS, "slots", col("slots"),
            "target_tasks", target),
        try_divide(extra.multiply(FindingLimits.TASK_OVERHEAD_MS), SLOTS).divide(1000.0),
        lit("Tasks are so short that scheduling overhead dominates. Use fewer, larger partitions: let AQE coalesce"
            + " shuffle partitions, lower spark.sql.shuffle.partitions, or coalesce() small inputs."),
        conf(ADAPTIVE, "true", "spark.sql.adaptive.coalescePartitions.enabled", "true",
            SHUFFLE_PARTITIONS, onlyIf(col("shuffle_read_bytes").gt(0), target)))
        .ofStages(stages.where(TASKS.geq(FindingLimits.TINY_MIN_TASKS)
            .and(TASKS.geq(SLOTS.multiply(2)))));
  }

  /** Slots ÷ tasks in long stages; savings: the stage time the idle slots could have taken. */
  static Dataset<Row> tooFewPartitions(Dataset<Row> stages) {
    Column ratio = try_divide(col("slots").cast("double"), TASKS);
    Column recommended = col("slots").multiply(FindingLimits.TASKS_PER_SLOT);
    Column inputOnly = col("shuffle_read_bytes").equalTo(0).and(col("input_bytes").gt(0));
    Column partitionBytes = greatest(lit(1L << 20),
        ceil(try_divide(col("input_bytes").cast("double"), recommended)).cast("long"));
    return new RuleCandidate(Rule.TOO_FEW_PARTITIONS, ratio,
        evidence("slots_over_tasks", ratio, "tasks", TASKS, "slots", col("slots"), "duration_ms",
            col("duration_ms")),
        col("duration_ms").multiply(lit(1.0).minus(try_divide(TASKS.cast("double"), col("slots")))).divide(1000.0),
        lit("A long stage has fewer tasks than slots, so cores sit idle. Raise its partition count to about "
            + FindingLimits.TASKS_PER_SLOT + " tasks per slot."),
        conf(SHUFFLE_PARTITIONS, onlyIf(col("shuffle_read_bytes").gt(0), recommended),
            DEFAULT_PARALLELISM, onlyIf(col("shuffle_read_bytes").gt(0), recommended),
            "spark.sql.files.maxPartitionBytes", onlyIf(inputOnly, partitionBytes)))
        .ofStages(stages.where(col("slots").isNotNull().and(TASKS.gt(0))
            .and(col("duration_ms").geq(FindingLimits.FEW_MIN_STAGE_MS))));
  }

  /**
   * How far shuffle bytes per partition are from the 128 MiB target, for stages whose task count is the
   * application's spark.sql.shuffle.partitions (default 200), except stages known to run outside Spark SQL (whose
   * task count that setting does not choose); savings: the overhead of the surplus tasks.
   */
  static Dataset<Row> shufflePartitions(Dataset<Row> stages) {
    Column partitions = coalesce(col("app_shuffle_partitions"), lit(FindingLimits.DEFAULT_SHUFFLE_PARTITIONS));
    double target = FindingLimits.SHUFFLE_TARGET_PARTITION_BYTES;
    Column perPartition = try_divide(col("shuffle_read_bytes").cast("double"), TASKS);
    Column factor = greatest(try_divide(lit(target), perPartition), perPartition.divide(target));
    Column recommended = greatest(SLOTS.cast("long"), ceil(col("shuffle_read_bytes").cast("double").divide(target)));
    return new RuleCandidate(Rule.SHUFFLE_PARTITIONS, factor,
        evidence("factor_off_target", factor, "bytes_per_partition", perPartition, "partitions", TASKS,
            "shuffle_read_bytes", col("shuffle_read_bytes"), "recommended_partitions", recommended),
        try_divide(greatest(lit(0L), TASKS.minus(recommended)).multiply(FindingLimits.TASK_OVERHEAD_MS), SLOTS)
            .divide(1000.0),
        lit("spark.sql.shuffle.partitions does not fit the data: aim at about 128 MiB per shuffle partition, or let"
            + " AQE coalesce partitions."),
        conf(SHUFFLE_PARTITIONS, recommended, "spark.sql.adaptive.coalescePartitions.enabled", "true"))
        .ofStages(stages.where(col("shuffle_read_bytes").gt(0).and(TASKS.equalTo(partitions))
            .and(not(col(OutsideSql.FLAG)))
            .and(recommended.notEqual(TASKS))));
  }

  /**
   * Memory-spilled bytes ÷ the largest of input, shuffle read and shuffle write; savings: writing and reading back
   * the disk spill at {@link FindingLimits#SPILL_DISK_BYTES_PER_S}, spread over the slots. Under the static memory
   * manager ({@link StaticMemory}) the settings also move memory from storage to shuffle.
   */
  static Dataset<Row> spill(Dataset<Row> stages) {
    Column processed = greatest(col("input_bytes"), col("shuffle_read_bytes"), col("shuffle_write_bytes"));
    Column ratio = try_divide(col("memory_spilled_bytes").cast("double"), processed);
    Column partitions = coalesce(col("app_shuffle_partitions"), lit(FindingLimits.DEFAULT_SHUFFLE_PARTITIONS));
    return new RuleCandidate(Rule.SPILL, ratio,
        evidence("spill_ratio", ratio, "memory_spilled_bytes", col("memory_spilled_bytes"), "disk_spilled_bytes",
            col("disk_spilled_bytes"), "processed_bytes", processed),
        try_divide(col("disk_spilled_bytes").multiply(2.0).divide(FindingLimits.SPILL_DISK_BYTES_PER_S), SLOTS),
        concat(lit("Tasks spill execution memory to disk. Give each task more memory (more executor memory or fewer"
            + " cores per executor) or split the data into more partitions."),
            when(col(StaticMemory.SHUFFLE).isNotNull(), lit(StaticMemory.ADVICE)).otherwise(lit(""))),
        conf("spark.executor.memory", mebibytes(col("app_executor_memory_bytes").multiply(
            FindingLimits.MEMORY_INCREASE)),
            SHUFFLE_PARTITIONS, onlyIf(col("shuffle_read_bytes").gt(0), partitions.multiply(2)),
            StaticMemory.SHUFFLE_KEY, col(StaticMemory.SHUFFLE), StaticMemory.STORAGE_KEY, col(StaticMemory.STORAGE)))
        .ofStages(stages.where(col("memory_spilled_bytes").gt(0).and(processed.gt(0))));
  }
}
