package org.perflab.jobs;

import static org.apache.spark.sql.functions.col;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.commons.io.FileUtils;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perflab.errors.BadInputException;
import org.perflab.eventlog.redact.Redactor;
import org.perflab.spark.changes.ChangeTables;
import org.perflab.spark.changes.ComparedPair;
import org.perflab.spark.changes.ComparisonKind;
import org.perflab.spark.changes.ComparisonRow;
import org.perflab.spark.changes.Comparisons;
import org.perflab.spark.changes.RunPoint;
import org.perflab.spark.ingest.SparkTestSession;

/**
 * {@code compare} on a bundled sample log ({@code samples/spark-events/local-1795305472854}, wordcount, 3 stages of 4
 * tasks) and two copies under new application ids, an hour and two hours later: B with two properties changed
 * ({@code spark.sql.shuffle.partitions} 4 → 8, {@code spark.executor.memory} set) and a credential property added,
 * 100 ms more GC in each task of stage 1 and stage 1 completing 2000 ms later; C, the same log as another workload
 * ({@code sort}). Everything else is the sample's, so the differences to find are known by hand. Then the bad inputs.
 */
class CompareJobTest {
  private static final String SAMPLE = "local-1795305472854";
  private static final String APP_B = "local-1795305999001";
  private static final String APP_C = "local-1795305999002";
  private static final long HOUR_MS = 3_600_000L;
  /** Epoch ms later than 2001: a field above it is a time stamp, shifted with the copy. */
  private static final long EPOCH_MS_FLOOR = 1_000_000_000_000L;
  private static final ObjectMapper JSON = new ObjectMapper();
  /** A credential B's log carries: the table holds it only redacted. */
  private static final String SECRET = "hunter2-credential";

  @TempDir
  static Path dir;

  private static SparkSession spark;
  private static Path root;
  private static Path ingestOnly;
  private static PerfLabTest.Run compared;
  private static List<Row> rows;

  @BeforeAll
  static void compareTheSampleWithItsChangedCopy() throws IOException {
    spark = SparkTestSession.get();
    Path archive = Files.createDirectories(dir.resolve("archive"));
    Path sample = Scripts.repository().resolve("samples/spark-events").resolve(SAMPLE);
    Files.copy(sample, archive.resolve(SAMPLE));
    copy(sample, archive.resolve(APP_B), APP_B, HOUR_MS, true, "wordcount");
    copy(sample, archive.resolve(APP_C), APP_C, 2 * HOUR_MS, false, "sort");
    root = dir.resolve("root");
    assertThat(PerfLab.run("ingest", "--input", archive.toString(), "--output", root.toString())).isZero();
    ingestOnly = dir.resolve("ingest-only");
    FileUtils.copyDirectory(root.toFile(), ingestOnly.toFile());
    assertThat(PerfLab.run("features", "--input", root.toString())).isZero();
    compared = PerfLabTest.perflab("compare", "--input", root.toString(), "--app", SAMPLE, "--app", APP_B);
    rows = pairRows(SAMPLE, APP_B);
  }

  @Test
  void findsTheChangedPropertiesAndNothingElseOfTheConfigurationWithTheCredentialRedacted() {
    assertThat(compared.exitCode()).as(compared.stderr()).isZero();
    assertThat(of("CONFIGURATION")).extracting(r -> r.getAs("item"), r -> r.getAs("value_a"), r -> r.getAs("value_b"))
        .containsExactly(tuple("spark.executor.memory", "1g (default)", "2g"), tuple("spark.sql.shuffle.partitions", "4", "8"),
            tuple("spark.ssl.keyPassword", null, Redactor.REDACTED));
    assertThat(rows).allSatisfy(r -> assertThat(r.mkString("|")).doesNotContain(SECRET));
  }

  /** The diff names a changed plan with both sides, and a plan on one side only. */
  @Test
  void printsTheSqlPlansSideBySide() {
    ComparedPair pair = new ComparedPair(new RunPoint("etl", "log-a", "app-1", "1", 1_000L, 60, 1, 1),
        new RunPoint("etl", "log-b", "app-2", "1", 2_000L, 60, 1, 1));
    List<ComparisonRow> rows = new ArrayList<>();
    for (String item : List.of("wall_time_s", "task_time_s", "slots")) {
      rows.add(new ComparisonRow(pair, ComparisonKind.RUN, rows.size(), item, null, null, 60.0, 60.0, "s", null, null,
          null, 0L));
    }
    rows.add(new ComparisonRow(pair, ComparisonKind.PLAN, 0, Comparisons.PLAN_ITEM, "joins BroadcastHashJoin 1; plan a",
        "joins SortMergeJoin 1; plan b", null, null, null, null, null, null, 0L));
    assertThat(CompareJob.describe(new CompareJob.Summary(pair, rows))).contains(
        "\nplan: changed\n  joins BroadcastHashJoin 1; plan a -> joins SortMergeJoin 1; plan b\ndata:");
    rows.set(rows.size() - 1, new ComparisonRow(pair, ComparisonKind.PLAN, 0, Comparisons.PLAN_ITEM, null,
        "joins none; plan b", null, null, null, null, null, null, 0L));
    assertThat(CompareJob.describe(new CompareJob.Summary(pair, rows))).contains("\nplan: only B has SQL\n");
  }

  @Test
  void alignsTheThreeStagesAndMeasuresWhatChangedInEach() {
    List<Row> stages = of("STAGE");
    assertThat(stages).extracting(r -> r.getAs("stage_match"), r -> r.getAs("stage_id_a"), r -> r.getAs("stage_id_b"))
        .containsExactly(tuple("MATCHED", 0, 0), tuple("MATCHED", 1, 1), tuple("MATCHED", 3, 3));
    Row slower = stages.get(1);
    assertThat((String) slower.getAs("item")).isEqualTo("runJob at SparkHadoopWriter.scala:85");
    // Stage 1: submitted to completed 946 ms, then 2000 ms later; 4 tasks of 0 ms GC, then 100 ms each.
    assertThat((Double) slower.getAs("amount_a")).isCloseTo(0.946, within(1e-9));
    assertThat((Double) slower.getAs("change")).isCloseTo(2.0, within(1e-9));
    assertThat((Double) slower.getAs("gc_s_a")).isCloseTo(0.0, within(1e-9));
    assertThat((Double) slower.getAs("gc_s_b")).isCloseTo(0.4, within(1e-9));
    for (Row stage : stages) {
      assertThat((Double) stage.getAs("cpu_s_b")).isEqualTo((Double) stage.getAs("cpu_s_a"));
      assertThat((Double) stage.getAs("scheduler_delay_s_b")).isEqualTo((Double) stage.getAs("scheduler_delay_s_a"));
      assertThat((Long) stage.getAs("tasks_a")).isEqualTo(4L);
    }
    assertThat((Double) stages.get(0).getAs("change")).isZero();
    // Stage 0's tasks ran 918 + 952 + 252 + 332 ms with 71 + 71 ms of GC.
    assertThat((Double) stages.get(0).getAs("task_time_s_a")).isCloseTo(2.454, within(1e-9));
    assertThat((Double) stages.get(0).getAs("gc_s_a")).isCloseTo(0.142, within(1e-9));
  }

  /**
   * The wall time split by the stages' spans: its four parts add up to each run's wall time, and B's stage 1, 2.0 s
   * longer in a run of the same wall time (overlapping the stages beside it), moved time from outside the stages into
   * them.
   */
  @Test
  void splitsEachRunsWallTimeByItsStagesAndShowsWhereItMoved() {
    List<Row> run = of("RUN");
    assertThat(run).extracting(r -> r.getAs("item")).containsExactly("wall_time_s", "task_time_s", "slots",
        "before_stages_s", "stages_s", "between_stages_s", "after_stages_s");
    for (String side : List.of("amount_a", "amount_b")) {
      double parts = run.subList(3, 7).stream().mapToDouble(r -> (Double) r.getAs(side)).sum();
      assertThat(parts).as(side).isCloseTo((Double) run.get(0).getAs(side), within(1e-6));
    }
    double intoStages = (Double) run.get(4).getAs("change");
    assertThat(intoStages).isPositive();
    assertThat(run.subList(3, 7).stream().filter(r -> r != run.get(4)).mapToDouble(r -> (Double) r.getAs("change"))
        .sum()).isCloseTo(-intoStages, within(1e-6));
  }

  @Test
  void comparesTheDataOfBothRunsAndFindsItUnchanged() {
    List<Row> data = of("DATA");
    assertThat(data).extracting(r -> r.getAs("item")).containsExactly("input_bytes", "input_records",
        "shuffle_read_bytes", "shuffle_read_records", "shuffle_write_bytes", "shuffle_write_records", "output_bytes",
        "output_records");
    assertThat(data).allSatisfy(r -> assertThat((Double) r.getAs("change")).isZero());
    assertThat((Double) data.get(0).getAs("amount_a")).isPositive();
    assertThat((Double) data.get(2).getAs("amount_a")).isPositive();
  }

  @Test
  void aWorkloadComparesItsTwoLatestRunsAndARerunReplacesThePairsRows() {
    CompareJob.Summary summary = CompareJob.run(spark, Clock.systemUTC(),
        new CompareJob.Options(root.toString(), null, null, "wordcount", false));

    assertThat(summary.pair().a().appId()).isEqualTo(SAMPLE);
    assertThat(summary.pair().b().appId()).isEqualTo(APP_B);
    assertThat(pairRows(SAMPLE, APP_B)).hasSize(rows.size()).hasSize(summary.rows().size());
    String text = CompareJob.describe(summary);
    assertThat(text.lines().findFirst().orElseThrow()).isEqualTo("compare: wordcount " + SAMPLE + " -> " + APP_B
        + ": wall time " + String.format(java.util.Locale.ROOT, "%.1f s -> %.1f s (1.00x)", wall(), wall())
        + ", 3 stages aligned, 0 added, 0 removed");
    List<Row> run = of("RUN");
    assertThat(text.lines().skip(1).findFirst().orElseThrow()).isEqualTo(String.format(java.util.Locale.ROOT,
        "wall time split: before the first stage %.1f s -> %.1f s, in stages %.1f s -> %.1f s, between stages %.1f s ->"
            + " %.1f s, after the last %.1f s -> %.1f s", run.subList(3, 7).stream()
            .flatMap(r -> java.util.stream.Stream.of(r.getAs("amount_a"), r.getAs("amount_b"))).toArray()));
    // the slots obtained and the task time spent, from the RUN rows: both samples ran on local[2]
    assertThat(text.lines().skip(2).findFirst().orElseThrow()).isEqualTo(String.format(java.util.Locale.ROOT,
        "resources: task slots 2 -> 2 (1.00x), task time %.1f s -> %.1f s (%.2fx)", (Double) run.get(1).getAs("amount_a"),
        (Double) run.get(1).getAs("amount_b"), (Double) run.get(1).getAs("ratio")));
    assertThat(text).doesNotContain(SECRET).contains("configuration: 3 differences", "  spark.sql.shuffle.partitions 4 -> 8",
        "  spark.executor.memory 1g (default) -> 2g", "\nplan: no SQL\n", "data: 0 differences",
        "stages that changed most:\n  +2.0 s MATCHED runJob at SparkHadoopWriter.scala:85: 0.9 s -> 2.9 s");
  }

  @Test
  void runsOfDifferentWorkloadsNeedForce() {
    assertBadInput(PerfLabTest.perflab("compare", "--input", root.toString(), "--app", SAMPLE, "--app", APP_C),
        "Cannot compare: " + SAMPLE + " is a run of wordcount and " + APP_C + " of sort (pass --force to compare"
            + " runs of different workloads)");

    PerfLabTest.Run forced = PerfLabTest.perflab("compare", "--input", root.toString(), "--app", SAMPLE, "--app",
        APP_C, "--force");
    assertThat(forced.exitCode()).as(forced.stderr()).isZero();
    assertThat(pairRows(SAMPLE, APP_C)).extracting(r -> r.getAs("workload_id_b")).containsOnly("sort");
  }

  @Test
  void anApplicationThatIsNotThereIsBadInputNamingTheApplicationsThatAre() {
    assertBadInput(PerfLabTest.perflab("compare", "--input", root.toString(), "--app", SAMPLE, "--app", "app-1"),
        "Cannot compare: no application app-1 under " + root + " (3 applications there, e.g. " + SAMPLE + ", "
            + APP_B + ", " + APP_C + "; run perflab features --input " + root + " after ingesting its log)");
  }

  @Test
  void aRootWithoutFeaturesIsBadInputSayingToRunFeatures() {
    assertBadInput(PerfLabTest.perflab("compare", "--input", ingestOnly.toString(), "--workload", "wordcount"),
        "Cannot compare: no workloads table under " + ingestOnly + " (run perflab features --input " + ingestOnly
            + " first)");
  }

  @Test
  void aWorkloadWithOneRunOrNoneIsBadInput() {
    assertBadInput(PerfLabTest.perflab("compare", "--input", root.toString(), "--workload", "sort"),
        "Cannot compare: workload sort has 1 run under " + root + " (2 needed; ingest another run, or give two"
            + " --app)");
    assertThatThrownBy(() -> CompareJob.run(spark, Clock.systemUTC(),
        new CompareJob.Options(root.toString(), null, null, "kmeans", false)))
        .isInstanceOf(BadInputException.class)
        .hasMessage("Cannot compare: no workload kmeans under " + root + " (workloads: sort, wordcount)");
  }

  @Test
  void oneAppOrBothSelectionsAreUsageMistakes() {
    assertBadInput(PerfLabTest.perflab("compare", "--input", root.toString(), "--app", SAMPLE),
        "Cannot compare: give two --app or one --workload (1 --app given)");
    assertBadInput(PerfLabTest.perflab("compare", "--input", root.toString(), "--app", SAMPLE, "--workload", "w"),
        "Cannot compare: give two --app or one --workload (both given)");
    assertBadInput(PerfLabTest.perflab("compare", "--input", root.toString()),
        "Cannot compare: give two --app or one --workload (neither given)");
    assertBadInput(PerfLabTest.perflab("compare", "--input", root.toString(), "--app", SAMPLE, "--app", SAMPLE),
        "Cannot compare: both --app name the same application (" + SAMPLE + "; give two different applications)");
  }

  private static void assertBadInput(PerfLabTest.Run run, String line) {
    assertThat(run.exitCode()).as(run.stderr()).isEqualTo(2);
    assertThat(run.stderr().lines()).containsExactly(line);
  }

  private static double wall() {
    return (Double) of("RUN").get(0).getAs("amount_a");
  }

  private static List<Row> of(String kind) {
    return rows.stream().filter(r -> kind.equals(r.getAs("kind"))).toList();
  }

  private static List<Row> pairRows(String appA, String appB) {
    return spark.read().format("delta").load(root.resolve(ChangeTables.COMPARISONS_TABLE).toString())
        .where(col("app_id_a").equalTo(appA).and(col("app_id_b").equalTo(appB)))
        .orderBy(col("kind"), col("position")).collectAsList();
  }

  /**
   * Writes {@code sample} as another application: {@code appId} instead of the sample's, every time stamp
   * {@code shiftMs} later, its workload {@code workload}; {@code changed} sets two properties, adds 100 ms of GC to
   * each task of stage 1 and completes stage 1 2000 ms later.
   */
  private static void copy(Path sample, Path target, String appId, long shiftMs, boolean changed, String workload)
      throws IOException {
    List<String> lines = new ArrayList<>();
    try (Stream<String> events = Files.lines(sample, StandardCharsets.UTF_8)) {
      for (String line : (Iterable<String>) events::iterator) {
        ObjectNode event = (ObjectNode) JSON.readTree(line.replace(SAMPLE, appId));
        shift(event, shiftMs);
        change(event, changed, workload);
        lines.add(JSON.writeValueAsString(event));
      }
    }
    Files.write(target, lines, StandardCharsets.UTF_8);
  }

  private static void change(ObjectNode event, boolean changed, String workload) {
    String type = event.get("Event").asText();
    if (type.equals("SparkListenerEnvironmentUpdate")) {
      ObjectNode properties = (ObjectNode) event.get("Spark Properties");
      properties.put("spark.perflab.workload", workload);
      if (changed) {
        properties.put("spark.sql.shuffle.partitions", "8");
        properties.put("spark.executor.memory", "2g");
        properties.put("spark.ssl.keyPassword", SECRET);
      }
    }
    if (changed && type.equals("SparkListenerTaskEnd") && event.get("Stage ID").asInt() == 1) {
      ObjectNode metrics = (ObjectNode) event.get("Task Metrics");
      metrics.put("JVM GC Time", metrics.get("JVM GC Time").asLong() + 100);
    }
    if (changed && type.equals("SparkListenerStageCompleted")
        && event.get("Stage Info").get("Stage ID").asInt() == 1) {
      ObjectNode info = (ObjectNode) event.get("Stage Info");
      info.put("Completion Time", info.get("Completion Time").asLong() + 2000);
    }
  }

  /** Adds {@code shiftMs} to every integral field that holds an epoch time stamp. */
  private static void shift(JsonNode node, long shiftMs) {
    if (node instanceof ObjectNode object) {
      List<String> names = new ArrayList<>();
      object.fieldNames().forEachRemaining(names::add);
      for (String name : names) {
        JsonNode child = object.get(name);
        if (child.isIntegralNumber() && child.asLong() > EPOCH_MS_FLOOR) {
          object.put(name, child.asLong() + shiftMs);
        } else {
          shift(child, shiftMs);
        }
      }
    } else if (node.isArray()) {
      node.forEach(child -> shift(child, shiftMs));
    }
  }
}
