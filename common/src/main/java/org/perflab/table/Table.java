package org.perflab.table;

import static org.perflab.table.Column.count;
import static org.perflab.table.Column.epochMs;
import static org.perflab.table.Column.flag;
import static org.perflab.table.Column.int64;
import static org.perflab.table.Column.integer;
import static org.perflab.table.Column.of;
import static org.perflab.table.Column.string;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The Delta Lake tables that {@code ingest} writes, defined once: {@code docs/tables.md} is generated from here and a
 * test keeps it in step. Every row carries the {@code log_id} of its log, and re-ingesting a log replaces its rows,
 * except in the tables of {@link Keys#CONTENT} rows shared by logs.
 */
public enum Table {
  APPLICATIONS(
      Metrics.NONE,
      "One row per application attempt.",
      string("app_name", "spark.app.name, or the ApplicationStart name."),
      string("spark_version", "Spark version from the LogStart event; null for logs that have none (Spark 1.2)."),
      string("master", "spark.master."),
      string("deploy_mode", "spark.submit.deployMode."),
      string("user", "User who ran the application."),
      epochMs("start_time_ms", "ApplicationStart time."),
      epochMs("end_time_ms", "ApplicationEnd time; for an incomplete log, the time of its last timed event."),
      int64("duration_ms", "ms", "end_time_ms - start_time_ms."),
      flag("completed", "True when the log has an ApplicationEnd event and is not in progress."),
      flag("end_time_derived", "True when end_time_ms comes from the last event rather than ApplicationEnd."),
      integer("executor_instances", "spark.executor.instances; null when not set."),
      integer("executor_cores", "spark.executor.cores; null when not set."),
      int64("executor_memory_bytes", "bytes", "spark.executor.memory; null when not set."),
      int64("executor_memory_overhead_bytes", "bytes", "spark.executor.memoryOverhead; null when not set."),
      int64("driver_memory_bytes", "bytes", "spark.driver.memory; null when not set."),
      integer("task_cpus", "spark.task.cpus; null when not set (Spark's default is 1)."),
      flag("dynamic_allocation_enabled", "spark.dynamicAllocation.enabled (false when not set)."),
      integer("dynamic_allocation_min_executors", "spark.dynamicAllocation.minExecutors; null when not set."),
      integer("dynamic_allocation_max_executors", "spark.dynamicAllocation.maxExecutors; null when not set."),
      integer("max_concurrent_executors", "Most non-driver executors alive at once, from ExecutorAdded/Removed."),
      integer("max_concurrent_cores", "Most executor cores alive at once, from ExecutorAdded/Removed."),
      count("num_jobs", "Jobs started."),
      count("num_stage_attempts", "Rows of this application in the stages table, skipped stages included."),
      count("num_task_attempts", "Rows of this application in the tasks table."),
      string("perflab_workload", "spark.perflab.workload tag of PerfLab's own workloads; null otherwise."),
      string("perflab_scale", "spark.perflab.scale tag."),
      integer("perflab_repetition", "spark.perflab.repetition tag."),
      string("perflab_grid_point", "spark.perflab.grid.point tag."),
      int64("perflab_input_bytes", "bytes", "spark.perflab.input.bytes tag.")),
  JOBS(
      Metrics.NONE,
      "One row per job, with the counts the History Server shows.",
      integer("job_id", "Job id."),
      string("name", "Name of the job's last stage, as the History Server names jobs."),
      string("description", "spark.job.description, redacted."),
      string("job_group", "spark.jobGroup.id."),
      int64("sql_execution_id", "", "spark.sql.execution.id of the SQL execution that ran the job; null if none."),
      epochMs("submission_time_ms", "JobStart time."),
      epochMs("completion_time_ms", "JobEnd time; null if the job never ended in the log."),
      int64("duration_ms", "ms", "completion_time_ms - submission_time_ms."),
      string("status", "SUCCEEDED, FAILED, or RUNNING when the log has no JobEnd."),
      string("failure_reason", "JobFailed exception, redacted."),
      of("stage_ids", DataTypes.createArrayType(DataTypes.IntegerType), "", "Stage ids named in JobStart."),
      count("num_tasks", "Tasks of the stages not yet completed at job start (the History Server's estimate)."),
      count("num_completed_tasks", "Successful task ends of the job's stages."),
      count("num_failed_tasks", "Failed task ends."),
      count("num_killed_tasks", "Killed task ends."),
      count("num_skipped_tasks", "Tasks of skipped stages."),
      count("num_completed_indices", "Distinct successful (stage, partition index) pairs."),
      count("num_completed_stages", "Stages completed."),
      count("num_skipped_stages", "Stages skipped because their output already existed."),
      count("num_failed_stages", "Stage attempts that failed.")),
  STAGES(
      Metrics.STAGE_SUMS,
      "One row per stage attempt, skipped stages included; task metrics summed over task ends as the History Server"
          + " does.",
      integer("stage_id", "Stage id."),
      integer("stage_attempt_id", "Stage attempt number."),
      string("name", "Stage name (call site)."),
      string("description", "spark.job.description at submission, redacted."),
      string("status", "COMPLETE, FAILED, SKIPPED, ACTIVE (submitted, never completed) or PENDING."),
      string("failure_reason", "Stage failure reason, redacted."),
      integer("job_id", "The job that submitted the stage attempt (the first active job naming it)."),
      of("job_ids", DataTypes.createArrayType(DataTypes.IntegerType), "", "Every job that names the stage."),
      of("skipped_in_job_ids", DataTypes.createArrayType(DataTypes.IntegerType), "",
          "Later jobs that reused this stage's output and skipped it. The History Server overwrites the stage with"
              + " SKIPPED in that case; PerfLab keeps the run."),
      of("parent_stage_ids", DataTypes.createArrayType(DataTypes.IntegerType), "", "Parent stage ids."),
      integer("num_tasks", "Declared number of tasks."),
      epochMs("submission_time_ms", "StageSubmitted time."),
      epochMs("first_task_launch_time_ms", "Earliest task launch."),
      epochMs("completion_time_ms", "StageCompleted time."),
      int64("duration_ms", "ms", "completion_time_ms - submission_time_ms."),
      count("num_complete_tasks", "Successful task ends."),
      count("num_failed_tasks", "Failed task ends (Resubmitted included, as in the History Server)."),
      count("num_killed_tasks", "Killed task ends (TaskKilled and TaskCommitDenied)."),
      count("num_completed_indices", "Distinct partition indices that succeeded."),
      count("num_task_ends_without_start", "Task ends whose TaskStart is missing (dropped events)."),
      string("scheduling_pool", "spark.scheduler.pool."),
      integer("resource_profile_id", "Resource profile id; null before Spark 3.1."),
      int64("shuffle_read_bytes", "bytes", "Local plus remote shuffle bytes read, as the History Server sums it."),
      of("rdds", RddInfo.TYPE, "", "RDD lineage of the stage: id, name, scope, parents, partitions, storage level"
          + " and cached sizes from StageCompleted (or StageSubmitted); since Spark 2.0 the stage info logs no cached"
          + " sizes, and they come from the block updates logged before StageCompleted"
          + " (spark.eventLog.logBlockUpdates.enabled), else 0.")),
  TASKS(
      Metrics.TASK_VALUES,
      "One row per task attempt, with every task metric in the unit Spark logs it.",
      integer("stage_id", "Stage id."),
      integer("stage_attempt_id", "Stage attempt."),
      int64("task_id", "", "Task id, unique within the application."),
      integer("task_index", "Partition index within the stage."),
      integer("task_attempt", "Attempt number of this index."),
      integer("partition_id", "Partition id; null before Spark 3.3."),
      string("task_type", "ResultTask or ShuffleMapTask."),
      epochMs("launch_time_ms", "Launch time."),
      epochMs("finish_time_ms", "Finish time; null while running."),
      epochMs("getting_result_time_ms", "Start of result fetch; null if none."),
      int64("duration_ms", "ms", "finish_time_ms - launch_time_ms."),
      string("executor_id", "Executor id (\"driver\" in local mode)."),
      string("host", "Executor host."),
      string("locality", "PROCESS_LOCAL, NODE_LOCAL, NO_PREF, RACK_LOCAL or ANY."),
      flag("speculative", "Speculative copy."),
      string("status", "SUCCESS, FAILED, KILLED, or RUNNING when the log has no TaskEnd."),
      string("end_reason", "Task End Reason class: Success, ExceptionFailure, FetchFailed, TaskKilled, ..."),
      string("failure_reason", "Failure message (class and description), redacted."),
      flag("start_event_seen", "False when the TaskStart event is missing (dropped events).")),
  EXECUTORS(
      Metrics.NONE,
      "One row per executor, the driver included and flagged.",
      string("executor_id", "Executor id."),
      flag("is_driver", "True for the driver."),
      string("host", "Host."),
      string("host_port", "Block manager host:port."),
      integer("total_cores", "Cores, from ExecutorAdded. The driver's row has them only in local mode, where the"
          + " driver runs the tasks (local[N]: N); elsewhere the driver gets no ExecutorAdded and this is null."),
      int64("max_memory_bytes", "bytes", "Storage memory from BlockManagerAdded."),
      int64("max_on_heap_memory_bytes", "bytes", "On-heap storage memory; null before Spark 2.3."),
      int64("max_off_heap_memory_bytes", "bytes", "Off-heap storage memory; null before Spark 2.3."),
      epochMs("add_time_ms", "ExecutorAdded (or BlockManagerAdded) time."),
      epochMs("remove_time_ms", "ExecutorRemoved time; null if still alive at the end of the log."),
      string("remove_reason", "Removal reason, redacted."),
      integer("resource_profile_id", "Resource profile id; null before Spark 3.1."),
      flag("excluded", "Excluded (blacklisted) for failures at some point."),
      count("total_tasks", "Tasks started while the executor was alive."),
      count("completed_tasks", "Successful task ends."),
      count("failed_tasks", "Failed task ends."),
      int64("total_duration_ms", "ms", "Sum of task durations, as the History Server shows it: for the driver, the"
          + " application's uptime."),
      int64("task_time_ms", "ms", "Sum of the durations of the tasks that ended on this executor, driver included."),
      int64("total_gc_time_ms", "ms", "Sum of task JVM GC time, as the History Server shows it: for the driver, the"
          + " driver JVM's TotalGCTime when executor metrics were logged."),
      int64("task_gc_time_ms", "ms", "Sum of task JVM GC time, driver included."),
      int64("total_input_bytes", "bytes", "Sum of task input bytes."),
      int64("total_shuffle_read_bytes", "bytes", "Sum of task local plus remote shuffle bytes read."),
      int64("total_shuffle_write_bytes", "bytes", "Sum of task shuffle bytes written."),
      int64("peak_jvm_heap_bytes", "bytes", "Peak JVMHeapMemory; null when the log has no executor metrics."),
      int64("peak_jvm_off_heap_bytes", "bytes", "Peak JVMOffHeapMemory."),
      int64("peak_on_heap_execution_bytes", "bytes", "Peak OnHeapExecutionMemory."),
      int64("peak_on_heap_storage_bytes", "bytes", "Peak OnHeapStorageMemory."),
      int64("peak_process_tree_jvm_rss_bytes", "bytes", "Peak ProcessTreeJVMRSSMemory."),
      of("peak_executor_metrics", DataTypes.createMapType(DataTypes.StringType, DataTypes.LongType), "",
          "Every peak executor metric by Spark's name (bytes for memory, ms for GC time, counts for GC counts)."),
      count("evicted_rdd_blocks", "RDD blocks its memory store evicted to make room (block updates whose new level no"
          + " longer uses memory); unpersist is not counted. 0 without spark.eventLog.logBlockUpdates.enabled: any"
          + " eviction means storage memory was too small for what the run cached."),
      int64("evicted_rdd_bytes", "bytes", "In-memory bytes of those evicted blocks (the freed size each update"
          + " reports).")),
  PROPERTIES(
      Metrics.NONE,
      "The SPARK properties of each log from EnvironmentUpdate, redacted, one row per key: they differ per application."
          + " The other categories are stored once per distinct set (property_sets, property_set_refs). An output root"
          + " written before property sets holds every category here; read an application's properties through"
          + " EffectiveProperties (see \"One application's environment\" below), which reads both layouts.",
      string("category", "SPARK (or, in a root written before property sets: HADOOP, SYSTEM, JVM or METRICS)."),
      string("key", "Property key."),
      string("value", "Property value, redacted when key or value matches the redaction pattern.")),
  PROPERTY_SET_REFS(
      Metrics.NONE,
      "One row per log and category of its environment other than SPARK (HADOOP, SYSTEM, JVM, METRICS, CLASSPATH from"
          + " EnvironmentUpdate; RESOURCE_PROFILES from ResourceProfileAdded): the content-addressed set in property_sets"
          + " holding that category's redacted properties. A category the log has no properties of has no row.",
      string("category", SharedText.SET_CATEGORY),
      string("set_id", "The set's id in property_sets."),
      count("num_rows", "Properties in the set (its rows in property_sets).")),
  PROPERTY_SETS(
      Keys.CONTENT,
      "One row per property of each distinct set of redacted properties of one category, stored once however many"
          + " logs refer to it (property_set_refs). Rows carry no log_id: a set is shared by logs. Ingest adds a set"
          + " only when no set of its id is stored; it never deletes one.",
      string("set_id", "32 hex digits: the first 128 bits of the SHA-256 of the set's (category, key, value) rows"
          + " sorted by key, each string length-prefixed (UTF-8)."),
      string("category", SharedText.SET_CATEGORY),
      string("key", "Property key."),
      string("value", "Property value, redacted when key or value matches the redaction pattern.")),
  SQL_EXECUTIONS(
      Metrics.NONE,
      "One row per SQL execution.",
      int64("execution_id", "", "SQL execution id."),
      int64("root_execution_id", "", "Root execution id; null before Spark 3.4."),
      string("description", "Description (usually the query text), redacted."),
      string("details", "Call site details, redacted."),
      string("physical_plan", "Physical plan text, the last adaptive update if any, redacted."),
      count("adaptive_plan_updates", "AdaptiveExecutionUpdate events for this execution."),
      epochMs("start_time_ms", "SQLExecutionStart time."),
      epochMs("end_time_ms", "SQLExecutionEnd time; null if it never ended in the log."),
      int64("duration_ms", "ms", "end_time_ms - start_time_ms."),
      string("error_message", "Error message, redacted; null on success."),
      of("job_ids", DataTypes.createArrayType(DataTypes.IntegerType), "", "Jobs run by this execution.")),
  SQL_OPERATORS(
      Metrics.NONE,
      "One row per operator (plan node) of each SQL execution's last plan, with its SQL metrics as the History Server's"
          + " SQL tab shows them: per metric, the sum over the tasks' last successful (else last) updates and the"
          + " driver's updates; for size and time metrics also min, median and max per task. Node ids, clusters and"
          + " edges are the History Server's plan graph's. A metric no task or driver update reported is null.",
      int64("execution_id", "", "SQL execution id (sql_executions.execution_id)."),
      int64("node_id", "", "Plan graph node id, as in the History Server's SQL tab (0 is the root)."),
      string("node_name", "Operator name, e.g. HashAggregate, Exchange, WholeStageCodegen (1), redacted."),
      string("description", "The operator's simple string (its arguments: columns, literals, paths), redacted."),
      flag("is_cluster", "True for a WholeStageCodegen cluster, which groups the operators whose cluster_id it is."),
      int64("cluster_id", "", "node_id of the WholeStageCodegen cluster holding this operator; null outside any."),
      of("child_node_ids", DataTypes.createArrayType(DataTypes.LongType), "",
          "Operators feeding this one (its inputs), empty for leaves and clusters."),
      of("parent_node_ids", DataTypes.createArrayType(DataTypes.LongType), "",
          "Operators this one feeds; more than one for a reused exchange or subquery."),
      count("output_rows", "Total of the 'number of output rows' metric; null when the operator has none."),
      count("input_rows", "Sum of output_rows over child_node_ids; null when no child reports output rows."),
      int64("time_ms", "ms", "Sum of the operator's timing metric totals (nsTiming ones converted to ms, rounded"
          + " down): task time summed over tasks. A cluster's is its 'duration', which includes the time of the"
          + " operators inside it. Null when the operator has no time metric with a value."),
      int64("spill_bytes", "bytes", "Total of the 'spill size' metric; null when the operator has none."),
      of("metrics", DataTypes.createMapType(DataTypes.StringType, DataTypes.LongType), "",
          "Every metric with a total, by metric name, in its own unit (see metric_values)."),
      of("metric_values", SqlMetricInfo.TYPE, "", "Every metric of the operator in plan order: name, metric_type"
          + " (sum, size = bytes, timing = ms, nsTiming = ns, average = tenths), accumulator_id, total (null for"
          + " average), min, median and max per task (sorted value at n/2; null for sum metrics), and num_values"
          + " (values aggregated: one per task of every stage that reported it, 0 for its tasks that did not, plus one"
          + " per driver update). All null when nothing reported the metric.")),
  INGEST_STATUS(
      Metrics.NONE,
      "One row per log seen by ingest, whether or not it could be read.",
      string("log_path", "Fully qualified path of the log file or directory."),
      string("layout", "SINGLE_FILE, ROLLING_DIRECTORY or LEGACY_DIRECTORY."),
      string("codec", "NONE, LZ4, LZF, SNAPPY or ZSTD."),
      int64("log_bytes", "bytes", "Size on storage; for a rolling directory, the sum of its parts."),
      epochMs("modification_time_ms", "Modification time; for a rolling directory, the latest of its parts."),
      flag("in_progress", "The log was still being written."),
      string("status", "OK, PARTIAL, FAILED or SKIPPED."),
      string("reason", "Why the status is not OK; null when OK."),
      string("spark_version", "Spark version the log declares."),
      count("events", "Events read and used."),
      count("unknown_events", "Events of types PerfLab does not know; they are skipped and the log stays OK."),
      count("bad_lines", "Lines that are not valid JSON or lack a required field."),
      of("first_bad_lines", DataTypes.createArrayType(DataTypes.LongType), "line number",
          "Up to 10 first bad line numbers (1-based, across rolling parts)."),
      of("problems", DataTypes.createMapType(DataTypes.StringType, DataTypes.LongType), "count",
          "Bad lines by reason."),
      flag("truncated_last_line", "The last line had no newline and could not be parsed."),
      flag("tasks_reconciled", "Every completed stage has as many successful partitions as declared tasks, and no"
          + " task end lacks its start; false points at dropped events."),
      count("stages_missing_tasks", "Completed stages with fewer successful partitions than declared tasks."),
      count("task_ends_without_start", "Task ends whose TaskStart is missing."),
      string("superseded_by", "For a SKIPPED duplicate: the log of the same application attempt that was kept."),
      epochMs("ingested_at_ms", "When this log was ingested."),
      string("run_id", "The ingest run that wrote this row, such as 20261125T103000123Z-3f9a1c: its start in UTC,"
          + " then a random suffix. Ids sort in run order: the logs that changed since run R are those with"
          + " run_id > 'R'."));

  /** Descriptions that two tables share, written once so that they cannot drift apart. */
  private static final class SharedText {
    /** The category column of property_set_refs and property_sets. */
    static final String SET_CATEGORY = "HADOOP, SYSTEM, JVM, METRICS, CLASSPATH (the class path: an entry's path as key, how it"
        + " was added as value) or RESOURCE_PROFILES (Spark 3.1+: <profile id>.executor.<resource>.amount,"
        + " .discoveryScript and .vendor, <profile id>.task.<resource>.amount, as the History Server's REST API"
        + " names them).";
  }

  private final Keys keys;
  private final String description;
  private final List<Column> columns;
  private final Map<String, Integer> indexByName = new HashMap<>();
  private final StructType schema;

  /** What a table's rows are keyed by. */
  public enum Keys {
    /** Rows of one log: the table starts with {@link KeyColumns#ALL}, and re-ingesting a log replaces its rows. */
    LOG,
    /** Rows shared by logs, addressed by their content: no key columns; rows are only ever added. */
    CONTENT
  }

  /** Whether a table carries one column per {@link TaskMetric}, and what the values mean. */
  enum Metrics {
    NONE,
    TASK_VALUES,
    STAGE_SUMS
  }

  Table(Metrics metrics, String description, Column... ownColumns) {
    this(Keys.LOG, metrics, description, ownColumns);
  }

  Table(Keys keys, String description, Column... ownColumns) {
    this(keys, Metrics.NONE, description, ownColumns);
  }

  Table(Keys keys, Metrics metrics, String description, Column... ownColumns) {
    this.keys = keys;
    this.description = description;
    List<Column> all = new ArrayList<>(keys == Keys.LOG ? KeyColumns.ALL : List.of());
    all.addAll(Arrays.asList(ownColumns));
    if (metrics != Metrics.NONE) {
      String meaning = metrics == Metrics.STAGE_SUMS ? "Sum over the stage's task ends of" : "Task metric";
      for (TaskMetric metric : TaskMetric.values()) {
        all.add(metric.asColumn(meaning));
      }
    }
    this.columns = List.copyOf(all);
    for (int i = 0; i < columns.size(); i++) {
      indexByName.put(columns.get(i).name(), i);
    }
    this.schema = new StructType(columns.stream().map(Column::field).toArray(StructField[]::new));
  }

  /** The directory name under the output root, e.g. {@code sql_executions}. */
  public String tableName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** What the table's rows are keyed by: a log ({@code log_id} first), or their content. */
  public Keys keys() {
    return keys;
  }

  public String description() {
    return description;
  }

  public List<Column> columns() {
    return columns;
  }

  public StructType schema() {
    return schema;
  }

  /** Position of a column in {@link #columns()}; throws when the table has no such column. */
  public int indexOf(String column) {
    Integer index = indexByName.get(column);
    if (index == null) {
      throw new IllegalArgumentException("Cannot find column: " + tableName() + " has no column " + column);
    }
    return index;
  }

  /** A new empty row of this table. */
  public TableRow newRow() {
    return new TableRow(this, new Object[columns.size()]);
  }
}
