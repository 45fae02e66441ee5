package org.perflab.spark.memory;

import org.perflab.memory.FrameworkNeeds;
import org.perflab.memory.LineageTrace;
import org.perflab.eventlog.SparkVersion;
import org.perflab.memory.MemoryManager;
import org.perflab.memory.TraceAnalysis;
import org.perflab.memory.WorkerMemory;
import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.collect_list;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.desc;
import static org.apache.spark.sql.functions.least;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.not;
import static org.apache.spark.sql.functions.row_number;
import static org.apache.spark.sql.functions.struct;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.when;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.sql.Column;
import org.perflab.spark.sampling.SeededUniform;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.expressions.Window;
import org.apache.spark.sql.types.DataTypes;
import org.perflab.memory.LineageTrace.RddNode;
import org.perflab.memory.LineageTrace.StageLineage;
import org.perflab.memory.LineageTrace.TaskRun;
import org.perflab.spark.memory.MemoryTables.Scope;
import org.perflab.spark.storage.TableStore;
import org.perflab.table.KeyColumns;

/**
 * Tier A recommendations, one row per application attempt of the ingest tables: the lineage trace of its stages and
 * successful tasks ({@link LineageTrace}), its stack analysis, the per-worker minimums for the workers and task slots it
 * ran with, and the Spark settings with the safety factor as GC headroom. An application with no successful task or no
 * executor with cores gets a row with a reason and null sizes.
 *
 * <p>State per application is bounded: an application of more than {@link MemoryParams#replayedTasks()} successful
 * tasks replays only the tasks of a sample of partition indices (every stage's tasks at the indices whose seeded hash
 * falls under the rate {@code replayedTasks / tasks}), so that a partition's reads and writes stay together, as
 * SHARDS samples blocks (Waldspurger et al., FAST 2015); the RDD and page-cache sizes of the sample and its miss bytes
 * are divided by the rate. The largest task execution needs are exact (the {@link #TOP} largest, ranked in Spark).
 * An application under the bound replays every task, as before. docs/memory.md, "Applications of any size".
 */
public final class ApplicationMemory {
  static final String NO_TASK = "no successful task: nothing to replay";
  static final String NO_EXECUTORS = "no executor information: no executor (or local driver) with cores in the log";
  /**
   * The reason of an application whose execution memory nothing bounds: its log cannot record a task's Peak Execution
   * Memory ({@link #peakLogged}) and no task spilled, so its tasks' execution needs are unknown rather than 0, and a
   * heap sized without them could be far too small. Its sizes are kept, its settings left null.
   */
  static final String NO_EXECUTION_METRIC = "execution memory unknown: the log (Spark before 2.0) records no Peak"
      + " Execution Memory and no task spilled, so nothing bounds what its tasks needed (sizes kept, no settings)";
  /** The first Spark version, major × 100 + minor, whose logs record every task's non-zero Peak Execution Memory. */
  static final int PEAK_LOGGED_SINCE = 200;
  /** The top sizes kept per application: enough for any realistic number of task slots per worker. */
  static final int TOP = 512;
  /** The seed of the partition-index sample of applications over the bound. */
  static final long SAMPLE_SEED = 26;

  private ApplicationMemory() {}

  /**
   * The recommendation rows (schema {@link MemoryTables#RECOMMENDATIONS}, scope application) of the applications in
   * the ingest tables {@code applications}, {@code stages}, {@code tasks} and {@code executors}.
   */
  public static Dataset<Row> of(Dataset<Row> applications, Dataset<Row> stages, Dataset<Row> tasks,
      Dataset<Row> executors, MemoryParams params) {
    Dataset<Row> lineage = stages.groupBy(KeyColumns.LOG_ID)
        .agg(collect_list(struct(col("stage_id"), col("parent_stage_ids"), col("rdds"))).as("lineage"));
    Dataset<Row> successful = tasks.where(col("status").equalTo("SUCCESS"));
    Dataset<Row> rates = successful.groupBy(KeyColumns.LOG_ID).agg(count(lit(1)).as("successful_tasks"),
            count(col("peak_execution_memory_bytes")).as("peak_tasks"),
            sum(coalesce(col("memory_spilled_bytes"), lit(0L))).as("spilled_bytes"))
        .withColumn("replay_rate", least(lit(1.0), lit((double) params.replayedTasks()).divide(
            col("successful_tasks"))));
    Dataset<Row> runs = successful.join(rates, KeyColumns.LOG_ID)
        .where(col("replay_rate").geq(1.0).or(indexHash().lt(col("replay_rate"))))
        .groupBy(KeyColumns.LOG_ID)
        .agg(collect_list(struct(col("stage_id"), col("task_index"), col("task_id"),
            coalesce(col("launch_time_ms"), lit(0L)), coalesce(col("peak_execution_memory_bytes"), lit(0L)),
            coalesce(col("memory_spilled_bytes"), lit(0L)), coalesce(col("shuffle_write_bytes"), lit(0L)),
            coalesce(col("finish_time_ms"), col("launch_time_ms"), lit(0L))))
            .as("runs"));
    Dataset<Row> sampledTop = topExecution(successful.join(rates.where(col("replay_rate").lt(1.0)),
        KeyColumns.LOG_ID));
    Dataset<Row> slots = executors.where(col("total_cores").isNotNull()).groupBy(KeyColumns.LOG_ID).agg(
        sum(when(not(col("is_driver")), 1).otherwise(0)).as("executors_seen"),
        max(when(not(col("is_driver")), col("total_cores"))).as("executor_cores"),
        max(when(col("is_driver"), col("total_cores"))).as("driver_cores"),
        sum(TableStore.columnOrNull(executors, "evicted_rdd_blocks", DataTypes.LongType)).as("evicted_rdd_blocks"),
        sum(TableStore.columnOrNull(executors, "evicted_rdd_bytes", DataTypes.LongType)).as("evicted_rdd_bytes"));
    Dataset<Row> apps = applications.select(col(KeyColumns.LOG_ID), col(KeyColumns.APP_ID),
        col(KeyColumns.APP_ATTEMPT_ID), col("completed"), col("master"), col("max_concurrent_executors"), col("task_cpus"),
        TableStore.columnOrNull(applications, "spark_version", DataTypes.StringType).as("spark_version"),
        TableStore.columnOrNull(applications, MemoryTables.LEGACY_MODE, DataTypes.BooleanType)
            .as(MemoryTables.LEGACY_MODE));
    Dataset<Row> joined = apps.join(lineage, KeyColumns.LOG_ID, "left").join(runs, KeyColumns.LOG_ID, "left")
        .join(slots, KeyColumns.LOG_ID, "left").join(rates, KeyColumns.LOG_ID, "left")
        .join(sampledTop, KeyColumns.LOG_ID, "left");
    return joined.map((MapFunction<Row, Row>) row -> recommend(row, params), Encoders.row(MemoryTables.RECOMMENDATIONS));
  }

  /** A seeded hash of a task's partition index, uniform in [0, 1): the same for the index in every stage. */
  private static Column indexHash() {
    return SeededUniform.of(SAMPLE_SEED, col("task_index"));
  }

  /** Per log, the {@link #TOP} largest execution needs (peak plus spilled memory) of its successful tasks. */
  private static Dataset<Row> topExecution(Dataset<Row> successful) {
    Column need = coalesce(col("peak_execution_memory_bytes"), lit(0L))
        .plus(coalesce(col("memory_spilled_bytes"), lit(0L)));
    return successful.select(col(KeyColumns.LOG_ID), need.as("need"))
        .withColumn("rank", row_number().over(Window.partitionBy(KeyColumns.LOG_ID).orderBy(desc("need"))))
        .where(col("rank").leq(TOP))
        .groupBy(KeyColumns.LOG_ID).agg(collect_list("need").as("top_execution"));
  }

  private static Row recommend(Row app, MemoryParams params) {
    String logId = app.getAs(KeyColumns.LOG_ID);
    String appId = app.getAs(KeyColumns.APP_ID);
    String attempt = app.getAs(KeyColumns.APP_ATTEMPT_ID);
    List<Row> runs = list(app, "runs");
    if (runs.isEmpty()) {
      return MemoryRows.unrecommended(Scope.APPLICATION, null, logId, appId, attempt, NO_TASK);
    }
    int[] slots = slots(app, runs);
    if (slots == null) {
      return MemoryRows.unrecommended(Scope.APPLICATION, null, logId, appId, attempt, NO_EXECUTORS);
    }
    LineageTrace.Synthesis synthesis = LineageTrace.of(stages(list(app, "lineage")), tasks(runs));
    double rate = app.<Double>getAs("replay_rate");
    long[] execution = rate < 1 ? top(MemoryRows.<Long>listOf(app, "top_execution").stream()
        .mapToLong(Long::longValue).toArray()) : top(synthesis.taskExecutionBytes());
    TraceAnalysis analysis = scaled(TraceAnalysis.of(synthesis.accesses(), top(synthesis.partitionBytes()),
        execution, params.smallBroadcastBytes()), rate);
    Sizing sizing = new Sizing(analysis, slots[0], slots[1], rate);
    Boolean legacyMode = app.getAs(MemoryTables.LEGACY_MODE);
    MemoryManager manager = MemoryManager.of(app.getAs("spark_version"), Boolean.TRUE.equals(legacyMode));
    MemoryRows.Key key = new MemoryRows.Key(Scope.APPLICATION, null, logId, appId, attempt, 1);
    if (!peakLogged(app) && app.<Long>getAs("spilled_bytes") == 0) {
      return MemoryRows.unsized(key, sizing.sizes(), evidence(synthesis, analysis, sizing, app, null), manager,
          NO_EXECUTION_METRIC);
    }
    return MemoryRows.recommended(key, sizing.sizes(), params.safetyFactor(),
        evidence(synthesis, analysis, sizing, app, params.safetyFactor()), manager);
  }

  /**
   * The analysis of a partition-index sample at {@code rate} as the whole application's: the RDD, broadcast and
   * page-cache no-miss sizes divided by the rate (an LRU stack distance over a sample of the blocks is about the rate
   * times the full one); partition and execution sizes as they are. Unchanged at rate 1.
   */
  private static TraceAnalysis scaled(TraceAnalysis a, double rate) {
    if (rate >= 1) {
      return a;
    }
    FrameworkNeeds n = a.needs();
    return new TraceAnalysis(a.rdd(), a.broadcast(), a.shuffle(), new FrameworkNeeds(Math.round(n.rddNoMissBytes()
        / rate), Math.round(n.broadcastNoMissBytes() / rate), Math.round(n.shuffleNoMissBytes() / rate),
        n.partitionBytes(), n.taskExecutionBytes()));
  }

  /**
   * The sizes of one recommendation.
   *
   * @param analysis the stack analysis (for workload rows: of the application with the largest storage need)
   * @param workers W
   * @param tasksPerWorker K
   * @param rate the share of partition indices replayed (1: every task); the analysis's needs are already scaled
   */
  record Sizing(TraceAnalysis analysis, int workers, int tasksPerWorker, double rate) {
    WorkerMemory worker() {
      return WorkerMemory.of(analysis.needs(), workers, tasksPerWorker);
    }

    /** Per-worker storage if every partition count doubled (reference 004 §2.7), bytes. */
    long storageAtTwicePartitions() {
      return WorkerMemory.of(analysis.needs().repartitioned(1, 2), workers, tasksPerWorker).storageBytes();
    }

    /** Crude recomputation at 80 % of the RDD cache's no-miss size (the miss curve), bytes. */
    long recomputeAt80Percent() {
      if (rate >= 1) {
        return analysis.rdd().missBytes((long) (0.8 * analysis.needs().rddNoMissBytes()));
      }
      return Math.round(analysis.rdd().missBytes((long) (0.8 * analysis.needs().rddNoMissBytes() * rate)) / rate);
    }

    MemoryRows.Sizes sizes() {
      FrameworkNeeds needs = analysis.needs();
      return new MemoryRows.Sizes(worker(), needs.rddNoMissBytes(), needs.broadcastNoMissBytes(),
          needs.largestPartitionBytes(), workers, tasksPerWorker, recomputeAt80Percent(), storageAtTwicePartitions());
    }
  }

  /**
   * {W, K}, or null when the log has no executor with cores. A local master's driver runs the tasks: {@code local[N]}
   * has N slots; {@code local[*]} (whose core count old logs do not record) has as many as tasks ever ran at once.
   */
  private static int[] slots(Row app, List<Row> runs) {
    Long seen = app.getAs("executors_seen");
    Integer executorCores = app.getAs("executor_cores");
    Integer driverCores = app.getAs("driver_cores");
    Integer taskCpus = app.getAs("task_cpus");
    int cpusPerTask = taskCpus == null || taskCpus < 1 ? 1 : taskCpus;
    if (seen != null && seen > 0 && executorCores != null) {
      Integer concurrent = app.getAs("max_concurrent_executors");
      int workers = concurrent != null && concurrent > 0 ? concurrent : seen.intValue();
      return new int[] {workers, Math.max(1, executorCores / cpusPerTask)};
    }
    if (driverCores != null && driverCores > 0) {
      return new int[] {1, Math.max(1, driverCores / cpusPerTask)};
    }
    String master = app.getAs("master");
    if ("local[*]".equals(master) || (master != null && master.startsWith("local[*,"))) {
      return new int[] {1, maxConcurrent(runs)};
    }
    Integer localThreads = localThreads(master);
    return localThreads == null ? null : new int[] {1, Math.max(1, localThreads / cpusPerTask)};
  }

  /** The most tasks running at once, from launch and finish times (a task ending at t frees its slot for t). */
  static int maxConcurrent(List<Row> runs) {
    long[][] events = new long[runs.size() * 2][];
    for (int i = 0; i < runs.size(); i++) {
      events[2 * i] = new long[] {runs.get(i).getLong(3), 1};
      events[2 * i + 1] = new long[] {runs.get(i).getLong(7), -1};
    }
    Arrays.sort(events, (a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
    int running = 0;
    int most = 1;
    for (long[] e : events) {
      running += (int) e[1];
      most = Math.max(most, running);
    }
    return most;
  }

  /**
   * The task threads of a local master, for logs whose driver has no cores (before Spark 3): {@code local} is 1,
   * {@code local[N]} and {@code local[N,F]} are N; {@code local[*]} and any other master are unknown (null).
   */
  static Integer localThreads(String master) {
    if ("local".equals(master)) {
      return 1;
    }
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("local\\[(\\d+)(,\\d+)?]").matcher(
        master == null ? "" : master);
    return m.matches() ? Integer.valueOf(m.group(1)) : null;
  }

  private static List<StageLineage> stages(List<Row> rows) {
    List<StageLineage> out = new ArrayList<>(rows.size());
    for (Row s : rows) {
      List<RddNode> rdds = new ArrayList<>();
      for (Row r : MemoryRows.<Row>listOf(s, "rdds")) {
        String level = r.getAs("storage_level");
        rdds.add(new RddNode(r.<Integer>getAs("rdd_id"), MemoryRows.listOf(r, "parent_ids"),
            intOr0(r.getAs("num_partitions")), intOr0(r.getAs("num_cached_partitions")),
            level != null && level.contains("Memory"), longOr0(r.getAs("memory_size_bytes")),
            longOr0(r.getAs("disk_size_bytes"))));
      }
      out.add(new StageLineage(s.<Integer>getAs("stage_id"), MemoryRows.listOf(s, "parent_stage_ids"), rdds));
    }
    return out;
  }

  private static List<TaskRun> tasks(List<Row> rows) {
    List<TaskRun> out = new ArrayList<>(rows.size());
    for (Row t : rows) {
      out.add(new TaskRun(t.getInt(0), t.getInt(1), t.getLong(2), t.getLong(3), t.getLong(4), t.getLong(5),
          t.getLong(6)));
    }
    return out;
  }

  private static List<Row> list(Row row, String field) {
    return row.isNullAt(row.fieldIndex(field)) ? List.of() : MemoryRows.listOf(row, field);
  }

  /** The {@link #TOP} largest values: all that top-K sums and the largest partition need. */
  static long[] top(long[] values) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    int from = Math.max(0, sorted.length - TOP);
    return Arrays.copyOfRange(sorted, from, sorted.length);
  }

  /**
   * Whether the application's tasks' Peak Execution Memory is known: some task reports it, or the log is of Spark 2.0
   * or later, whose tasks log it as an accumulable whenever it is not zero (SPARK-12895, SPARK-12837; in the task
   * metrics themselves from 3.0), so that a task without one had none. Spark 1.x logs (and those without a version,
   * 1.2 and earlier) never record it.
   */
  static boolean peakLogged(Row app) {
    return app.<Long>getAs("peak_tasks") > 0 || SparkVersion.minor(app.getAs("spark_version")) >= PEAK_LOGGED_SINCE;
  }

  /** The evidence of an application's row; {@code safetyFactor} the heap's, null for a row without a heap. */
  private static String evidence(LineageTrace.Synthesis s, TraceAnalysis a, Sizing sizing, Row app,
      Double safetyFactor) {
    Boolean completed = app.getAs("completed");
    List<String> parts = new ArrayList<>();
    parts.add(String.format("tier A from event-log lineage: %d tasks replayed, %d accesses, %d RDD re-reads,"
        + " %d cached partitions", s.taskExecutionBytes().length, s.accesses().size(), a.rdd().reads(),
        s.partitionBytes().length));
    if (sizing.rate() < 1) {
      parts.add(String.format(java.util.Locale.ROOT, "the tasks of a sample of partition indices were replayed: %d"
          + " of %d (rate %.5f); cache sizes divided by the rate", s.taskExecutionBytes().length,
          app.<Long>getAs("successful_tasks"), sizing.rate()));
    }
    parts.add(String.format("W=%d workers x K=%d task slots", sizing.workers(), sizing.tasksPerWorker()));
    if (!peakLogged(app)) {
      parts.add("no task reports Peak Execution Memory: execution needs are the spilled bytes alone, a lower bound");
    }
    parts.add("broadcasts not in event logs (broadcast_bytes 0)");
    if (s.unknownShapes() > 0) {
      parts.add(s.unknownShapes() + " dependencies of unknown shape read as whole parents");
    }
    if (s.unsizedRdds() > 0) {
      parts.add(s.unsizedRdds() + " persisted RDDs never seen cached (size unknown, counted as 0)");
    }
    if (!Boolean.TRUE.equals(completed)) {
      parts.add("incomplete log: reference 004 trains on successful runs only");
    }
    Long evicted = app.getAs("evicted_rdd_blocks");
    if (evicted != null && evicted > 0) {
      parts.add(String.format("the logged run evicted %d cached RDD blocks (%d bytes): its storage memory was too"
          + " small for its cache, and blocks read after their eviction were computed again", evicted,
          longOr0(app.getAs("evicted_rdd_bytes"))));
    }
    if (safetyFactor != null) {
      parts.add(String.format("heap = %.2f x managed + 300 MiB (no GC data)", safetyFactor));
    }
    return String.join("; ", parts);
  }

  private static int intOr0(Integer value) {
    return value == null ? 0 : value;
  }

  private static long longOr0(Long value) {
    return value == null ? 0 : value;
  }
}
