package org.perflab.spark.findings;

import org.perflab.findings.FindingLimits;
import org.perflab.findings.Rule;
import org.perflab.findings.Severity;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perflab.spark.features.FeatureTables;
import org.perflab.spark.ingest.SparkTestSession;
import org.perflab.spark.storage.TableStore;
import org.perflab.table.Table;

/**
 * Every rule at every severity, as Dr. Elephant tests its heuristics: per rule, one application whose metric sits in
 * each band (NONE, LOW, MODERATE, SEVERE, CRITICAL), named {@code <rule>-<severity>}, plus applications a gate must
 * keep quiet. All cases go through one run of {@link Findings#graded} on local[2]: the metric's grade, before the
 * impact bounds it ({@code ImpactCapTest}).
 */
class FindingsTest {
  private static final long MIB = 1L << 20;
  private static final long T = FindingLimits.SHUFFLE_TARGET_PARTITION_BYTES;
  private static final double EPS = 1e-9;

  private static final FindingRows APPS = new FindingRows(FeatureTables.APP_FEATURES);
  private static final FindingRows STAGES = new FindingRows(FeatureTables.STAGE_FEATURES);
  private static final FindingRows STATUS = new FindingRows(Table.INGEST_STATUS.schema());
  private static final FindingRows PROPERTIES = new FindingRows(Table.PROPERTIES.schema());
  private static final FindingRows OPERATORS = new FindingRows(FindingRows.SQL_OPERATORS);
  private static final FindingRows STRAGGLERS = new FindingRows(org.perflab.spark.diagnose.StragglerTable.SCHEMA);
  private static List<Row> found;

  @BeforeAll
  static void computeEveryCase() {
    graded(Rule.DATA_SKEW, new double[] {1.5, 3, 5, 10, 20}, (app, v) -> stage(app, "num_tasks", 10,
        "input_max_over_median", v, "duration_max_ms", 60_000L, "duration_p50_ms", 10_000.0));
    stage("skew-short", "num_tasks", 10, "input_max_over_median", 20.0, "duration_max_ms", 1_000L);
    graded(Rule.TINY_TASKS, new double[] {1500, 800, 300, 150, 50}, (app, v) -> stage(app, "num_tasks", 1000,
        "slots", 4, "duration_p50_ms", v, "task_time_ms", 100_000L, "shuffle_read_bytes", 1L));
    stage("tiny-few", "num_tasks", 20, "slots", 4, "duration_p50_ms", 50.0);
    graded(Rule.TOO_FEW_PARTITIONS, new double[] {16, 10, 8, 4, 2}, (app, v) -> stage(app, "num_tasks", v.intValue(),
        "slots", 16, "duration_ms", 100_000L, "shuffle_read_bytes", 1L));
    stage("few-short", "num_tasks", 2, "slots", 16, "duration_ms", 1_000L, "shuffle_read_bytes", 1L);
    graded(Rule.SHUFFLE_PARTITIONS, new double[] {2, 8, 32, 128, 512}, (app, v) -> stage(app, "num_tasks", 200,
        "slots", 4, "shuffle_read_bytes", (long) (200 * T / v.doubleValue())));
    stage("partitions-set-elsewhere", "num_tasks", 100, "slots", 4, "shuffle_read_bytes", 1000L);
    graded(Rule.SPILL, new double[] {5_000, 20_000, 150_000, 300_000, 600_000}, (app, v) -> {
      stage(app, "input_bytes", 1_000_000L, "memory_spilled_bytes", v.longValue(), "disk_spilled_bytes", 100 * MIB,
          "slots", 2);
      APPS.add(app, "executor_memory_bytes", 4096 * MIB);
    });
    graded(Rule.GC_PRESSURE, new double[] {0.05, 0.085, 0.095, 0.12, 0.2}, (app, v) -> APPS.add(app,
        "executor_run_time_s", 1000.0, "gc_share", v, "slots", 10, "executor_memory_bytes", 2048 * MIB));
    APPS.add("gc-short", "executor_run_time_s", 10.0, "gc_share", 0.5);
    graded(Rule.IDLE_EXECUTORS, new double[] {0.6, 0.45, 0.35, 0.2, 0.05}, (app, v) -> APPS.add(app,
        "wall_time_s", 100.0, "utilization", v, "executors", 10, "dynamic_allocation_enabled", false));
    APPS.add("idle-dynamic", "wall_time_s", 100.0, "utilization", 0.2, "executors", 10,
        "dynamic_allocation_enabled", true);
    graded(Rule.EXECUTOR_MEMORY_OVERSIZED, new double[] {1.2, 1.6, 3, 5, 10}, (app, v) -> APPS.add(app,
        "executor_memory_bytes", 8192 * MIB, "peak_jvm_heap_bytes", (long) (8192 * MIB / v.doubleValue()) - 300 * MIB));
    APPS.add("memory-small", "executor_memory_bytes", 1024 * MIB, "peak_jvm_heap_bytes", 10 * MIB);
    graded(Rule.WASTED_TASKS, new double[] {0.02, 0.06, 0.12, 0.16, 0.3}, (app, v) -> APPS.add(app,
        "task_time_s", 1000.0, "failed_task_time_s", v * 1000, "slots", 5));
    APPS.add("wasted-speculation", "task_time_s", 1000.0, "killed_task_time_s", 300.0, "speculative_tasks", 10L,
        "slots", 5);
    graded(Rule.DRIVER_BOUND, new double[] {20, 35, 60, 80, 95}, (app, v) -> APPS.add(app, "wall_time_s", 100.0,
        "driver_only_s", v));
    APPS.add("driver-short", "wall_time_s", 10.0, "driver_only_s", 9.5);
    graded(Rule.SLOW_HOSTS, new double[] {0.02, 0.06, 0.12, 0.16, 0.3}, (app, v) -> slowHosts(app, v, 0L));
    slowHosts("slow-speculating", 0.3, 10L);
    graded(Rule.COLD_EXECUTORS, new double[] {0.02, 0.06, 0.12, 0.16, 0.3}, (app, v) -> coldExecutors(app, v, false,
        2));
    coldExecutors("cold-dynamic", 0.3, true, 2);
    coldExecutors("cold-large", 0.3, false, 4);
    graded(Rule.DROPPED_EVENTS, new double[] {0, 3, 20, 200, 2000}, (app, v) -> STATUS.add(app, "run_id", "R2",
        "status", "OK", "tasks_reconciled", v == 0, "stages_missing_tasks", v.longValue()));
    STATUS.add("dropped-fixed", "run_id", "R1", "status", "OK", "tasks_reconciled", false,
        "stages_missing_tasks", 5000L);
    STATUS.add("dropped-fixed", "run_id", "R2", "status", "OK", "tasks_reconciled", true);
    STATUS.add("dropped-partial", "run_id", "R1", "status", "PARTIAL", "tasks_reconciled", true, "bad_lines", 0L);
    graded(Rule.BROADCAST_JOIN_CANDIDATE, new double[] {5, 3, 1.5, 0.5, 0.1}, (app, v) -> join(app, v));
    join("broadcast-disabled", 0.5);
    PROPERTIES.add("broadcast-disabled", "category", "SPARK", "key", SqlRules.BROADCAST_THRESHOLD, "value", "-1");
    graded(Rule.HOT_SQL_OPERATOR, new double[] {0.4, 0.6, 0.75, 0.9, 0.97}, FindingsTest::query);
    query("hot-short", 0.97);

    SparkSession spark = SparkTestSession.get();
    found = Findings.graded(new FindingInputs(APPS.frame(spark), STAGES.frame(spark), STATUS.frame(spark),
        PROPERTIES.frame(spark), Optional.of(OPERATORS.frame(spark)), Optional.of(STRAGGLERS.frame(spark)),
        Optional.empty()))
        .collectAsList();
  }

  /**
   * The same cases read from Delta tables, as {@code diagnose} reads them, give the same findings: the tables that
   * several rules read are behind {@link FindingInputs#withSharedScans}'s filter, which keeps the rules' filters out of
   * Delta Lake's scans (fewer file listings, counted by {@code bench/run findings-plan}) and must change no row.
   */
  @Test
  void overDeltaTablesTheFindingsAreTheSameAsInMemory(@TempDir Path dir) {
    SparkSession spark = SparkTestSession.get();
    TableStore store = new TableStore(spark, dir.toString());
    Map<String, FindingRows> tables = Map.of("app_features", APPS, "stage_features", STAGES, "ingest_status", STATUS,
        "properties", PROPERTIES, "sql_operators", OPERATORS, "stragglers", STRAGGLERS);
    tables.forEach((name, rows) -> store.overwrite(name, rows.frame(spark)));
    List<Row> overDelta = Findings.graded(new FindingInputs(read(store, "app_features"), read(store, "stage_features"),
        read(store, "ingest_status"), read(store, "properties"), Optional.of(read(store, "sql_operators")),
        Optional.of(read(store, "stragglers")), Optional.empty())).collectAsList();
    assertThat(overDelta).hasSize(found.size()).containsExactlyInAnyOrderElementsOf(found);
  }

  private static Dataset<Row> read(TableStore store, String table) {
    return store.read(table).orElseThrow();
  }

  /** One case per severity: application {@code <rule>-<severity>} built from the metric at that level. */
  private static void graded(Rule rule, double[] metrics, BiConsumer<String, Double> build) {
    for (Severity level : Severity.values()) {
      build.accept(name(rule, level), metrics[level.ordinal()]);
    }
  }

  private static String name(Rule rule, Severity level) {
    return rule.name() + "-" + level.name();
  }

  private static void stage(String app, Object... values) {
    Object[] all = new Object[values.length + 4];
    all[0] = "stage_id";
    all[1] = 3;
    all[2] = "stage_attempt_id";
    all[3] = 0;
    System.arraycopy(values, 0, all, 4, values.length);
    STAGES.add(app, all);
  }

  /**
   * 1000 s of task time on 5 slots; {@code share} of it lost by SLOW_HOST stragglers, 60 % on host h1 (two of them)
   * and 40 % on h2 (one); a straggler of h3 with no cause loses as much again and does not count.
   */
  private static void slowHosts(String app, double share, long speculativeTasks) {
    APPS.add(app, "task_time_s", 1000.0, "slots", 5, "speculative_tasks", speculativeTasks);
    double lostMs = share * 1_000_000;
    long task = 0;
    for (Object[] host : new Object[][] {{"h1", 0.3}, {"h1", 0.3}, {"h2", 0.4}, {"h3", 1.0}}) {
      STRAGGLERS.add(app, "task_id", task++, "host", host[0], "stage_median_ms", 1000.0,
          "duration_ms", 1000L + Math.round(lostMs * (Double) host[1]),
          "causes", host[0].equals("h3") ? List.of() : List.of("SLOW_HOST"));
    }
  }

  /**
   * 1000 s of task time on 2 executors of {@code cores} cores and 4 GiB; {@code share} of it lost by COLD_EXECUTOR
   * stragglers, 60 % on executor 1 (two of them) and 40 % on executor 2 (one). A straggler that is SLOW_HOST too, and
   * one with no cause, lose as much again and do not count.
   */
  private static void coldExecutors(String app, double share, boolean dynamic, int cores) {
    APPS.add(app, "task_time_s", 1000.0, "slots", 2 * cores, "executors", 2, "cores_per_executor", cores,
        "executor_memory_bytes", 4096 * MIB, "dynamic_allocation_enabled", dynamic);
    double lostMs = share * 1_000_000;
    long task = 0;
    for (Object[] s : new Object[][] {{"1", 0.3, List.of("COLD_EXECUTOR")}, {"1", 0.3, List.of("COLD_EXECUTOR")},
        {"2", 0.4, List.of("COLD_EXECUTOR", "SERIALIZATION")}, {"3", 1.0, List.of("COLD_EXECUTOR", "SLOW_HOST")},
        {"3", 1.0, List.of()}}) {
      STRAGGLERS.add(app, "task_id", task++, "executor_id", s[0], "host", "h" + s[0], "stage_median_ms", 1000.0,
          "duration_ms", 1000L + Math.round(lostMs * (Double) s[1]), "causes", s[2]);
    }
  }

  /** SortMergeJoin 0 over Sort 1 ← Exchange 3 (ratio × 10 MiB) and Sort 2 ← Exchange 4 (1 GiB). */
  private static void join(String app, double ratio) {
    long small = (long) (ratio * FindingLimits.DEFAULT_BROADCAST_THRESHOLD_BYTES);
    operator(app, 0L, "SortMergeJoin", List.of(1L, 2L), null, Map.of());
    operator(app, 1L, "Sort", List.of(3L), 1000L, Map.of("sort time", 1000L));
    operator(app, 2L, "Sort", List.of(4L), 1000L, Map.of("sort time", 1000L));
    operator(app, 3L, "Exchange", List.of(), 2000L, Map.of(SqlRules.DATA_SIZE, small));
    operator(app, 4L, "Exchange", List.of(), 2000L, Map.of(SqlRules.DATA_SIZE, 1024 * MIB));
    APPS.add(app, "slots", 2);
  }

  private static void operator(String app, long node, String name, List<Long> children, Long timeMs,
      Map<String, Long> metrics) {
    OPERATORS.add(app, "execution_id", 7L, "node_id", node, "node_name", name, "is_cluster", false,
        "child_node_ids", children, "time_ms", timeMs, "metrics", metrics);
  }

  /** Operator 5 takes {@code share} of 100 s; two others split the rest; a codegen cluster is ignored. */
  private static void query(String app, double share) {
    long total = "hot-short".equals(app) ? 10_000L : 100_000L;
    long hot = Math.round(total * share);
    OPERATORS.add(app, "execution_id", 9L, "node_id", 5L, "node_name", "Filter", "is_cluster", false,
        "time_ms", hot, "input_rows", 100_000L, "output_rows", 10L);
    OPERATORS.add(app, "execution_id", 9L, "node_id", 6L, "node_name", "Scan", "is_cluster", false,
        "time_ms", (total - hot) / 2);
    OPERATORS.add(app, "execution_id", 9L, "node_id", 7L, "node_name", "Project", "is_cluster", false,
        "time_ms", (total - hot) - (total - hot) / 2);
    OPERATORS.add(app, "execution_id", 9L, "node_id", 1L, "node_name", "WholeStageCodegen (1)", "is_cluster", true,
        "time_ms", 10 * total);
  }

  private static Optional<Row> finding(String app, Rule rule) {
    List<Row> rows = found.stream().filter(r -> r.<String>getAs("app_id").equals(app)
        && r.<String>getAs("rule").equals(rule.name())).toList();
    assertThat(rows).as("findings of %s for %s", rule, app).hasSizeLessThanOrEqualTo(1);
    return rows.stream().findFirst();
  }

  private static Row only(String app, Rule rule) {
    return finding(app, rule).orElseThrow(() -> new AssertionError("no " + rule + " finding for " + app));
  }

  /** Each {@code <rule>-<severity>} application has that severity, NONE meaning no row. */
  private static void assertEveryBand(Rule rule) {
    for (Severity level : Severity.values()) {
      Optional<Row> row = finding(name(rule, level), rule);
      if (level == Severity.NONE) {
        assertThat(row).as("%s below LOW", rule).isEmpty();
      } else {
        assertThat(row).as("%s at %s", rule, level).isPresent();
        assertThat(row.get().<String>getAs("severity")).as("%s at %s", rule, level).isEqualTo(level.name());
      }
    }
  }

  private static double savings(String app, Rule rule) {
    return only(app, rule).<Double>getAs("estimated_savings_s");
  }

  private static Map<String, String> conf(String app, Rule rule) {
    return only(app, rule).getJavaMap(only(app, rule).fieldIndex("recommended_conf"));
  }

  private static Map<String, Double> evidence(String app, Rule rule) {
    return only(app, rule).getJavaMap(only(app, rule).fieldIndex("evidence"));
  }

  @Test
  void dataSkew() {
    assertEveryBand(Rule.DATA_SKEW);
    Row row = only(name(Rule.DATA_SKEW, Severity.SEVERE), Rule.DATA_SKEW);
    assertThat(row.<Integer>getAs("stage_id")).isEqualTo(3);
    assertThat(row.<Double>getAs("estimated_savings_s")).isCloseTo(50.0, within(EPS));
    assertThat(conf(name(Rule.DATA_SKEW, Severity.SEVERE), Rule.DATA_SKEW))
        .containsEntry("spark.sql.adaptive.skewJoin.enabled", "true");
    assertThat(evidence(name(Rule.DATA_SKEW, Severity.SEVERE), Rule.DATA_SKEW)).containsEntry("max_over_median", 10.0);
    assertThat(finding("skew-short", Rule.DATA_SKEW)).as("short tasks tolerate skew").isEmpty();
  }

  @Test
  void tinyTasks() {
    assertEveryBand(Rule.TINY_TASKS);
    String app = name(Rule.TINY_TASKS, Severity.CRITICAL);
    // target = max(4 slots, 100 s / 1 s) = 100 tasks; 900 surplus × 10 ms ÷ 4 slots
    assertThat(savings(app, Rule.TINY_TASKS)).isCloseTo(900 * 10 / 4 / 1000.0, within(EPS));
    assertThat(conf(app, Rule.TINY_TASKS)).containsEntry("spark.sql.shuffle.partitions", "100")
        .containsEntry("spark.sql.adaptive.coalescePartitions.enabled", "true");
    assertThat(finding("tiny-few", Rule.TINY_TASKS)).as("20 tasks are not many").isEmpty();
  }

  @Test
  void tooFewPartitions() {
    assertEveryBand(Rule.TOO_FEW_PARTITIONS);
    String app = name(Rule.TOO_FEW_PARTITIONS, Severity.SEVERE);
    assertThat(savings(app, Rule.TOO_FEW_PARTITIONS)).isCloseTo(100 * (1 - 4 / 16.0), within(EPS));
    assertThat(conf(app, Rule.TOO_FEW_PARTITIONS)).containsEntry("spark.sql.shuffle.partitions", "32")
        .doesNotContainKey("spark.sql.files.maxPartitionBytes");
    assertThat(finding("few-short", Rule.TOO_FEW_PARTITIONS)).as("a 1 s stage").isEmpty();
  }

  @Test
  void shufflePartitions() {
    assertEveryBand(Rule.SHUFFLE_PARTITIONS);
    String app = name(Rule.SHUFFLE_PARTITIONS, Severity.MODERATE);
    // 200 × 128 MiB ÷ 32 bytes → 7 partitions of 128 MiB; 193 surplus tasks × 10 ms ÷ 4 slots
    assertThat(conf(app, Rule.SHUFFLE_PARTITIONS)).containsEntry("spark.sql.shuffle.partitions", "7");
    assertThat(savings(app, Rule.SHUFFLE_PARTITIONS)).isCloseTo(193 * 10 / 4.0 / 1000.0, within(EPS));
    assertThat(conf(name(Rule.SHUFFLE_PARTITIONS, Severity.CRITICAL), Rule.SHUFFLE_PARTITIONS))
        .as("never below the slots").containsEntry("spark.sql.shuffle.partitions", "4");
    assertThat(finding("partitions-set-elsewhere", Rule.SHUFFLE_PARTITIONS)).isEmpty();
  }

  @Test
  void spill() {
    assertEveryBand(Rule.SPILL);
    String app = name(Rule.SPILL, Severity.SEVERE);
    // 100 MiB written and read back at 100 MiB/s over 2 slots
    assertThat(savings(app, Rule.SPILL)).isCloseTo(1.0, within(EPS));
    assertThat(conf(app, Rule.SPILL)).containsExactly(Map.entry("spark.executor.memory", "6144m"));
  }

  @Test
  void gcPressure() {
    assertEveryBand(Rule.GC_PRESSURE);
    String app = name(Rule.GC_PRESSURE, Severity.SEVERE);
    assertThat(savings(app, Rule.GC_PRESSURE)).isCloseTo((0.12 - 0.08) * 1000 / 10, within(EPS));
    assertThat(conf(app, Rule.GC_PRESSURE)).containsExactly(Map.entry("spark.executor.memory", "3072m"));
    assertThat(finding("gc-short", Rule.GC_PRESSURE)).as("10 s of tasks").isEmpty();
  }

  @Test
  void idleExecutors() {
    assertEveryBand(Rule.IDLE_EXECUTORS);
    String app = name(Rule.IDLE_EXECUTORS, Severity.SEVERE);
    assertThat(savings(app, Rule.IDLE_EXECUTORS)).isZero();
    assertThat(conf(app, Rule.IDLE_EXECUTORS))
        .containsExactly(Map.entry("spark.executor.instances", String.valueOf((long) Math.ceil(10 * 0.2 / 0.7))));
    assertThat(conf("idle-dynamic", Rule.IDLE_EXECUTORS))
        .containsExactly(Map.entry("spark.dynamicAllocation.maxExecutors", "3"));
    assertThat(only("idle-dynamic", Rule.IDLE_EXECUTORS).<String>getAs("recommendation"))
        .contains("dynamic allocation is on");
  }

  @Test
  void executorMemoryOversized() {
    assertEveryBand(Rule.EXECUTOR_MEMORY_OVERSIZED);
    String app = name(Rule.EXECUTOR_MEMORY_OVERSIZED, Severity.SEVERE);
    long needed = (long) (8192 * MIB / 5.0);
    assertThat(conf(app, Rule.EXECUTOR_MEMORY_OVERSIZED)).containsExactly(Map.entry("spark.executor.memory",
        (long) Math.ceil(needed * 1.25 / MIB) + "m"));
    assertThat(finding("memory-small", Rule.EXECUTOR_MEMORY_OVERSIZED)).as("under 2 GiB").isEmpty();
  }

  @Test
  void wastedTasks() {
    assertEveryBand(Rule.WASTED_TASKS);
    String app = name(Rule.WASTED_TASKS, Severity.CRITICAL);
    assertThat(savings(app, Rule.WASTED_TASKS)).isCloseTo(300 / 5.0, within(EPS));
    assertThat(conf(app, Rule.WASTED_TASKS)).isEmpty();
    assertThat(only("wasted-speculation", Rule.WASTED_TASKS).<String>getAs("severity")).isEqualTo("CRITICAL");
    assertThat(conf("wasted-speculation", Rule.WASTED_TASKS)).containsEntry("spark.speculation.multiplier", "3");
  }

  @Test
  void slowHosts() {
    assertEveryBand(Rule.SLOW_HOSTS);
    String app = name(Rule.SLOW_HOSTS, Severity.CRITICAL);
    assertThat(savings(app, Rule.SLOW_HOSTS)).isCloseTo(300 / 5.0, within(EPS));
    assertThat(evidence(app, Rule.SLOW_HOSTS)).containsEntry("slow_host_share", 0.3)
        .containsEntry("slow_hosts", 2.0).containsEntry("slow_host_stragglers", 3.0);
    assertThat(conf(app, Rule.SLOW_HOSTS)).containsExactly(Map.entry("spark.speculation", "true"));
    assertThat(only(app, Rule.SLOW_HOSTS).<String>getAs("recommendation"))
        .startsWith("Stragglers ran on hosts whose other tasks of this application ran slow too (SLOW_HOST: h1, h2)."
            + " Turn on speculation");
    assertThat(conf("slow-speculating", Rule.SLOW_HOSTS)).as("speculation already on").isEmpty();
    assertThat(only("slow-speculating", Rule.SLOW_HOSTS).<String>getAs("recommendation"))
        .contains("Speculation is on");
  }

  @Test
  void coldExecutors() {
    assertEveryBand(Rule.COLD_EXECUTORS);
    String app = name(Rule.COLD_EXECUTORS, Severity.CRITICAL);
    assertThat(savings(app, Rule.COLD_EXECUTORS)).isCloseTo(300 / 4.0, within(EPS));
    assertThat(evidence(app, Rule.COLD_EXECUTORS)).containsEntry("cold_share", 0.3)
        .containsEntry("cold_stragglers", 3.0).containsEntry("cold_executors", 2.0);
    assertThat(conf(app, Rule.COLD_EXECUTORS)).as("the same 4 slots in one executor of 4 cores and 8 GiB")
        .containsOnly(Map.entry("spark.executor.cores", "4"), Map.entry("spark.executor.instances", "1"),
            Map.entry("spark.executor.memory", "8192m"));
    assertThat(only(app, Rule.COLD_EXECUTORS).<String>getAs("recommendation"))
        .startsWith("Stragglers were among their executors' first tasks").contains("fewer, larger executors");
    assertThat(conf("cold-dynamic", Rule.COLD_EXECUTORS))
        .containsExactly(Map.entry("spark.dynamicAllocation.executorIdleTimeout", "300s"));
    assertThat(only("cold-dynamic", Rule.COLD_EXECUTORS).<String>getAs("recommendation"))
        .contains("keep them longer");
    assertThat(conf("cold-large", Rule.COLD_EXECUTORS)).as("4 cores per executor already").isEmpty();
    assertThat(only("cold-large", Rule.COLD_EXECUTORS).<String>getAs("recommendation"))
        .contains("spark.python.worker.reuse");
  }

  @Test
  void driverBound() {
    assertEveryBand(Rule.DRIVER_BOUND);
    assertThat(savings(name(Rule.DRIVER_BOUND, Severity.SEVERE), Rule.DRIVER_BOUND)).isCloseTo(50.0, within(EPS));
    assertThat(only(name(Rule.DRIVER_BOUND, Severity.SEVERE), Rule.DRIVER_BOUND).<Object>getAs("stage_id"))
        .isNull();
    assertThat(finding("driver-short", Rule.DRIVER_BOUND)).as("a 10 s application").isEmpty();
  }

  @Test
  void droppedEvents() {
    assertEveryBand(Rule.DROPPED_EVENTS);
    assertThat(conf(name(Rule.DROPPED_EVENTS, Severity.LOW), Rule.DROPPED_EVENTS))
        .containsExactly(Map.entry("spark.scheduler.listenerbus.eventqueue.capacity", "20000"));
    assertThat(finding("dropped-fixed", Rule.DROPPED_EVENTS)).as("the latest ingest reconciles").isEmpty();
    assertThat(only("dropped-partial", Rule.DROPPED_EVENTS).<String>getAs("severity")).isEqualTo("LOW");
    assertThat(conf("dropped-partial", Rule.DROPPED_EVENTS)).isEmpty();
  }

  @Test
  void broadcastJoinCandidates() {
    assertEveryBand(Rule.BROADCAST_JOIN_CANDIDATE);
    String app = name(Rule.BROADCAST_JOIN_CANDIDATE, Severity.MODERATE);
    Row row = only(app, Rule.BROADCAST_JOIN_CANDIDATE);
    assertThat(row.<Long>getAs("execution_id")).isEqualTo(7L);
    assertThat(row.<Long>getAs("node_id")).isZero();
    // sorts 2 × 1 s and exchanges 2 × 2 s of task time over 2 slots
    assertThat(row.<Double>getAs("estimated_savings_s")).isCloseTo(3.0, within(EPS));
    long small = (long) (1.5 * FindingLimits.DEFAULT_BROADCAST_THRESHOLD_BYTES);
    assertThat(conf(app, Rule.BROADCAST_JOIN_CANDIDATE))
        .containsEntry(SqlRules.BROADCAST_THRESHOLD, String.valueOf((long) Math.ceil(small * 1.25)));
    assertThat(only("broadcast-disabled", Rule.BROADCAST_JOIN_CANDIDATE).<String>getAs("recommendation"))
        .contains("disabled");
    assertThat(evidence("broadcast-disabled", Rule.BROADCAST_JOIN_CANDIDATE)).containsEntry("threshold_bytes", -1.0);
  }

  @Test
  void hotSqlOperators() {
    assertEveryBand(Rule.HOT_SQL_OPERATOR);
    Row row = only(name(Rule.HOT_SQL_OPERATOR, Severity.SEVERE), Rule.HOT_SQL_OPERATOR);
    assertThat(row.<Long>getAs("node_id")).isEqualTo(5L);
    assertThat(row.<String>getAs("recommendation")).startsWith("Filter").contains("discards");
    assertThat(evidence(name(Rule.HOT_SQL_OPERATOR, Severity.SEVERE), Rule.HOT_SQL_OPERATOR))
        .containsEntry("rows_out_over_in", 10 / 100_000.0).containsEntry("time_share", 0.9);
    assertThat(finding("hot-short", Rule.HOT_SQL_OPERATOR)).as("a 10 s execution").isEmpty();
  }

  @Test
  void onlyLowAndWorseAreWrittenWithTheTableSchema() {
    assertThat(found).extracting(r -> r.<String>getAs("severity")).doesNotContain("NONE");
    assertThat(found.get(0).schema()).isEqualTo(FindingsTable.SCHEMA);
  }
}
