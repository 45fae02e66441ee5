package org.perflab.spark.features;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.sum;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perflab.eventlog.fixture.LogFixtures;
import org.perflab.eventlog.redact.Redactor;
import org.perflab.spark.ingest.Ingest;
import org.perflab.spark.ingest.IngestOptions;
import org.perflab.spark.ingest.SparkTestSession;
import org.perflab.spark.storage.ChangedLogs;
import org.perflab.spark.storage.TableStore;
import org.perflab.table.Table;

/**
 * {@code features} over the sample logs, Spark's reference logs and a log with no task, ingested as {@code ingest}
 * does, checked against the ingest tables they come from; then an incremental run after one log is re-ingested.
 */
class FeaturesTest {
  private static final double MS = 0.0015; // one millisecond in seconds, with rounding slack

  @TempDir
  static Path dir;

  private static SparkSession spark;
  private static String tables;
  private static Features.Summary first;
  private static Path noTaskLog;

  @BeforeAll
  static void ingestAndComputeFeatures() throws IOException {
    spark = SparkTestSession.get();
    List<String> inputs = new ArrayList<>();
    inputs.add(Path.of("..", "samples", "spark-events").toAbsolutePath().normalize().toString());
    LogFixtures.referenceLogs().forEach(p -> inputs.add(p.toString()));
    noTaskLog = Files.createDirectories(dir.resolve("extra")).resolve("local-1700000000000");
    Files.writeString(noTaskLog, String.join("\n",
        "{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"3.5.0\"}",
        "{\"Event\":\"SparkListenerApplicationStart\",\"App Name\":\"No tasks 2024-01-31\","
            + "\"App ID\":\"local-1700000000000\",\"Timestamp\":1700000000000,\"User\":\"test\"}",
        "{\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":1700000005000}", ""), StandardCharsets.UTF_8);
    inputs.add(noTaskLog.toString());
    tables = dir.resolve("tables").toString();
    ingest(inputs);
    first = Features.run(spark, new Features.Options(tables, tables, Optional.empty(), false), Clock.systemUTC());
  }

  private static void ingest(List<String> inputs) {
    try {
      new Ingest(spark, new IngestOptions(inputs, tables, false, Redactor.DEFAULT_PATTERN, 0), Clock.systemUTC())
          .run();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static Dataset<Row> read(String table) {
    return new TableStore(spark, tables).read(table).orElseThrow();
  }

  private static Dataset<Row> read(Table table) {
    return new TableStore(spark, tables).read(table).orElseThrow();
  }

  @Test
  void aFirstRunIsFullAndWritesOneRowPerApplicationAttemptAndStageAttempt() {
    long apps = read(Table.APPLICATIONS).count();
    assertThat(first.plan().mode()).isEqualTo(ChangedLogs.Mode.FULL);
    assertThat(first.applications()).isEqualTo(apps).isGreaterThan(10);
    assertThat(read(FeatureTables.WORKLOADS_TABLE).count()).isEqualTo(apps);
    assertThat(read(FeatureTables.APP_FEATURES_TABLE).count()).isEqualTo(apps);
    assertThat(read(FeatureTables.STAGE_FEATURES_TABLE).count()).isEqualTo(read(Table.STAGES).count());
    assertThat(first.rows()).containsEntry(FeatureTables.STAGE_FEATURES_TABLE, read(Table.STAGES).count());
  }

  @Test
  void workloadsFollowTheRuleAndInputBytesAreTheTasksInput() {
    Map<String, Row> byApp = byApp(read(FeatureTables.WORKLOADS_TABLE));
    assertThat(byApp.get("local-1422981780767").<String>getAs("workload_id")).isEqualTo("spark shell");
    assertThat(byApp.get("local-1422981780767").<String>getAs("workload_source")).isEqualTo("NAME");
    assertThat(byApp.get("local-1700000000000").<String>getAs("workload_id")).isEqualTo("no tasks");
    Map<String, Row> taskInput = byApp(read(Table.TASKS).groupBy("app_id").agg(sum("input_bytes").as("bytes")));
    for (Row w : byApp.values()) {
      Row tasks = taskInput.get(w.<String>getAs("app_id"));
      String source = w.getAs("input_bytes_source");
      if (tasks != null && !tasks.isNullAt(1) && tasks.getLong(1) > 0) {
        assertThat(source).isEqualTo("TASKS");
        assertThat(w.<Long>getAs("input_bytes")).isEqualTo(tasks.getLong(1));
      } else {
        assertThat(source).isIn("TAG", "NONE");
      }
      assertThat(w.<Integer>getAs("size_class"))
          .isEqualTo(org.perflab.grouping.SizeClass.of(w.<Long>getAs("input_bytes")));
    }
  }

  @Test
  void applicationFeaturesAgreeWithTheTasksAndBoundEachOther() {
    Map<String, Row> taskTime = byApp(read(Table.TASKS).groupBy("app_id").agg(
        sum("duration_ms").as("ms"), org.apache.spark.sql.functions.max("duration_ms").as("longest")));
    List<Row> features = read(FeatureTables.APP_FEATURES_TABLE).where(col("tasks").gt(0)).collectAsList();
    assertThat(features).hasSizeGreaterThan(10);
    assertThat(features).filteredOn(f -> f.getAs("utilization") != null).hasSizeGreaterThan(10);
    assertThat(features).filteredOn(f -> f.getAs("ideal_time_s") != null).hasSizeGreaterThan(10);
    for (Row f : features) {
      String app = f.getAs("app_id");
      double wall = f.getAs("wall_time_s");
      double critical = f.getAs("critical_path_s");
      Row tasks = taskTime.get(app);
      assertThat(f.<Double>getAs("task_time_s")).as(app).isCloseTo(tasks.getLong(1) / 1000.0, within(MS));
      assertThat(f.<Double>getAs("longest_task_s")).as(app).isCloseTo(tasks.getLong(2) / 1000.0, within(MS));
      assertThat(critical).as(app).isLessThanOrEqualTo(wall + MS).isGreaterThanOrEqualTo(f.<Double>getAs(
          "longest_task_s") - MS);
      assertThat(f.<Double>getAs("driver_only_s")).as(app).isBetween(0.0, wall);
      assertThat(f.<Double>getAs("gc_share")).as(app).isBetween(0.0, 1.0);
      // Spark 1.x logs in local mode name no cores for the driver: no slots, no capacity, so no utilisation.
      if (f.getAs("executor_core_s_available") != null) {
        assertThat(f.<Double>getAs("utilization")).as(app).isGreaterThan(0.0).isLessThanOrEqualTo(1.0);
      } else {
        assertThat((Object) f.getAs("utilization")).as(app).isNull();
      }
      if (f.getAs("slots") != null) {
        assertThat(f.<Double>getAs("ideal_time_s")).as(app).isBetween(critical - MS, wall + MS);
      } else {
        assertThat((Object) f.getAs("ideal_time_s")).as(app).isNull();
      }
    }
  }

  @Test
  void stageQuantilesAreOrderedAndLocalityCountsAddUp() {
    List<Row> stages = read(FeatureTables.STAGE_FEATURES_TABLE).where(col("successful_tasks").gt(0)).collectAsList();
    assertThat(stages).isNotEmpty();
    for (Row s : stages) {
      double p50 = s.getAs("duration_p50_ms");
      double p90 = s.getAs("duration_p90_ms");
      double p99 = s.getAs("duration_p99_ms");
      long max = s.getAs("duration_max_ms");
      assertThat(p50).isLessThanOrEqualTo(p90);
      assertThat(p90).isLessThanOrEqualTo(p99);
      assertThat(p99).isLessThanOrEqualTo(max);
      assertThat(s.<Double>getAs("duration_max_over_median")).isGreaterThanOrEqualTo(p50 > 0 ? 1.0 : 0.0);
      long locality = s.<Long>getAs("process_local_tasks") + s.<Long>getAs("node_local_tasks")
          + s.<Long>getAs("rack_local_tasks") + s.<Long>getAs("no_pref_tasks") + s.<Long>getAs("any_tasks");
      assertThat(locality).isLessThanOrEqualTo(s.<Long>getAs("tasks"));
    }
  }

  /**
   * Beyond the bound of exact quantiles (here 0 tasks: every stage), a stage's quantiles are values of its successful
   * tasks whose rank is within the sketch's rank error of the exact quantile's, and every other column is the exact
   * computation's; under the default bound (every sample stage) the rows are the exact computation's.
   */
  @Test
  void beyondTheBoundQuantilesAreWithinTheirRankErrorAndEverythingElseIsExact() {
    FeatureInputs in = FeatureInputs.read(new TableStore(spark, tables), "test");
    List<String> key = List.of("log_id", "app_id", "app_attempt_id", "stage_id", "stage_attempt_id");
    Map<List<Object>, Row> exact = byKey(StageFeatures.of(in, Long.MAX_VALUE), key);
    assertThat(byKey(StageFeatures.of(in), key)).as("the samples' stages are under the default bound")
        .isEqualTo(exact);
    Map<List<Object>, Row> approx = byKey(StageFeatures.of(in, 0), key);
    assertThat(approx.keySet()).isEqualTo(exact.keySet());
    Map<List<Object>, Map<String, List<Double>>> values = successfulTaskValues(in, key);
    List<String> quantiles = List.of("duration_p50_ms", "duration_p90_ms", "duration_p99_ms");
    List<String> overMedians = List.of("duration", "input", "shuffle_read");
    int checked = 0;
    for (Map.Entry<List<Object>, Row> e : exact.entrySet()) {
      Row a = approx.get(e.getKey());
      for (String column : e.getValue().schema().fieldNames()) {
        if (!quantiles.contains(column) && !column.endsWith("_max_over_median")) {
          Object want = e.getValue().getAs(column);
          if (want instanceof Double d) {
            assertThat(a.<Double>getAs(column)).as(column + " of " + e.getKey())
                .isCloseTo(d, within(1e-9 * Math.abs(d)));
          } else {
            assertThat(a.<Object>getAs(column)).as(column + " of " + e.getKey()).isEqualTo(want);
          }
        }
      }
      Map<String, List<Double>> stage = values.get(e.getKey());
      if (stage == null) {
        continue;
      }
      for (String column : quantiles) {
        double[] range = rankRange(stage.get("duration"), Integer.parseInt(column.replaceAll("\\D", "")) / 100.0);
        double approximate = a.<Double>getAs(column);
        assertThat(stage.get("duration")).as("a task's duration").contains(approximate);
        assertThat(approximate).as(column + " of " + e.getKey()).isBetween(range[0], range[1]);
        assertThat(e.getValue().<Double>getAs(column)).isBetween(range[0], range[1]);
        checked++;
      }
      for (String metric : overMedians) {
        List<Double> sorted = stage.get(metric);
        double[] median = rankRange(sorted, 0.5);
        double max = sorted.get(sorted.size() - 1);
        Double ratio = a.getAs(metric + "_max_over_median");
        if (median[0] > 0) {
          assertThat(ratio).as(metric + "_max_over_median of " + e.getKey()).isBetween(max / median[1] - 1e-9,
              max / median[0] + 1e-9);
          checked++;
        }
      }
    }
    assertThat(checked).as("quantiles checked").isGreaterThan(100);
  }

  private static Map<List<Object>, Row> byKey(Dataset<Row> rows, List<String> key) {
    Map<List<Object>, Row> out = new java.util.HashMap<>();
    for (Row r : rows.collectAsList()) {
      out.put(key.stream().map(r::getAs).toList(), r);
    }
    return out;
  }

  /**
   * The values between which a {@code p} quantile of {@code sorted} may fall: the order statistics around its exact
   * position, widened by the sketch's rank error ({@code n / QUANTILE_ACCURACY}, rounded up).
   */
  private static double[] rankRange(List<Double> sorted, double p) {
    int n = sorted.size();
    int error = (int) Math.ceil((double) n / StageFeatures.QUANTILE_ACCURACY);
    double position = p * (n - 1);
    return new double[] {sorted.get(Math.max(0, (int) Math.floor(position) - error)),
        sorted.get(Math.min(n - 1, (int) Math.ceil(position) + error))};
  }

  /** Per stage attempt with successful tasks: each metric's values over them, sorted (as doubles). */
  private static Map<List<Object>, Map<String, List<Double>>> successfulTaskValues(FeatureInputs in,
      List<String> key) {
    Map<List<Object>, Map<String, List<Double>>> out = new java.util.HashMap<>();
    List<Row> tasks = in.tasks().where(col("status").equalTo("SUCCESS"))
        .select(col("log_id"), col("app_id"), col("app_attempt_id"), col("stage_id"), col("stage_attempt_id"),
            col("duration_ms").cast("double").as("duration"), TaskColumns.metric("input_bytes").cast("double")
                .as("input"), TaskColumns.shuffleReadBytes().cast("double").as("shuffle_read"))
        .collectAsList();
    for (Row t : tasks) {
      Map<String, List<Double>> stage = out.computeIfAbsent(key.stream().map(t::getAs).toList(),
          k -> new java.util.HashMap<>());
      for (String metric : List.of("duration", "input", "shuffle_read")) {
        stage.computeIfAbsent(metric, m -> new ArrayList<>()).add(t.getAs(metric));
      }
    }
    out.values().forEach(stage -> stage.values().forEach(java.util.Collections::sort));
    return out;
  }

  @Test
  void anApplicationWithNoTaskGetsZerosAndNulls() {
    Row f = byApp(read(FeatureTables.APP_FEATURES_TABLE)).get("local-1700000000000");
    assertThat(f.<Long>getAs("tasks")).isZero();
    assertThat(f.<Double>getAs("task_time_s")).isZero();
    assertThat(f.<Double>getAs("wall_time_s")).isEqualTo(5.0);
    assertThat(f.<Double>getAs("driver_only_s")).isEqualTo(5.0);
    assertThat(f.<Double>getAs("critical_path_s")).isEqualTo(5.0);
    assertThat((Object) f.getAs("gc_share")).isNull();
    assertThat((Object) f.getAs("longest_task_s")).isNull();
  }

  @Test
  void anIncrementalRunRecomputesOnlyTheReingestedLog() {
    Dataset<Row> before = read(FeatureTables.APP_FEATURES_TABLE);
    long total = before.count();
    ingest(List.of(noTaskLog.toString()));
    Features.Summary incremental =
        Features.run(spark, new Features.Options(tables, tables, Optional.empty(), false), Clock.systemUTC());
    assertThat(incremental.plan().mode()).isEqualTo(ChangedLogs.Mode.INCREMENTAL);
    assertThat(incremental.plan().logIds()).hasSize(1);
    assertThat(incremental.applications()).isEqualTo(1);
    assertThat(incremental.rows()).containsEntry(FeatureTables.APP_FEATURES_TABLE, 1L)
        .containsEntry(FeatureTables.STAGE_FEATURES_TABLE, 0L);
    assertThat(read(FeatureTables.APP_FEATURES_TABLE).count()).isEqualTo(total);
    assertThat(read(FeatureTables.WORKLOADS_TABLE).where(col("app_id").equalTo("local-1700000000000")).count())
        .isEqualTo(1);

    Features.Summary again =
        Features.run(spark, new Features.Options(tables, tables, Optional.empty(), false), Clock.systemUTC());
    assertThat(again.plan().mode()).isEqualTo(ChangedLogs.Mode.UP_TO_DATE);
    assertThat(again.applications()).isZero();
  }

  private static Map<String, Row> byApp(Dataset<Row> rows) {
    Map<String, Row> byApp = new java.util.HashMap<>();
    rows.collectAsList().forEach(r -> byApp.put(r.getAs("app_id"), r));
    return byApp;
  }
}
