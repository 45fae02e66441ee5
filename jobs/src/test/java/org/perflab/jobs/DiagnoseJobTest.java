package org.perflab.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perflab.spark.diagnose.GridSearch;
import org.perflab.spark.diagnose.StragglerCauses;
import org.perflab.spark.diagnose.StragglerTable;
import org.perflab.spark.report.Report;
import org.perflab.spark.report.ReportOptions;
import org.perflab.eventlog.redact.Redactor;
import org.perflab.spark.ingest.Ingest;
import org.perflab.spark.ingest.IngestOptions;
import org.perflab.spark.ingest.SparkTestSession;
import org.perflab.spark.storage.TableStore;
import org.perflab.stragglers.PccThresholds;
import org.perflab.stragglers.Quantiles;
import org.perflab.stragglers.StragglerThresholds;
import org.perflab.stragglers.WarmUpTasks;
import org.perflab.table.Table;
import org.perflab.testing.SharedData;

/**
 * {@code diagnose} end to end on local[2]: stragglers of Spark's reference logs against a brute-force computation over
 * the same tasks; planted skewed and GC-heavy tasks in a synthetic tasks table; the grid search on their ground
 * truth; and the bad inputs.
 */
class DiagnoseJobTest {
  @TempDir static Path dir;

  private static SparkSession spark;
  private static String synthetic;
  /** One run over the synthetic tasks, with the grid search on their ground truth. */
  private static DiagnoseJob.Summary summary;

  @BeforeAll
  static void setUp() throws IOException {
    spark = SparkTestSession.get();
    synthetic = dir.resolve("synthetic").toString();
    new TableStore(spark, synthetic).overwrite(Table.TASKS.tableName(),
        spark.createDataFrame(syntheticTasks(), Table.TASKS.schema()));
    new TableStore(spark, synthetic).overwrite(Table.INGEST_STATUS.tableName(),
        spark.createDataFrame(List.of(), Table.INGEST_STATUS.schema()));
    Path truth = dir.resolve("truth.csv");
    Files.writeString(truth, """
        log_id,app_id,stage_id,task_index,injection,expected_cause
        ,app-planted,0,3,skewed_partition,DATA_SKEW
        ,app-planted,0,7,garbage_churn,gc
        ,app-planted,0,9,sleep,
        """);
    summary = DiagnoseJob.run(spark, Clock.systemUTC(), options(synthetic, truth.toString()));
  }

  private static DiagnoseJob.Options options(String root, String groundTruth) {
    return new DiagnoseJob.Options(root, null, StragglerThresholds.defaults(), PccThresholds.defaults(), null, false,
        groundTruth);
  }

  @Test
  void stragglersOfReferenceLogsMatchABruteForceMedianAndFactor() throws IOException {
    String root = dir.resolve("reference").toString();
    new Ingest(spark, new IngestOptions(List.of(SharedData.sparkEvents().toString()), root, false,
        Redactor.DEFAULT_PATTERN, 0), Clock.systemUTC()).run();
    DiagnoseJob.Summary reference = DiagnoseJob.run(spark, Clock.systemUTC(), options(root, null));

    Map<String, List<Row>> stages = new HashMap<>();
    for (Row t : table(root, Table.TASKS.tableName()).filter("status = 'SUCCESS'").collectAsList()) {
      String stage = t.getAs("log_id") + "/" + t.getAs("stage_id") + "." + t.getAs("stage_attempt_id");
      stages.computeIfAbsent(stage, k -> new ArrayList<>()).add(t);
    }
    Map<Long, double[]> expected = new HashMap<>(); // task_id -> {median, factor}; ids are unique in these logs
    for (List<Row> tasks : stages.values()) {
      double median = Quantiles.median(tasks.stream().mapToLong(t -> t.<Long>getAs("duration_ms")).toArray());
      for (Row t : tasks) {
        long duration = t.getAs("duration_ms");
        if (Quantiles.isStraggler(duration, median, 1.5)) {
          expected.put(t.getAs("task_id"), new double[] {median, duration / median});
        }
      }
    }
    List<Row> stragglers = table(root, StragglerTable.NAME).collectAsList();
    assertThat(expected).as("the reference logs have stragglers").isNotEmpty();
    assertThat(stragglers).extracting(r -> r.<Long>getAs("task_id"))
        .containsExactlyInAnyOrderElementsOf(expected.keySet());
    for (Row r : stragglers) {
      double[] e = expected.get(r.<Long>getAs("task_id"));
      assertThat(r.<Double>getAs("stage_median_ms")).isEqualTo(e[0]);
      assertThat(r.<Double>getAs("straggler_factor")).isCloseTo(e[1], within(1e-12));
    }
    assertThat(reference.stragglers()).isEqualTo(expected.size());
    // Table 7: per application, the UNEXPLAINED and cause rows add up to at least the stragglers
    Dataset<Row> causes = table(root, StragglerCauses.NAME);
    for (Row app : causes.select("app_id", "app_stragglers").distinct().collectAsList()) {
      long sum = causes.filter(causes.col("app_id").equalTo(app.getString(0))).agg(
          org.apache.spark.sql.functions.sum("stragglers")).first().getLong(0);
      assertThat(sum).isGreaterThanOrEqualTo(app.getLong(1));
    }
  }

  @Test
  void plantedSkewedAndGcHeavyTasksGetTheirCausesAndBadAppsNoRows() {
    Map<String, List<String>> causes = new HashMap<>();
    for (Row r : table(synthetic, StragglerTable.NAME).collectAsList()) {
      causes.put(r.getAs("app_id") + "/" + r.getAs("task_index"), r.getList(r.fieldIndex("causes")));
    }
    assertThat(causes).containsOnlyKeys("app-planted/3", "app-planted/7");
    assertThat(causes.get("app-planted/3")).containsExactly("DATA_SKEW");
    assertThat(causes.get("app-planted/7")).containsExactly("GC");
    assertThat(summary.stragglers()).isEqualTo(2);
    assertThat(summary.unexplained()).isZero();

    List<Row> table7 = table(synthetic, StragglerCauses.NAME).orderBy("cause").collectAsList();
    assertThat(table7).extracting(r -> r.getAs("cause") + ":" + r.getAs("stragglers"))
        .containsExactly("DATA_SKEW:1", "GC:1");
    // lost: (400 - 100) ms each, median of 20 tasks 100 ms
    assertThat(table7.get(0).<Double>getAs("lost_s")).isCloseTo(0.3, within(1e-9));
    assertThat(table7.get(0).<Double>getAs("app_lost_s")).isCloseTo(0.6, within(1e-9));
  }

  @Test
  void gridSearchFindsACellThatExplainsBothInjections() {
    Dataset<Row> grid = table(synthetic, GridSearch.NAME);
    assertThat(grid.filter("model = 'BIGROOTS'").count()).isEqualTo(210);
    assertThat(grid.filter("model = 'PCC'").count()).isEqualTo(231);
    Row best = grid.filter("model = 'BIGROOTS' AND best").first();
    assertThat(best.<Double>getAs("tpr")).isEqualTo(1.0);
    assertThat(best.<Double>getAs("fpr")).isZero();
    // 2 stragglers x 13 causes decisions (the vocabulary)
    assertThat(best.<Long>getAs("tp") + best.<Long>getAs("fp") + best.<Long>getAs("tn") + best.<Long>getAs("fn"))
        .isEqualTo(2L * org.perflab.stragglers.Cause.values().length).isEqualTo(26);
    // λq = 1: no feature is above the application's maximum, nothing is explained
    Row strict = grid.filter("model = 'BIGROOTS' AND threshold = 1.6 AND quantile = 1.0").first();
    assertThat(strict.<Double>getAs("tpr")).isZero();
    assertThat(strict.<Double>getAs("score")).isLessThan(best.getAs("score"));
    assertThat(summary.best()).hasSize(2).allMatch(line -> line.startsWith("diagnose: best "));
  }

  /**
   * Two stages of 12 tasks on four hosts, like data everywhere: host worker-slow runs each of its tasks in 300 ms
   * against 100 ms elsewhere, and one task of stage 0 on worker-b takes 200 ms. The slow host's stragglers are
   * {@code SLOW_HOST}, as {@link org.perflab.stragglers.AppDiagnosis} specifies; worker-b's, alone on its host, is
   * unexplained.
   */
  @Test
  void stragglersOfAHostThatRanEveryTaskSlowNameTheHost() throws IOException {
    String root = dir.resolve("slow-host").toString();
    List<Row> rows = new ArrayList<>();
    String[] hosts = {"worker-a", "worker-b", "worker-c", "worker-slow"};
    for (int stage = 0; stage < 2; stage++) {
      for (int i = 0; i < 12; i++) {
        String host = hosts[i % 4];
        long duration = host.equals("worker-slow") ? 300 : stage == 0 && i == 1 ? 200 : 100;
        rows.add(task("app-slow-host", stage, i, duration, 1000, 2, "SUCCESS", host));
      }
    }
    new TableStore(spark, root).overwrite(Table.TASKS.tableName(), spark.createDataFrame(rows, Table.TASKS.schema()));
    new TableStore(spark, root).overwrite(Table.INGEST_STATUS.tableName(),
        spark.createDataFrame(List.of(), Table.INGEST_STATUS.schema()));

    DiagnoseJob.Summary run = DiagnoseJob.run(spark, Clock.systemUTC(), options(root, null));

    Map<String, List<String>> causes = new HashMap<>();
    for (Row r : table(root, StragglerTable.NAME).collectAsList()) {
      causes.put(r.getAs("stage_id") + "/" + r.getAs("task_index") + " on " + r.getAs("host"),
          r.getList(r.fieldIndex("causes")));
    }
    assertThat(causes).containsOnlyKeys("0/1 on worker-b", "0/3 on worker-slow", "0/7 on worker-slow",
        "0/11 on worker-slow", "1/3 on worker-slow", "1/7 on worker-slow", "1/11 on worker-slow");
    causes.forEach((task, list) -> assertThat(list).as(task)
        .isEqualTo(task.endsWith("worker-slow") ? List.of("SLOW_HOST") : List.of()));
    assertThat(run.unexplained()).isEqualTo(1);

    // across applications: the host, its one application, its six stragglers and what they lost, 6 x 200 ms
    assertThat(StragglerTable.slowHosts(table(root, StragglerTable.NAME)).collectAsList()).singleElement()
        .satisfies(h -> {
          assertThat(h.<String>getAs("host")).isEqualTo("worker-slow");
          assertThat(h.<Long>getAs("applications")).isEqualTo(1);
          assertThat(h.<Long>getAs("stragglers")).isEqualTo(6);
          assertThat(h.<Double>getAs("lost_s")).isCloseTo(1.2, within(1e-9));
        });
    // and in the report's overview, under the stragglers by cause
    Report.run(spark, new ReportOptions(root, root, List.of(), 20), Clock.systemUTC());
    String overview = Files.readString(Path.of(root, "report", "index.html"));
    assertThat(overview).contains("<table id=\"slow-hosts\">").containsPattern(
        "<td class=\"text\">worker-slow</td><td class=\"num\">1</td><td class=\"num\">6</td>"
            + "<td class=\"num\">1.2</td>");
  }

  /**
   * Four one-core executors, four tasks each per stage, like data everywhere: in stage 0 each executor's first task
   * takes 300 ms (its warm-up) and the rest 100 ms; in stage 1, every executor warm, one task takes 200 ms. The first
   * tasks are {@code COLD_EXECUTOR}, the later one unexplained, as {@link org.perflab.stragglers.AppDiagnosis}
   * specifies from the same tasks.
   */
  @Test
  void stragglersAmongTheFirstTasksOfExecutorsThatAllWarmedUpSlowlyNameTheWarmUp() {
    String root = dir.resolve("cold-executors").toString();
    List<org.perflab.stragglers.TaskObservation> observed =
        WarmUpTasks.of(WarmUpTasks::everyExecutorWarmsUpSlowly, Map.of());
    List<Row> rows = observed.stream().map(t -> task("app-cold", t.stageId(), t.taskIndex(), t.durationMs(), 1000, 2,
        "SUCCESS", t.host(), t.executorId(), t.launchTimeMs())).toList();
    new TableStore(spark, root).overwrite(Table.TASKS.tableName(), spark.createDataFrame(rows, Table.TASKS.schema()));
    new TableStore(spark, root).overwrite(Table.INGEST_STATUS.tableName(),
        spark.createDataFrame(List.of(), Table.INGEST_STATUS.schema()));

    DiagnoseJob.run(spark, Clock.systemUTC(), options(root, null));

    Map<String, List<String>> causes = new HashMap<>();
    for (Row r : table(root, StragglerTable.NAME).collectAsList()) {
      causes.put(r.getAs("stage_id") + "/" + r.getAs("task_index"), r.getList(r.fieldIndex("causes")));
    }
    assertThat(causes).containsOnlyKeys("0/0", "0/4", "0/8", "0/12", "1/6");
    causes.forEach((task, list) -> assertThat(list).as(task)
        .isEqualTo(task.startsWith("0/") ? List.of("COLD_EXECUTOR") : List.of()));
    Map<String, List<String>> specified = new HashMap<>();
    org.perflab.stragglers.AppDiagnosis.diagnose(observed, StragglerThresholds.defaults(), PccThresholds.defaults())
        .forEach(d -> specified.put(d.task().stageId() + "/" + d.task().taskIndex(),
            d.causes().stream().map(Enum::name).toList()));
    assertThat(causes).isEqualTo(specified);
  }

  @Test
  void badInputExitsTwoWithTheRangeOrTheMissingTables() {
    PerfLabTest.Run lambda = PerfLabTest.perflab("diagnose", "--input", synthetic, "--lambda-p", "5");
    assertThat(lambda.exitCode()).isEqualTo(2);
    assertThat(lambda.firstErrorLine()).isEqualTo("Cannot diagnose: --lambda-p must be in [0.0, 4.0] (5.0)");
    PerfLabTest.Run quantile = PerfLabTest.perflab("diagnose", "--input", synthetic, "--lambda-q", "0");
    assertThat(quantile.firstErrorLine()).isEqualTo("Cannot diagnose: --lambda-q must be in [0.1, 1.0] (0.0)");
    String empty = dir.resolve("empty").toString();
    PerfLabTest.Run missing = PerfLabTest.perflab("diagnose", "--input", empty);
    assertThat(missing.exitCode()).isEqualTo(2);
    assertThat(missing.firstErrorLine()).startsWith("Cannot diagnose: no ingest tables under " + empty);
  }

  private static Dataset<Row> table(String root, String name) {
    return new TableStore(spark, root).read(name).orElseThrow();
  }

  /**
   * app-planted: stage 0 has 20 tasks of ~100 ms and 1000 input bytes; task 3 reads 4x the bytes and task 7 spends
   * 250 of its ms in GC, both taking 400 ms; task 9 is slow with nothing to show for it but is not a straggler (140
   * ms). Stage 1 has one task. app-one-task-stages has single-task stages of very different lengths; app-failed only
   * failed tasks.
   */
  private static List<Row> syntheticTasks() {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      long duration = i == 3 || i == 7 ? 400 : i == 9 ? 140 : 98 + i % 5;
      rows.add(task("app-planted", 0, i, duration, i == 3 ? 4000 : 1000, i == 7 ? 250 : 2, "SUCCESS"));
    }
    rows.add(task("app-planted", 1, 0, 5000, 1000, 2, "SUCCESS"));
    for (int s = 0; s < 3; s++) {
      rows.add(task("app-one-task-stages", s, 0, 100L * (s + 1) * (s + 1), 1000, 2, "SUCCESS"));
    }
    for (int i = 0; i < 4; i++) {
      rows.add(task("app-failed", 0, i, i == 0 ? 1000 : 10, 1000, 2, "FAILED"));
    }
    return rows;
  }

  private static Row task(String app, int stage, int index, long durationMs, long inputBytes, long gcMs,
      String status) {
    return task(app, stage, index, durationMs, inputBytes, gcMs, status, "worker-1");
  }

  private static Row task(String app, int stage, int index, long durationMs, long inputBytes, long gcMs,
      String status, String host) {
    return task(app, stage, index, durationMs, inputBytes, gcMs, status, host, "1", 1_700_000_000_000L);
  }

  private static Row task(String app, int stage, int index, long durationMs, long inputBytes, long gcMs,
      String status, String host, String executor, long launchMs) {
    Table t = Table.TASKS;
    Object[] v = new Object[t.columns().size()];
    v[t.indexOf("log_id")] = "log-" + app;
    v[t.indexOf("app_id")] = app;
    v[t.indexOf("app_attempt_id")] = "";
    v[t.indexOf("stage_id")] = stage;
    v[t.indexOf("stage_attempt_id")] = 0;
    v[t.indexOf("task_id")] = stage * 100L + index;
    v[t.indexOf("task_index")] = index;
    v[t.indexOf("task_attempt")] = 0;
    v[t.indexOf("launch_time_ms")] = launchMs;
    v[t.indexOf("finish_time_ms")] = launchMs + durationMs;
    v[t.indexOf("duration_ms")] = durationMs;
    v[t.indexOf("executor_id")] = executor;
    v[t.indexOf("host")] = host;
    v[t.indexOf("locality")] = "NODE_LOCAL";
    v[t.indexOf("speculative")] = false;
    v[t.indexOf("status")] = status;
    v[t.indexOf("executor_run_time_ms")] = durationMs - 2;
    v[t.indexOf("executor_cpu_time_ns")] = (durationMs - 2 - gcMs) * 900_000L;
    v[t.indexOf("jvm_gc_time_ms")] = gcMs;
    v[t.indexOf("input_bytes")] = inputBytes;
    v[t.indexOf("input_records")] = inputBytes / 10;
    return RowFactory.create(v);
  }
}
