package org.perflab.spark.memory;

import org.perflab.memory.SparkMemorySettings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.concat;
import static org.apache.spark.sql.functions.lit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perflab.errors.BadInputException;
import org.perflab.eventlog.redact.Redactor;
import org.perflab.spark.features.FeatureTables;
import org.perflab.spark.ingest.Ingest;
import org.perflab.spark.ingest.IngestOptions;
import org.perflab.spark.ingest.SparkTestSession;
import org.perflab.jobs.MemoryJobAccess;
import org.perflab.spark.storage.TableStore;
import org.perflab.table.Table;

/**
 * {@code memory} on the bundled sample logs and, when PERFLAB_SHARED holds them, Spark's reference logs (two of which
 * cache RDDs): one row per application, workload rows as the maxima over their applications, reasons instead of
 * exceptions, and reference 004's Table 5.3 from the distributed Monte Carlo.
 */
class MemoryJobTest {
  private static final Path SAMPLES = Path.of("..", "samples", "spark-events");
  /**
   * PageRank (64 partitions, links cached {@code MEMORY_ONLY}) on the local standalone cluster at 80 % of its
   * recommended storage, from {@code bench/run memory-e2e} on 2026-11-27: its block updates show 3 evictions.
   */
  private static final Path EVICTING = Path.of("src", "test", "resources", "eventlogs");
  private static final String EVICTING_LOG = "app-20261127160233-0005.zstd";
  private static final Path SHARED_DATA =
      Path.of(Optional.ofNullable(System.getenv("PERFLAB_SHARED")).orElse("../../shared"), "data");
  private static final Path SHARED_LOGS = SHARED_DATA.resolve("spark-events");
  /** HiBench Sort on Spark 1.5.1 (cems): the static memory manager. */
  private static final Path SPARK_15_LOG = SHARED_DATA.resolve("scaling/cems/hibench_sort_profiling")
      .resolve("app-20151104201133-0000.zstd");
  /** A copy of the Spark 2.1 reference log with spark.memory.useLegacyMode=true, under this id. */
  private static final String LEGACY_MODE_APP = "app-20161116163331-9999";

  @TempDir
  static Path dir;

  private static SparkSession spark;
  private static Path root;
  private static List<Row> rows;
  private static boolean shared;

  @BeforeAll
  static void ingestAndRecommend() throws Exception {
    spark = SparkTestSession.get();
    root = dir.resolve("root");
    // Few, small logs: a sample of today's Spark and, when shared, two reference logs that cache RDDs.
    Path logs = Files.createDirectories(dir.resolve("logs"));
    Files.copy(SAMPLES.resolve("local-1795305472854"), logs.resolve("local-1795305472854"));
    Files.copy(EVICTING.resolve(EVICTING_LOG), logs.resolve(EVICTING_LOG));
    shared = Files.isDirectory(SHARED_LOGS);
    if (shared) {
      for (String log : List.of("local-1422981780767", "app-20161116163331-0000")) {
        Files.copy(SHARED_LOGS.resolve(log), logs.resolve(log));
      }
      Files.copy(SPARK_15_LOG, logs.resolve(SPARK_15_LOG.getFileName()));
      legacyModeCopy(SHARED_LOGS.resolve("app-20161116163331-0000"), logs.resolve(LEGACY_MODE_APP));
    }
    new Ingest(spark, new IngestOptions(List.of(logs.toString()), root.toString(), false, Redactor.DEFAULT_PATTERN, 0),
        Clock.systemUTC()).run();
    // Every application is one workload, "all".
    TableStore store = new TableStore(spark, root.toString());
    Dataset<Row> apps = store.read(Table.APPLICATIONS).orElseThrow();
    apps.select(col("log_id"), col("app_id"), col("app_attempt_id"), lit("all").as("workload_id"))
        .write().format("delta").save(root.resolve(FeatureTables.WORKLOADS_TABLE).toString());
    MemoryJobAccess.run(spark, root.toString(), 1.5);
    rows = spark.read().format("delta").load(root.resolve(MemoryTables.RECOMMENDATIONS_TABLE).toString())
        .collectAsList();
  }

  /** {@code log} under {@link #LEGACY_MODE_APP}, with spark.memory.useLegacyMode=true among its Spark properties. */
  private static void legacyModeCopy(Path log, Path copy) throws java.io.IOException {
    com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
    List<String> lines = new java.util.ArrayList<>();
    for (String line : Files.readAllLines(log)) {
      com.fasterxml.jackson.databind.node.ObjectNode event =
          (com.fasterxml.jackson.databind.node.ObjectNode) json.readTree(line);
      switch (event.path("Event").asText()) {
        case "SparkListenerApplicationStart" -> event.put("App ID", LEGACY_MODE_APP);
        case "SparkListenerEnvironmentUpdate" -> ((com.fasterxml.jackson.databind.node.ObjectNode)
            event.get("Spark Properties")).put("spark.memory.useLegacyMode", "true");
        default -> { }
      }
      lines.add(json.writeValueAsString(event));
    }
    Files.write(copy, lines);
  }

  private static Row app(String appId) {
    return applicationRows().stream().filter(r -> appId.equals(r.getAs("app_id"))).findFirst().orElseThrow();
  }

  private static List<Row> applicationRows() {
    return rows.stream().filter(r -> "application".equals(r.getAs("scope"))).toList();
  }

  @Test
  void everyApplicationGetsARowWithARecommendationOrAReason() {
    long applications = new TableStore(spark, root.toString()).read(Table.APPLICATIONS).orElseThrow().count();
    assertThat(spark.read().format("delta").load(root.resolve(MemoryTables.RECOMMENDATIONS_TABLE).toString())
        .schema().fieldNames()).containsExactly(MemoryTables.RECOMMENDATIONS.fieldNames());
    assertThat(applicationRows()).hasSize((int) applications);
    for (Row r : applicationRows()) {
      if (r.getAs("reason") == null && "static".equals(r.getAs("memory_manager"))) {
        long heap = r.getAs("executor_memory_bytes");
        assertThat(heap * r.<Double>getAs("storage_memory_fraction") * 0.9).as("storage region of %s", r)
            .isGreaterThanOrEqualTo(r.<Long>getAs("storage_bytes"));
        assertThat(heap * r.<Double>getAs("shuffle_memory_fraction") * 0.8).as("shuffle region of %s", r)
            .isGreaterThanOrEqualTo(r.<Long>getAs("execution_bytes"));
        assertThat(r.<Double>getAs("memory_fraction")).isNull();
        assertThat(r.<Double>getAs("storage_fraction")).isNull();
      } else if (r.getAs("reason") == null) {
        assertThat(r.<String>getAs("memory_manager")).isEqualTo("unified");
        assertThat(r.<Double>getAs("storage_memory_fraction")).isNull();
        long heap = r.getAs("executor_memory_bytes");
        double fraction = r.getAs("memory_fraction");
        double storageFraction = r.getAs("storage_fraction");
        long storage = r.getAs("storage_bytes");
        long managed = storage + r.<Long>getAs("execution_bytes");
        assertThat((heap - SparkMemorySettings.RESERVED_BYTES) * fraction).as("managed memory of %s", r)
            .isGreaterThanOrEqualTo(managed);
        assertThat((heap - SparkMemorySettings.RESERVED_BYTES) * fraction * storageFraction)
            .isGreaterThanOrEqualTo(Math.min(storage, 0.95 * managed));
        assertThat(r.<Long>getAs("unroll_bytes")).isLessThanOrEqualTo(storage);
        assertThat(r.<String>getAs("tier")).isEqualTo("event_log");
        assertThat(r.<String>getAs("collector")).isEqualTo("g1");
        assertThat(r.<String>getAs("heap_basis")).isEqualTo("safety_factor");
        assertThat(r.<String>getAs("gc_flags")).isNull();
        assertThat(r.<Double>getAs("safety_factor")).isEqualTo(1.5);
        assertThat(r.<String>getAs("evidence")).contains("tier A from event-log lineage");
      } else {
        assertThat(r.<Long>getAs("executor_memory_bytes")).isNull();
      }
    }
    assertThat(applicationRows()).anyMatch(r -> r.getAs("reason") == null);
  }

  @Test
  void aRunWhoseMemoryStoreEvictedCachedBlocksSaysSoInItsEvidence() {
    Row evicting = applicationRows().stream().filter(r -> "app-20261127160233-0005".equals(r.getAs("app_id")))
        .findFirst().orElseThrow();
    // executor 1 evicted rdd_7_0 (495,088 bytes) once in each of stages 3, 4 and 5
    assertThat(evicting.<String>getAs("evidence"))
        .contains("the logged run evicted 3 cached RDD blocks (1485264 bytes)");
    assertThat(evicting.<Long>getAs("rdd_cache_bytes")).isGreaterThan(50_000_000L);
    Row quiet = applicationRows().stream().filter(r -> "local-1795305472854".equals(r.getAs("app_id")))
        .findFirst().orElseThrow();
    assertThat(quiet.<String>getAs("evidence")).doesNotContain("evicted");
  }

  @Test
  void anExecutorsTableWrittenBeforeTheEvictionColumnsGivesTheSameRecommendationWithoutEvictionEvidence() {
    TableStore store = new TableStore(spark, root.toString());
    Dataset<Row> executors = store.read(Table.EXECUTORS).orElseThrow();
    assertThat(executors.columns()).contains("evicted_rdd_blocks", "evicted_rdd_bytes");
    Dataset<Row> older = executors.drop("evicted_rdd_blocks", "evicted_rdd_bytes");
    List<Row> out = ApplicationMemory.of(store.read(Table.APPLICATIONS).orElseThrow(),
        store.read(Table.STAGES).orElseThrow(), store.read(Table.TASKS).orElseThrow(), older, MemoryParams.DEFAULTS)
        .collectAsList();
    Row evicting = out.stream().filter(r -> "app-20261127160233-0005".equals(r.getAs("app_id"))).findFirst()
        .orElseThrow();
    Row current = applicationRows().stream().filter(r -> "app-20261127160233-0005".equals(r.getAs("app_id")))
        .findFirst().orElseThrow();
    assertThat(evicting.<String>getAs("reason")).isNull();
    assertThat(evicting.<String>getAs("evidence")).contains("tier A from event-log lineage").doesNotContain("evicted");
    for (String column : List.of("storage_bytes", "execution_bytes", "rdd_cache_bytes")) {
      assertThat(evicting.<Long>getAs(column)).as(column).isEqualTo(current.<Long>getAs(column));
    }
  }

  @Test
  void aCachedRddInASharedLogIsSizedByTheStackAnalysis() {
    org.junit.jupiter.api.Assumptions.assumeTrue(shared, "Skipped: no Spark reference logs at " + SHARED_LOGS
        + " (set PERFLAB_SHARED)");
    // local-1422981780767 caches an 8-partition RDD of 3500016 bytes and reads it in later jobs.
    Row cached = applicationRows().stream().filter(r -> "local-1422981780767".equals(r.getAs("app_id"))).findFirst()
        .orElseThrow();
    // Spark 1.2 never logs Peak Execution Memory, and no task spilled: the sizes, but no heap
    assertThat(cached.<String>getAs("reason")).isEqualTo(ApplicationMemory.NO_EXECUTION_METRIC);
    assertThat(cached.<Long>getAs("executor_memory_bytes")).isNull();
    assertThat(cached.<String>getAs("evidence")).contains("tier A from event-log lineage").doesNotContain("heap =");
    // local[*]: one worker with as many slots as tasks ever ran at once.
    assertThat(cached.<Integer>getAs("workers")).isEqualTo(1);
    assertThat(cached.<Integer>getAs("tasks_per_worker")).isPositive();
    assertThat(cached.<Long>getAs("rdd_cache_bytes")).isGreaterThanOrEqualTo(3_500_016L);
    assertThat(cached.<Long>getAs("storage_bytes")).isGreaterThan(cached.<Long>getAs("rdd_cache_bytes"));
    assertThat(cached.<Long>getAs("recompute_bytes_at_80pct")).isPositive();
  }

  /**
   * Spark 1.5's run is sized for the static manager (its storage and shuffle fractions), and so is a Spark 2.1 run
   * with spark.memory.useLegacyMode=true; the same run without it, and Spark 4's, for the unified one.
   */
  @Test
  void aRunBeforeSparkOneSixOrInLegacyModeGetsTheStaticManagersFractions() {
    org.junit.jupiter.api.Assumptions.assumeTrue(shared, "Skipped: no Spark reference logs at " + SHARED_LOGS
        + " (set PERFLAB_SHARED)");
    Row sort = app("app-20151104201133-0000");
    assertThat(sort.<String>getAs("reason")).isNull();
    assertThat(sort.<String>getAs("memory_manager")).isEqualTo("static");
    // Spark 1.5 logs no Peak Execution Memory; its tasks spilled, which bounds their needs from below
    assertThat(sort.<String>getAs("evidence"))
        .contains("no task reports Peak Execution Memory: execution needs are the spilled bytes alone, a lower bound");
    assertThat(app("local-1795305472854").<String>getAs("evidence")).doesNotContain("Peak Execution Memory");
    // Spark 2.1 logs a task's peak only when it is not zero: none reported, none needed, and a recommendation
    assertThat(app("app-20161116163331-0000").<String>getAs("reason")).isNull();
    assertThat(app("app-20161116163331-0000").<String>getAs("evidence")).doesNotContain("Peak Execution Memory");
    assertThat(sort.<Double>getAs("storage_memory_fraction")).isBetween(0.05, 1.0);
    assertThat(sort.<Double>getAs("shuffle_memory_fraction")).isBetween(0.05, 1.0);
    assertThat(sort.<Double>getAs("memory_fraction")).isNull();
    assertThat(app(LEGACY_MODE_APP).<String>getAs("memory_manager")).isEqualTo("static");
    assertThat(app("app-20161116163331-0000").<String>getAs("memory_manager")).isEqualTo("unified");
    assertThat(app("local-1795305472854").<String>getAs("memory_manager")).isEqualTo("unified");
    assertThat(app(LEGACY_MODE_APP).<Long>getAs("storage_bytes"))
        .isEqualTo(app("app-20161116163331-0000").<Long>getAs("storage_bytes"));
  }

  /** A workload all of whose runs had the static manager is sized for it; one that also had the unified, for that. */
  @Test
  void aWorkloadIsSizedForTheStaticManagerOnlyWhenEveryRunHadIt() {
    MemoryRows.Sizes sizes = new MemoryRows.Sizes(new org.perflab.memory.WorkerMemory(900L << 20, 0, 800L << 20, 0),
        0, 0, 0, 1, 2, 0, 0);
    Dataset<Row> appRows = spark.createDataFrame(List.of(
        MemoryRows.recommended(new MemoryRows.Key(MemoryTables.Scope.APPLICATION, null, "L1", "a1", "", 1), sizes,
            1.5, "e", org.perflab.memory.MemoryManager.STATIC),
        MemoryRows.recommended(new MemoryRows.Key(MemoryTables.Scope.APPLICATION, null, "L2", "a2", "", 1), sizes,
            1.5, "e", org.perflab.memory.MemoryManager.STATIC),
        MemoryRows.recommended(new MemoryRows.Key(MemoryTables.Scope.APPLICATION, null, "L3", "a3", "", 1), sizes,
            1.5, "e", org.perflab.memory.MemoryManager.UNIFIED)), MemoryTables.RECOMMENDATIONS);
    Dataset<Row> workloads = spark.createDataFrame(List.of(org.apache.spark.sql.RowFactory.create("L1", "old"),
        org.apache.spark.sql.RowFactory.create("L2", "old"), org.apache.spark.sql.RowFactory.create("L2", "upgraded"),
        org.apache.spark.sql.RowFactory.create("L3", "upgraded")),
        new org.apache.spark.sql.types.StructType().add("log_id", "string").add("workload_id", "string"));
    java.util.Map<String, Row> byWorkload = new java.util.HashMap<>();
    WorkloadMemory.of(appRows, workloads).collectAsList().forEach(r -> byWorkload.put(r.getAs("workload_id"), r));

    Row old = byWorkload.get("old");
    assertThat(old.<String>getAs("memory_manager")).isEqualTo("static");
    // 900 MiB ÷ 0.9 + 800 MiB ÷ 0.8 = 2,000 MiB at fraction 1; × 1.5.
    assertThat(old.<Long>getAs("executor_memory_bytes")).isEqualTo(3000L << 20);
    assertThat(old.<Double>getAs("memory_fraction")).isNull();
    Row upgraded = byWorkload.get("upgraded");
    assertThat(upgraded.<String>getAs("memory_manager")).isEqualTo("unified");
    assertThat(upgraded.<Double>getAs("storage_memory_fraction")).isNull();
    // 300 MiB + 1.5 × 1,700 MiB.
    assertThat(upgraded.<Long>getAs("executor_memory_bytes")).isEqualTo((300L + 2550L) << 20);
  }

  /**
   * A table written before the memory-manager columns keeps its rows when the next run recommends only the new logs:
   * the kept row gains the columns as null, the new one has them.
   */
  @Test
  void anIncrementalRunOverATableWrittenBeforeTheManagerColumnsKeepsItsRows() throws Exception {
    Path older = dir.resolve("older");
    Path first = Files.createDirectories(dir.resolve("older-logs-1"));
    Path second = Files.createDirectories(dir.resolve("older-logs-2"));
    Files.copy(SAMPLES.resolve("local-1795305472854"), first.resolve("local-1795305472854"));
    Files.copy(EVICTING.resolve(EVICTING_LOG), second.resolve(EVICTING_LOG));
    new Ingest(spark, new IngestOptions(List.of(first.toString()), older.toString(), false, Redactor.DEFAULT_PATTERN,
        0), Clock.systemUTC()).run();
    MemoryJobAccess.run(spark, older.toString(), 1.5);
    String table = older.resolve(MemoryTables.RECOMMENDATIONS_TABLE).toString();
    Dataset<Row> before = spark.read().format("delta").load(table)
        .drop("memory_manager", "storage_memory_fraction", "shuffle_memory_fraction");
    before.localCheckpoint().write().format("delta").mode("overwrite").option("overwriteSchema", "true").save(table);
    new Ingest(spark, new IngestOptions(List.of(second.toString()), older.toString(), true, Redactor.DEFAULT_PATTERN,
        0), Clock.systemUTC()).run();

    MemoryJobAccess.run(spark, older.toString(), 1.5);

    List<Row> after = spark.read().format("delta").load(table).collectAsList();
    assertThat(after).extracting(r -> r.<String>getAs("app_id"), r -> r.<String>getAs("memory_manager"))
        .containsExactlyInAnyOrder(org.assertj.core.api.Assertions.tuple("local-1795305472854", null),
            org.assertj.core.api.Assertions.tuple("app-20261127160233-0005", "unified"));
  }

  @Test
  void theWorkloadRowTakesEachMinimumsMaximumOverItsApplications() {
    Row workload = rows.stream().filter(r -> "workload".equals(r.getAs("scope"))).findFirst().orElseThrow();
    List<Row> recommended = applicationRows().stream().filter(r -> r.getAs("reason") == null).toList();
    assertThat(workload.<String>getAs("workload_id")).isEqualTo("all");
    assertThat(workload.<Integer>getAs("applications")).isEqualTo(applicationRows().size());
    assertThat(workload.<String>getAs("memory_manager")).as("runs of Spark 4 among them").isEqualTo("unified");
    for (String column : List.of("storage_bytes", "execution_bytes", "page_cache_bytes", "executor_memory_bytes")) {
      // A heap is sized for one manager: the workload's is compared with its runs' under the same one.
      long max = recommended.stream().filter(r -> !column.equals("executor_memory_bytes")
          || "unified".equals(r.getAs("memory_manager"))).mapToLong(r -> r.<Long>getAs(column)).max().orElseThrow();
      assertThat(workload.<Long>getAs(column)).as(column).isGreaterThanOrEqualTo(max);
    }
    assertThat(workload.<Long>getAs("storage_bytes"))
        .isEqualTo(recommended.stream().mapToLong(r -> r.<Long>getAs("storage_bytes")).max().orElseThrow());
  }

  @Test
  void noSuccessfulTaskOrNoExecutorsGiveAReasonNotAnException() {
    TableStore store = new TableStore(spark, root.toString());
    Dataset<Row> apps = store.read(Table.APPLICATIONS).orElseThrow();
    Dataset<Row> orphan = apps.limit(1).withColumn("log_id", concat(col("log_id"), lit("-no-tasks")));
    // No executor rows and a cluster master: nothing says how many slots the runs had.
    Dataset<Row> clusterApps = apps.unionByName(orphan).withColumn("master", lit("yarn"));
    Dataset<Row> out = ApplicationMemory.of(clusterApps, store.read(Table.STAGES).orElseThrow(),
        store.read(Table.TASKS).orElseThrow(), store.read(Table.EXECUTORS).orElseThrow().limit(0),
        MemoryParams.DEFAULTS);
    List<String> reasons = out.select("reason").collectAsList().stream().map(r -> r.getString(0)).toList();
    assertThat(reasons).contains(ApplicationMemory.NO_TASK, ApplicationMemory.NO_EXECUTORS).doesNotContainNull();
  }

  @Test
  void aLocalMasterGivesItsThreadsAsTheSlotsOfOneWorker() {
    assertThat(ApplicationMemory.localThreads("local")).isEqualTo(1);
    assertThat(ApplicationMemory.localThreads("local[3]")).isEqualTo(3);
    assertThat(ApplicationMemory.localThreads("local[2,4]")).isEqualTo(2);
    assertThat(ApplicationMemory.localThreads("local[*]")).isNull();
    assertThat(ApplicationMemory.localThreads("yarn")).isNull();
  }

  @Test
  void aSafetyFactorUnderOneIsBadInput() {
    assertThatThrownBy(() -> MemoryJobAccess.run(spark, root.toString(), 0.5))
        .isInstanceOf(BadInputException.class)
        .hasMessage("Cannot recommend memory: --safety-factor must be at least 1 (0.5)");
    assertThat(org.perflab.jobs.PerfLab.run("memory", "--input", root.toString(), "--safety-factor", "0.5"))
        .isEqualTo(2);
  }

  @Test
  void aWorkloadWhoseApplicationsHaveNoRecommendationGetsAReason() {
    Dataset<Row> appRows = spark.createDataFrame(List.of(
        MemoryRows.unrecommended(MemoryTables.Scope.APPLICATION, null, "L1", "a1", "", ApplicationMemory.NO_TASK)),
        MemoryTables.RECOMMENDATIONS);
    Dataset<Row> workloads = spark.createDataFrame(List.of(org.apache.spark.sql.RowFactory.create("L1", "w1")),
        new org.apache.spark.sql.types.StructType().add("log_id", "string").add("workload_id", "string"));
    Row row = WorkloadMemory.of(appRows, workloads).collectAsList().get(0);
    assertThat(row.<String>getAs("scope")).isEqualTo("workload");
    assertThat(row.<String>getAs("reason")).isEqualTo(WorkloadMemory.NONE_RECOMMENDED);
    assertThat(row.<Long>getAs("executor_memory_bytes")).isNull();
  }

  @Test
  void table53FromTheDistributedMonteCarloIsWithinOneTask() {
    List<Row> cells = SkewTable.of(spark, new int[] {10, 50}, SkewTable.SDS, 100, 1000, 250, 53).collectAsList();
    int[][] expected = {{16, 13, 11}, {64, 57, 53}};
    assertThat(cells).hasSize(6);
    for (int i = 0; i < cells.size(); i++) {
      Row cell = cells.get(i);
      assertThat(cell.<Integer>getAs("runs")).isEqualTo(1000);
      assertThat(cell.<Integer>getAs("p99_max_tasks")).as("%s", cell).isCloseTo(expected[i / 3][i % 3], within(1));
    }
    // The same runs, batched differently, give the same table.
    assertThat(SkewTable.of(spark, new int[] {10}, SkewTable.SDS, 100, 1000, 1000, 53).collectAsList())
        .isEqualTo(cells.subList(0, 3));
  }
}
