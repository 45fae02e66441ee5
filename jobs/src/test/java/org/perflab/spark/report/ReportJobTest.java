package org.perflab.spark.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.perflab.errors.BadInputException;
import org.perflab.spark.changes.ChangeTables;
import org.perflab.spark.ingest.SparkTestSession;
import org.perflab.jobs.PerfLab;
import org.perflab.spark.storage.TableStore;

/**
 * {@code report} over the bundled samples (ingested, with features and diagnosis, in the test) plus a log whose
 * application name and user are script payloads, and small recommendation and sweep tables: the site's files and
 * security headers, the workload_history rows, and the pages in headless Chromium (console, charts, numbers, the
 * payload shown as text).
 */
class ReportJobTest {
  private static final String SCRIPT_PAYLOAD = "<script>window.__pwned=1</script>";
  private static final String ATTRIBUTE_PAYLOAD = "\"><img src=x onerror=\"window.__pwned=2\">";
  private static final String PAYLOAD_APP = "local-1795305999999";
  private static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'";

  @TempDir static Path dir;

  private static SparkSession spark;
  private static Path root;
  private static Report.Summary summary;
  private static String workload;
  private static ChromeDriver browser;

  @BeforeAll
  static void reportOfTheSamples() throws IOException {
    spark = SparkTestSession.get();
    Path logs = dir.resolve("logs");
    root = dir.resolve("out");
    copySamples(logs);
    assertThat(PerfLab.run("ingest", "--input", logs.toString(), "--output", root.toString())).isZero();
    assertThat(PerfLab.run("features", "--input", root.toString())).isZero();
    assertThat(PerfLab.run("diagnose", "--input", root.toString())).isZero();
    appendAFindingThatSavesNothing();
    workload = spark.read().format("delta").load(root.resolve("app_features").toString())
        .orderBy("workload_id").first().getAs("workload_id");
    writeRecommendationAndSweepTables(workload);
    writeRegressionsTable();
    summary = Report.run(spark, new ReportOptions(root.toString(), root.toString(), List.of(), 20), clock());
  }

  @AfterAll
  static void closeBrowser() {
    if (browser != null) {
      browser.quit();
    }
  }

  private static Clock clock() {
    return Clock.fixed(Instant.parse("2026-11-26T06:00:00Z"), ZoneOffset.UTC);
  }

  /** The samples, and a copy of one of them under another application id with script payloads as name and user. */
  private static void copySamples(Path logs) throws IOException {
    Path samples = Path.of("..", "samples", "spark-events");
    Files.createDirectories(logs);
    try (Stream<Path> files = Files.walk(samples)) {
      for (Path source : files.toList()) {
        Path target = logs.resolve(samples.relativize(source).toString());
        if (Files.isDirectory(source)) {
          Files.createDirectories(target);
        } else {
          Files.copy(source, target);
        }
      }
    }
    String log = Files.readString(samples.resolve("local-1795305472854"), StandardCharsets.UTF_8)
        .replace("local-1795305472854", PAYLOAD_APP)
        .replace("\"App Name\":\"perflab-wordcount-tiny\"", "\"App Name\":" + json(SCRIPT_PAYLOAD))
        .replace("\"spark.app.name\":\"perflab-wordcount-tiny\"", "\"spark.app.name\":" + json(SCRIPT_PAYLOAD))
        .replace("\"User\":\"root\"", "\"User\":" + json(ATTRIBUTE_PAYLOAD));
    Files.writeString(logs.resolve(PAYLOAD_APP), log, StandardCharsets.UTF_8);
  }

  private static String json(String text) {
    return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  /**
   * One LOW {@code TINY_TASKS} finding on the first stage of a sample application, with no savings (0 s, 0
   * core-hours), appended to diagnose's findings, as the rule writes for a tiny shuffle of a tiny application. The
   * samples' own findings save something since stages outside Spark SQL lost their {@code SHUFFLE_PARTITIONS}
   * findings (docs/findings.md#stages-outside-sql).
   */
  private static void appendAFindingThatSavesNothing() {
    Row stage = spark.read().format("delta").load(root.resolve("stage_features").toString())
        .where("app_id <> '" + PAYLOAD_APP + "'").orderBy("log_id", "stage_id", "stage_attempt_id").first();
    Row finding = RowFactory.create(stage.getAs("log_id"), stage.getAs("app_id"), stage.getAs("app_attempt_id"),
        stage.getAs("stage_id"), stage.getAs("stage_attempt_id"), null, null, "TINY_TASKS", "LOW",
        Map.of("duration_p50_ms", 900.0, "tasks", 4.0, "core_hours_saved", 0.0), 0.0,
        "Tasks are so short that scheduling overhead dominates.", Map.<String, String>of());
    new TableStore(spark, root.toString()).append(org.perflab.spark.findings.FindingsTable.NAME,
        spark.createDataFrame(List.of(finding), org.perflab.spark.findings.FindingsTable.SCHEMA));
  }

  /** Tables of jobs built elsewhere (recommend, memory, sweep), with their documented columns, for one workload. */
  private static void writeRecommendationAndSweepTables(String workload) {
    TableStore out = new TableStore(spark, root.toString());
    StructType recommendations = new StructType().add("workload_id", DataTypes.StringType)
        .add("input_bytes", DataTypes.LongType).add("executors", DataTypes.IntegerType)
        .add("cores_per_executor", DataTypes.IntegerType).add("executor_memory_bytes", DataTypes.LongType)
        .add("shuffle_partitions", DataTypes.IntegerType).add("predicted_s", DataTypes.DoubleType)
        .add("predicted_low_s", DataTypes.DoubleType).add("predicted_high_s", DataTypes.DoubleType)
        .add("core_hours", DataTypes.DoubleType).add("gb_hours", DataTypes.DoubleType)
        .add("cost", DataTypes.DoubleType).add("predictor", DataTypes.StringType)
        .add("spark_submit_args", DataTypes.StringType).add("evidence", DataTypes.StringType);
    out.overwrite("recommendations", spark.createDataFrame(List.of(RowFactory.create(workload, 1_000_000L, 4, 2,
        2_147_483_648L, 16, 12.5, 10.0, 15.0, 0.0278, 0.0556, 0.0278, "sqrt",
        "--num-executors 4 --executor-cores 2 --conf spark.sql.shuffle.partitions=16 --conf "
            + "spark.executor.memory=2g", "lowest predicted cost </script> within the deadline")), recommendations));
    StructType memory = new StructType().add("workload_id", DataTypes.StringType)
        .add("applications", DataTypes.IntegerType).add("executor_memory_bytes", DataTypes.LongType)
        .add("memory_fraction", DataTypes.DoubleType).add("storage_fraction", DataTypes.DoubleType)
        .add("memory_overhead_bytes", DataTypes.LongType).add("tier", DataTypes.StringType)
        .add("evidence", DataTypes.StringType).add("reason", DataTypes.StringType);
    out.overwrite("memory_recommendations", spark.createDataFrame(List.of(RowFactory.create(workload, 3,
        1_610_612_736L, 0.412, 0.25, 402_653_184L, "event_log", "peak heap 0.9 GiB + 20 % headroom", null)), memory));
    StructType sweep = new StructType().add("workload_id", DataTypes.StringType)
        .add("executors", DataTypes.IntegerType).add("cores_per_executor", DataTypes.IntegerType)
        .add("mean_s", DataTypes.DoubleType).add("core_hours", DataTypes.DoubleType)
        .add("rule", DataTypes.StringType);
    List<Row> points = new ArrayList<>();
    for (int e : new int[] {1, 2, 4}) {
      for (int c : new int[] {1, 2}) {
        double mean = 40.0 / (e * c) + 2;
        points.add(RowFactory.create(workload, e, c, mean, e * c * mean / 3600, "baseline"));
      }
    }
    out.overwrite("sweep_results", spark.createDataFrame(points, sweep));
    StructType fits = new StructType().add("workload_id", DataTypes.StringType).add("size_class", DataTypes.IntegerType)
        .add("model", DataTypes.StringType).add("points", DataTypes.IntegerType).add("a", DataTypes.DoubleType)
        .add("b", DataTypes.DoubleType).add("r2", DataTypes.DoubleType).add("best", DataTypes.BooleanType)
        .add("params", DataTypes.createMapType(DataTypes.StringType, DataTypes.DoubleType));
    out.overwrite("scaling_fits", spark.createDataFrame(List.of(
        RowFactory.create(workload, 20, "sqrt", 3, 30.0, 0.5, 0.97, true, null),
        RowFactory.create(workload, null, "ernest", 4, null, null, 0.9, false,
            scala.jdk.javaapi.CollectionConverters.asScala(Map.of("theta0", 1.0, "theta1", 20.0, "theta2", 0.5,
                "theta3", 0.1)))), fits));
    StructType best = new StructType().add("workload_id", DataTypes.StringType).add("kind", DataTypes.StringType)
        .add("executors", DataTypes.IntegerType).add("cores_per_executor", DataTypes.IntegerType)
        .add("time_s", DataTypes.DoubleType).add("core_hours", DataTypes.DoubleType);
    out.overwrite("sweep_best", spark.createDataFrame(List.of(
        RowFactory.create(workload, "pareto", 1, 1, 42.0, 42.0 / 3600),
        RowFactory.create(workload, "pareto", 4, 2, 7.0, 8 * 7.0 / 3600)), best));
  }

  /** The night of {@link #writeRegressionsTable}, epoch ms, and the night before it. */
  private static final long NIGHT_MS = 1_795_500_000_000L;
  private static final long NIGHT_BEFORE_MS = NIGHT_MS - 86_400_000L;
  /** Three real applications: the night's two regressions, larger extra core-hours first, and last night's one. */
  private static List<Row> regressed;

  /**
   * A {@code regressions} table (the job's schema) of two nights: the earlier one with one regression, the latest
   * with a steady run and two regressions, the one with fewer extra seconds costing more extra core-hours
   * (0.03 − 0.03 ÷ 1.5 = 0.01 against 0.004 − 0.004 ÷ 1.25 = 0.0008).
   */
  private static void writeRegressionsTable() {
    regressed = spark.read().format("delta").load(root.resolve("app_features").toString())
        .where("app_id <> '" + PAYLOAD_APP + "'").orderBy("log_id").limit(4).collectAsList();
    List<Row> rows = List.of(
        regression(regressed.get(0), NIGHT_BEFORE_MS, "REGRESSION", 30.0, 0.03, 1.5, "CONFIGURATION: old"),
        regression(regressed.get(1), NIGHT_MS, "REGRESSION", 3.0, 0.004, 1.25, "DATA: input 2x", null, "TREND"),
        regression(regressed.get(2), NIGHT_MS, "REGRESSION", 2.0, 0.03, 1.5,
            "CONFIGURATION: spark.executor.instances 4 -> 2", regressed.get(3).getAs("app_id")),
        changed(regression(regressed.get(3), NIGHT_MS, "WITHIN_NOISE", null, 0.01, 1.0, null),
            regressed.get(2).getAs("app_id"), "spark.sql.shuffle.partitions 200 -> 400", "SQL plan changed"));
    new TableStore(spark, root.toString()).overwrite(ChangeTables.REGRESSIONS_TABLE,
        spark.createDataFrame(rows, ChangeTables.REGRESSIONS));
  }

  /** {@code row} with a previous run and what changed since it. */
  private static Row changed(Row row, String previous, String... changes) {
    Object[] cells = new Object[row.size()];
    for (int i = 0; i < cells.length; i++) {
      cells[i] = row.get(i);
    }
    cells[row.fieldIndex("previous_app_id")] = previous;
    cells[row.fieldIndex("changes")] = changes;
    return new org.apache.spark.sql.catalyst.expressions.GenericRowWithSchema(cells, ChangeTables.REGRESSIONS);
  }

  private static Row regression(Row app, long judgedAt, String verdict, Double extraS, double coreHours,
      double coreRatio, String firstCause) {
    return regression(app, judgedAt, verdict, extraS, coreHours, coreRatio, firstCause, null);
  }

  private static Row regression(Row app, long judgedAt, String verdict, Double extraS, double coreHours,
      double coreRatio, String firstCause, String reference) {
    return regression(app, judgedAt, verdict, extraS, coreHours, coreRatio, firstCause, reference,
        "REGRESSION".equals(verdict) ? "STEP" : null);
  }

  /**
   * A row of {@code app}'s verdict; {@code reference} the baseline run its causes were measured against, or null;
   * {@code changeKind} how the change was found ({@code STEP}, {@code TREND}), or null.
   */
  private static Row regression(Row app, long judgedAt, String verdict, Double extraS, double coreHours,
      double coreRatio, String firstCause, String reference, String changeKind) {
    Map<String, Object> values = new java.util.HashMap<>(Map.of("log_id", app.getAs("log_id"), "app_id",
        app.getAs("app_id"), "app_attempt_id", app.getAs("app_attempt_id"), "workload_id", app.getAs("workload_id"),
        "verdict", verdict, "wall_time_verdict", verdict, "core_hours", coreHours, "core_hours_ratio", coreRatio,
        "judged_at_ms", judgedAt, "wall_time_ratio", 1.3));
    values.put("extra_s", extraS);
    values.put("first_cause", firstCause);
    values.put("reference_app_id", reference);
    values.put("change_kind", changeKind);
    values.put("actions", firstCause == null ? new String[] {""}
        : new String[] {"--conf spark.executor.instances=4", "read finding SPILL"});
    List<Object> cells = new ArrayList<>();
    for (var field : ChangeTables.REGRESSIONS.fields()) {
      Object v = values.get(field.name());
      cells.add(v != null || field.nullable() ? v : zero(field.dataType()));
    }
    return new org.apache.spark.sql.catalyst.expressions.GenericRowWithSchema(cells.toArray(),
        ChangeTables.REGRESSIONS);
  }

  /** A required column's filler: an empty array, a steady verdict, false or 0 of the column's type. */
  private static Object zero(org.apache.spark.sql.types.DataType type) {
    if (type instanceof org.apache.spark.sql.types.ArrayType) {
      return new Object[0];
    }
    if (type.equals(DataTypes.StringType)) {
      return "WITHIN_NOISE";
    }
    if (type.equals(DataTypes.BooleanType)) {
      return Boolean.FALSE;
    }
    return type.equals(DataTypes.LongType) ? (Object) 0L : (Object) 0;
  }

  private static Path site() {
    return root.resolve(Site.DIRECTORY);
  }

  @Test
  void theSiteIsSelfContainedAndEveryPageHasTheContentSecurityPolicy() throws IOException {
    assertThat(summary.index().toString()).endsWith("report/index.html");
    assertThat(site().resolve("assets/echarts.min.js")).isNotEmptyFile();
    assertThat(summary.applicationPages()).isGreaterThanOrEqualTo(10);
    List<Path> pages;
    try (Stream<Path> files = Files.walk(site())) {
      pages = files.filter(p -> p.toString().endsWith(".html")).toList();
    }
    assertThat(pages).hasSize(summary.pages());
    for (Path page : pages) {
      String html = Files.readString(page);
      assertThat(html).as(page.toString()).contains("<meta http-equiv=\"Content-Security-Policy\" content=\"" + CSP);
      assertThat(html).as(page.toString()).doesNotContainPattern("(src|href)=\"(https?:)?//");
      java.util.regex.Matcher scripts = java.util.regex.Pattern.compile("<script[^>]*>").matcher(html);
      while (scripts.find()) {
        assertThat(scripts.group()).as("a script of " + page + " is a file of the site or JSON data")
            .matches("<script (src=\"(\\.\\./)?assets/[a-z.]+\\.js\" defer|type=\"application/json\" id=\"[a-z-]+\")>");
      }
    }
    assertLinksResolve(site());
    try (Stream<Path> left = Files.list(root)) {
      assertThat(left.map(p -> p.getFileName().toString())).noneMatch(name -> name.startsWith("_report-"));
    }
  }

  @Test
  void aRootWithoutTablesGivesNotesAndPagesWhoseLinksResolve() throws IOException {
    Path empty = dir.resolve("empty");
    Report.Summary nothing = Report.run(spark, new ReportOptions(empty.toString(), empty.toString(), List.of(), 5),
        clock());
    assertThat(nothing.historyRows()).isZero();
    assertThat(nothing.night().runId()).isEqualTo("report-2026-11-26");
    String index = Files.readString(empty.resolve("report/index.html"));
    assertThat(index).contains("No ingest_status table under").contains("No app_features table under")
        .contains("No findings table under").contains("No straggler_causes table under");
    assertThat(index).as("no regressions table: no section").doesNotContain("id=\"regressions\"");
    JsonNode json = new ObjectMapper().readTree(empty.resolve("report/regressions.json").toFile());
    assertThat(json.path("format_version").asInt()).isEqualTo(2);
    assertThat(json.path("regressions_table").asBoolean()).isFalse();
    assertThat(json.path("regressions")).isEmpty();
    assertLinksResolve(empty.resolve("report"));
  }

  /** Every relative link and script or style reference of every page names a file of the site. */
  private static void assertLinksResolve(Path site) throws IOException {
    List<Path> pages;
    try (Stream<Path> files = Files.walk(site)) {
      pages = files.filter(p -> p.toString().endsWith(".html")).toList();
    }
    java.util.regex.Pattern reference = java.util.regex.Pattern.compile("(?:href|src)=\"([^\"#]+)\"");
    for (Path page : pages) {
      java.util.regex.Matcher links = reference.matcher(Files.readString(page));
      while (links.find()) {
        assertThat(page.getParent().resolve(links.group(1)).normalize()).as("%s in %s", links.group(1), page)
            .exists();
      }
    }
  }

  @Test
  void thePayloadsAreEscapedInTheHtmlAndTheChartData() throws IOException {
    String html = Files.readString(site().resolve("index.html"));
    assertThat(html).doesNotContain(SCRIPT_PAYLOAD).doesNotContain("<img src=x");
    assertThat(html).contains("&lt;script&gt;window.__pwned=1&lt;/script&gt;");
    String workloadPage = Files.readString(site().resolve(Paths.workloadPage(workload)));
    assertThat(workloadPage).contains("lowest predicted cost &lt;/script&gt; within the deadline");
    assertThat(ScriptJson.of(Map.of("name", "</script><!--&\u2028")).json())
        .isEqualTo("{\"name\":\"\\u003c/script\\u003e\\u003c!--\\u0026\\u2028\"}");
  }

  @Test
  void regressionsJsonListsTheNightsRegressionsMostExtraCoreHoursFirst() throws IOException {
    JsonNode json = new ObjectMapper().readTree(site().resolve("regressions.json").toFile());
    assertThat(json.path("format_version").asInt()).isEqualTo(2);
    assertThat(json.path("generated_at").asText()).isEqualTo("2026-11-26T06:00:00Z");
    assertThat(json.path("regressions_table").asBoolean()).isTrue();
    assertThat(json.path("judged_at").asText()).isEqualTo(java.time.Instant.ofEpochMilli(NIGHT_MS).toString());
    assertThat(json.path("judged_runs").asInt()).isEqualTo(3);
    JsonNode list = json.path("regressions");
    assertThat(list).hasSize(2);
    assertThat(list.get(0).path("app_id").asText()).isEqualTo(regressed.get(2).<String>getAs("app_id"));
    assertThat(list.get(0).path("extra_core_hours").asDouble()).isCloseTo(0.01, within(1e-12));
    assertThat(list.get(0).path("first_cause").asText()).isEqualTo("CONFIGURATION: spark.executor.instances 4 -> 2");
    assertThat(list.get(0).path("actions").get(0).asText()).isEqualTo("--conf spark.executor.instances=4");
    assertThat(list.get(0).path("change_kind").asText()).isEqualTo("STEP");
    assertThat(list.get(0).path("metric").asText()).isEqualTo("wall_time");
    assertThat(site().resolve(list.get(0).path("page").asText())).exists();
    assertThat(site().resolve(list.get(0).path("comparison_page").asText())).exists();
    assertThat(list.get(1).path("comparison_page").isNull()).as("no reference run, no comparison").isTrue();
    assertThat(list.get(1).path("app_id").asText()).isEqualTo(regressed.get(1).<String>getAs("app_id"));
    assertThat(list.get(1).path("extra_s").asDouble()).isEqualTo(3.0);
    assertThat(list.get(1).path("change_kind").asText()).isEqualTo("TREND");
    JsonNode changed = json.path("changed");
    assertThat(changed).as("the run that changed without regressing").hasSize(1);
    assertThat(changed.get(0).path("app_id").asText()).isEqualTo(regressed.get(3).<String>getAs("app_id"));
    assertThat(changed.get(0).path("verdict").asText()).isEqualTo("WITHIN_NOISE");
    assertThat(changed.get(0).path("previous_app_id").asText()).isEqualTo(regressed.get(2).<String>getAs("app_id"));
    assertThat(changed.get(0).path("changes")).extracting(JsonNode::asText)
        .containsExactly("spark.sql.shuffle.partitions 200 -> 400", "SQL plan changed");
  }

  /**
   * Beyond {@code --top} regressions (a first night over an archive judges all of it), the overview shows the
   * costliest and links pages that list them all, in the same order; only those shown get application and comparison
   * pages, and regressions.json names no page for the others.
   */
  @Test
  void beyondTopTheOverviewShowsTheCostliestRegressionsAndItsPagesListThemAll() throws IOException {
    NightRegressions night = NightRegressions.read(new Inputs(spark, new ReportOptions(root.toString(),
        root.toString(), List.of(), 1)));
    Map<String, View.Page> pages = new java.util.LinkedHashMap<>();
    java.util.Set<AppKey> linked = new java.util.LinkedHashSet<>();

    View.Section section = night.section(linked, 1, pages).orElseThrow();

    View.TableView shown = section.tables().get(0);
    String costliest = regressed.get(2).getAs("app_id");
    assertThat(shown.rows()).singleElement().satisfies(row -> assertThat(row.get(1).text()).isEqualTo(costliest));
    assertThat(shown.pages()).containsExactly(new View.Link("1", "regressions-1.html"));
    assertThat(section.notes().get(0)).isEqualTo(String.format(Locale.ROOT, "2 of the 3 runs judged at %s"
        + " regressed against their workload's history, most extra core-hours first; the 1 costliest here, with their"
        + " application and comparison pages, all 2 on the pages linked below the table (regressions; how they are"
        + " judged: docs/regressions.md).",
        Instant.ofEpochMilli(NIGHT_MS)));
    assertThat(pages).containsOnlyKeys("regressions-1.html");
    View.TableView all = pages.get("regressions-1.html").sections().get(0).tables().get(0);
    assertThat(all.rows()).extracting(row -> row.get(1).text()).containsExactly(costliest,
        regressed.get(1).<String>getAs("app_id"));
    assertThat(all.rows()).extracting(row -> row.get(1).href()).as("pages for the shown one only")
        .containsExactly(AppKey.of(regressed.get(2)).page(), null);
    assertThat(linked).extracting(AppKey::appId).containsExactly(costliest);
    assertThat(night.paged(1)).extracting(r -> r.<String>getAs("app_id")).containsExactly(costliest);
    JsonNode json = new ObjectMapper().readTree(night.json(Instant.parse("2026-11-26T06:00:00Z"), 1));
    assertThat(json.path("regressions")).hasSize(2);
    assertThat(json.path("regressions").get(0).path("page").asText()).isEqualTo(AppKey.of(regressed.get(2)).page());
    assertThat(json.path("regressions").get(0).path("comparison_page").isNull()).isFalse();
    assertThat(json.path("regressions").get(1).path("page").isNull()).as("beyond --top: no page").isTrue();

    Map<String, View.Page> none = new java.util.LinkedHashMap<>();
    View.TableView atTop = night.section(new java.util.LinkedHashSet<>(), 2, none).orElseThrow().tables().get(0);
    assertThat(atTop.rows()).hasSize(2);
    assertThat(atTop.pages()).as("all of them shown: no pages").isEmpty();
    assertThat(none).isEmpty();
  }

  @Test
  void missingTablesGetANoteAndPresentOnesTheirRows() throws IOException {
    String page = Files.readString(site().resolve(Paths.workloadPage(workload)));
    assertThat(page).contains("No prediction_eval_summary table under").contains("run perflab evaluate");
    assertThat(page).contains("--conf spark.sql.shuffle.partitions=16\n").contains("--executor-cores 2\n")
        .contains("peak heap 0.9 GiB + 20 % headroom");
    assertThat(page).as("the heatmap names the sweep's rule").contains("cores per executor (rule baseline)");
    String index = Files.readString(site().resolve("index.html"));
    assertThat(index).contains("No cluster_summary table under");
  }

  @Test
  void workloadHistoryHoldsOneRowPerWorkloadOfTheRunEvenWhenRecordedTwice() {
    Inputs in = new Inputs(spark, new ReportOptions(root.toString(), root.toString(), List.of(), 20));
    WorkloadHistory.Night night = WorkloadHistory.night(in, clock());
    String latestRun = spark.read().format("delta").load(root.resolve("ingest_status").toString())
        .agg(org.apache.spark.sql.functions.max("run_id")).first().getString(0);
    assertThat(night.runId()).isEqualTo(latestRun);
    assertThat(night.date().toString()).isEqualTo(String.format("%s-%s-%s", latestRun.substring(0, 4),
        latestRun.substring(4, 6), latestRun.substring(6, 8)));
    WorkloadHistory.record(in, night, clock());
    List<Row> rows = spark.read().format("delta").load(root.resolve(WorkloadHistory.TABLE).toString())
        .orderBy("workload_id").collectAsList();
    long workloads = spark.read().format("delta").load(root.resolve("app_features").toString())
        .select("workload_id").distinct().count();
    assertThat(rows).hasSize((int) workloads).hasSize((int) summary.historyRows());
    long apps = rows.stream().mapToLong(r -> r.<Long>getAs("applications")).sum();
    assertThat(apps).isEqualTo(spark.read().format("delta").load(root.resolve("app_features").toString()).count());
  }

  @Test
  void anUnknownApplicationIsBadInput() {
    assertThatThrownBy(() -> Report.run(spark, new ReportOptions(root.toString(), dir.resolve("other").toString(),
        List.of("app-none"), 5), clock())).isInstanceOf(BadInputException.class)
        .hasMessageStartingWith("Cannot write the report: no application app-none under");
    assertThat(PerfLab.run("report", "--input", root.toString(), "--top", "0")).isEqualTo(2);
  }

  @Test
  void theOverviewInChromiumDrawsEveryChartShowsTheNumbersAndRunsNoPayload() throws IOException {
    ChromeDriver chrome = browser();
    open(chrome, site().resolve("index.html"));
    assertChartsDrawn(chrome, 4);
    assertThat(severeConsoleMessages(chrome)).isEmpty();

    List<Row> statuses = spark.read().format("delta").load(root.resolve("ingest_status").toString())
        .groupBy("status").count().orderBy("status").collectAsList();
    List<List<String>> expected = statuses.stream().map(r -> List.of(r.getString(0), String.valueOf(r.getLong(1))))
        .toList();
    assertThat(chrome.findElements(By.cssSelector("#ingest-status tbody tr")).stream().map(tr -> tr.findElements(
        By.tagName("td")).stream().map(WebElement::getText).toList())).containsExactlyElementsOf(expected);
    double topHours = spark.read().format("delta").load(root.resolve("app_features").toString())
        .selectExpr("max(coalesce(executor_core_s_available, executor_core_s_busy)) / 3600").first().getDouble(0);
    assertThat(chrome.findElement(By.cssSelector("#top-apps-table tbody tr td:nth-child(6)")).getText())
        .isEqualTo(String.format(Locale.ROOT, "%,.3f", topHours));
    long stragglers = spark.read().format("delta").load(root.resolve("stragglers").toString()).count();
    long shown = chrome.findElements(By.cssSelector("#straggler-causes tbody tr")).stream()
        .mapToLong(tr -> Long.parseLong(tr.findElements(By.tagName("td")).get(1).getText().replace(",", ""))).sum();
    assertThat(shown).isGreaterThanOrEqualTo(stragglers);

    assertTheOverviewLeadsWithWhatCostsMost(chrome);

    String body = chrome.findElement(By.tagName("body")).getText();
    assertThat(body).contains(SCRIPT_PAYLOAD).contains(ATTRIBUTE_PAYLOAD);
    assertThat(chrome.executeScript("return typeof window.__pwned")).isEqualTo("undefined");
    // Under target/, never into the working tree; docs/report.md says how the README's copy is refreshed from it.
    Path screenshot = Path.of("target", "report-overview.png");
    Files.createDirectories(screenshot.getParent());
    Files.write(screenshot, chrome.getScreenshotAs(OutputType.BYTES));
  }

  @Test
  void applicationAndWorkloadPagesDrawTheirCharts() {
    ChromeDriver chrome = browser();
    String page = spark.read().format("delta").load(root.resolve("app_features").toString())
        .where("app_id = '" + PAYLOAD_APP + "'").collectAsList().stream().map(AppKey::of).findFirst()
        .map(AppKey::page).orElseThrow();
    open(chrome, site().resolve(page));
    assertChartsDrawn(chrome, 3);
    assertThat(chrome.findElement(By.id("app-summary")).getText()).contains(SCRIPT_PAYLOAD)
        .contains(ATTRIBUTE_PAYLOAD);
    assertThat(chrome.executeScript("return typeof window.__pwned")).isEqualTo("undefined");
    assertThat(severeConsoleMessages(chrome)).isEmpty();
    // When the application started running tasks: from the ingest tables, in seconds after its start.
    String mine = "app_id = '" + PAYLOAD_APP + "'";
    long start = spark.read().format("delta").load(root.resolve("applications").toString()).where(mine)
        .first().getAs("start_time_ms");
    long submitted = spark.read().format("delta").load(root.resolve("stages").toString()).where(mine)
        .selectExpr("min(submission_time_ms)").first().getLong(0);
    long launched = spark.read().format("delta").load(root.resolve("tasks").toString()).where(mine)
        .selectExpr("min(launch_time_ms)").first().getLong(0);
    assertThat(launched).as("the first task launches after its stage is submitted").isGreaterThan(submitted);
    assertThat(cells(chrome, "#app-summary")).contains(
        List.of("first stage submitted (s after start)", Fmt.num((submitted - start) / 1000.0, 1)),
        List.of("first task launched (s after start)", Fmt.num((launched - start) / 1000.0, 1)),
        List.of("start-up wait (s): first stage submitted to first task launched",
            Fmt.num((launched - submitted) / 1000.0, 1)));

    open(chrome, site().resolve(Paths.workloadPage(workload)));
    assertChartsDrawn(chrome, 4);
    assertThat(((Number) chrome.executeScript("return echarts.getInstanceByDom(arguments[0]).getOption().series"
        + ".length", chrome.findElement(By.id("chart-runtime-cores")))).intValue()).as("measured points and sqrt")
        .isEqualTo(2);
    assertThat(chrome.findElement(By.id("recommendation-table")).getText()).contains("12.5").contains("sqrt");
    assertThat(chrome.findElements(By.cssSelector("#pareto-table tbody tr"))).hasSize(2);
    // The memory recommendation in its units, a column not in the table as a dash, the evidence when no reason.
    assertThat(chrome.findElements(By.cssSelector("#memory-table thead th")).stream().map(WebElement::getText))
        .contains("executor memory (bytes)", "memory fraction (ratio)", "memory overhead (bytes)");
    assertThat(cells(chrome, "#memory-table")).containsExactly(List.of("3", "1,610,612,736", "–", "0.412", "0.25",
        "–", "–", "402,653,184", "–", "–", "–", "event_log", "peak heap 0.9 GiB + 20 % headroom"));
    assertThat(severeConsoleMessages(chrome)).isEmpty();
  }

  /**
   * Each application page lists its stragglers by the time they lost (duration − stage median), most first, and
   * counts, without listing, those that lost less than 0.05 s; a page never shows a table with no rows.
   */
  @Test
  void applicationPagesListTheStragglersThatLostTimeAndNoTableWithoutRows() throws IOException {
    try (Stream<Path> pages = Files.list(site().resolve("apps"))) {
      for (Path page : pages.toList()) {
        assertThat(Files.readString(page, StandardCharsets.UTF_8)).as(page.toString())
            .doesNotContainPattern("<tbody>\\s*</tbody>");
      }
    }
    ChromeDriver chrome = browser();
    List<Row> stragglers = spark.read().format("delta").load(root.resolve("stragglers").toString())
        .selectExpr("log_id", "app_id", "app_attempt_id", "task_id", "duration_ms - stage_median_ms AS lost_ms",
            "if(size(causes) = 0, 'UNEXPLAINED', array_join(causes, ', ')) AS shown_causes")
        .orderBy(org.apache.spark.sql.functions.desc("lost_ms"), org.apache.spark.sql.functions.col("task_id"))
        .collectAsList();
    int listedPages = 0;
    int pagesWithHidden = 0;
    long unexplainedShown = 0;
    for (AppKey app : stragglers.stream().map(AppKey::of).distinct().toList()) {
      Path page = site().resolve(app.page());
      if (!Files.exists(page)) {
        continue;
      }
      List<Row> own = stragglers.stream().filter(r -> AppKey.of(r).equals(app)).toList();
      List<Row> listed = own.stream().filter(r -> r.<Double>getAs("lost_ms") >= 50).limit(20).toList();
      List<String> expected = listed.stream().map(r -> String.valueOf(r.<Long>getAs("task_id"))).toList();
      long hidden = own.stream().filter(r -> r.<Double>getAs("lost_ms") < 50).count();
      open(chrome, page);
      assertThat(cells(chrome, "#stragglers-table")).extracting(r -> r.get(1)).as(app.page())
          .containsExactlyElementsOf(expected);
      // Each straggler's causes, or UNEXPLAINED when diagnose found none (as straggler_causes counts it).
      assertThat(cells(chrome, "#stragglers-table")).extracting(r -> r.get(6)).as(app.page())
          .containsExactlyElementsOf(listed.stream().map(r -> r.<String>getAs("shown_causes")).toList());
      unexplainedShown += listed.stream().filter(r -> r.<String>getAs("shown_causes").equals("UNEXPLAINED")).count();
      String notes = chrome.findElement(By.id("stragglers")).getText();
      if (hidden > 0 && !expected.isEmpty()) {
        assertThat(notes).contains("Not listed: " + hidden + " that lost less than 0.05 s each");
        pagesWithHidden++;
      } else if (hidden > 0) {
        assertThat(notes).contains(hidden + (hidden == 1 ? " straggler" : " stragglers")
            + ", none listed: each lost less than 0.05 s");
        pagesWithHidden++;
      } else {
        assertThat(notes).doesNotContain("Not listed");
      }
      listedPages += expected.isEmpty() ? 0 : 1;
    }
    assertThat(listedPages).as("pages that list stragglers").isPositive();
    assertThat(pagesWithHidden).as("pages that count stragglers they do not list").isPositive();
    assertThat(unexplainedShown).as("unexplained stragglers listed").isPositive();
  }

  /**
   * Every application page's task-slot chart draws at most as many running tasks as executor cores alive, and its
   * area is the tasks' executor-side time (deserialisation, run and result serialisation): the time they held a slot.
   * Counted from launch to the driver's finish time, the samples' tasks drew up to 2.9 running on 2 slots.
   */
  @Test
  void theSlotChartNeverDrawsMoreRunningTasksThanSlotsAndItsAreaIsTheTasksExecutorTime() throws IOException {
    java.util.regex.Pattern data = java.util.regex.Pattern.compile(
        "<script type=\"application/json\" id=\"chart-slots-data\">(.*?)</script>", java.util.regex.Pattern.DOTALL);
    org.apache.spark.sql.Dataset<Row> tasks = spark.read().format("delta").load(root.resolve("tasks").toString());
    int drawn = 0;
    for (Row app : spark.read().format("delta").load(root.resolve("applications").toString()).collectAsList()) {
      Path page = site().resolve(AppKey.of(app).page());
      java.util.regex.Matcher chart = data.matcher(Files.exists(page)
          ? Files.readString(page, StandardCharsets.UTF_8) : "");
      if (!chart.find()) {
        continue;
      }
      JsonNode series = new ObjectMapper().readTree(chart.group(1)).get("series");
      JsonNode running = series.get(0).get("data");
      JsonNode slots = series.get(1).get("data");
      double width = running.get(1).get(0).asDouble() - running.get(0).get(0).asDouble();
      double area = 0;
      for (int i = 0; i < running.size(); i++) {
        assertThat(running.get(i).get(1).asDouble()).as(page + " at " + running.get(i).get(0) + " s")
            .isLessThanOrEqualTo(slots.get(i).get(1).asDouble() + 1e-3);
        area += running.get(i).get(1).asDouble() * width;
      }
      Row held = tasks.where(org.apache.spark.sql.functions.col("log_id").equalTo(app.<String>getAs("log_id")))
          .selectExpr("sum(executor_deserialize_time_ms + executor_run_time_ms"
              + " + coalesce(result_serialization_time_ms, 0)) / 1000", "count_if(executor_run_time_ms IS NULL)")
          .first();
      if (held.getLong(1) == 0) {
        assertThat(area).as(page + ": running tasks × seconds").isCloseTo(held.getDouble(0), within(0.02 * area));
        drawn++;
      }
    }
    assertThat(drawn).as("pages whose chart was checked against the tasks' time").isPositive();
  }

  @Test
  void aRegressionsComparisonPageDrawsBothRunsStagesAlignedOnOneTimeAxis() {
    ChromeDriver chrome = browser();
    open(chrome, site().resolve("index.html"));
    WebElement link = chrome.findElement(By.cssSelector("#regressions-table tbody tr td:nth-child(8) a"));
    String a = regressed.get(3).getAs("app_id");
    String b = regressed.get(2).getAs("app_id");
    assertThat(link.getText()).isEqualTo(a);
    link.click();
    awaitCharts(chrome);
    assertThat(chrome.getCurrentUrl()).endsWith("/report/" + ComparisonPages.page(AppKey.of(regressed.get(2))));
    assertThat(chrome.findElement(By.tagName("h1")).getText()).contains(a).contains(b);
    List<List<String>> runs = cells(chrome, "#compared-runs");
    assertThat(runs).extracting(r -> r.get(1)).containsExactly(a, b);
    assertChartsDrawn(chrome, 2);
    String axis = "return echarts.getInstanceByDom(document.getElementById(arguments[0])).getOption()";
    Object rowsA = chrome.executeScript(axis + ".yAxis[0].data", "chart-gantt-a");
    Object rowsB = chrome.executeScript(axis + ".yAxis[0].data", "chart-gantt-b");
    List<List<String>> aligned = cells(chrome, "#aligned-stages");
    assertThat((List<?>) rowsA).as("one row per aligned stage, the same in both charts").isEqualTo(rowsB)
        .hasSize(aligned.size());
    assertThat(chrome.executeScript(axis + ".xAxis[0].max", "chart-gantt-a")).as("one time axis")
        .isEqualTo(chrome.executeScript(axis + ".xAxis[0].max", "chart-gantt-b"));
    long stagesA = spark.read().format("delta").load(root.resolve("stages").toString())
        .where("log_id = '" + regressed.get(3).getAs("log_id") + "' AND status NOT IN ('SKIPPED', 'PENDING')"
            + " AND submission_time_ms IS NOT NULL AND completion_time_ms IS NOT NULL")
        .select("stage_id").distinct().count();
    assertThat(aligned.stream().filter(r -> !r.get(0).equals(Fmt.NONE))).as("every stage of A").hasSize((int) stagesA);
    assertThat(severeConsoleMessages(chrome)).isEmpty();
  }

  /**
   * The night's regressions come first, most extra core-hours first (last night's is not shown); then the findings,
   * one row per rule and application naming the stages of its rows, most core-hours saved first.
   */
  private static void assertTheOverviewLeadsWithWhatCostsMost(ChromeDriver chrome) {
    List<String> sections = chrome.findElements(By.tagName("section")).stream()
        .map(e -> e.getAttribute("id")).distinct().toList();
    assertThat(sections).startsWith("regressions", "changed", "findings");
    List<List<String>> regressions = cells(chrome, "#regressions-table");
    assertThat(regressions).extracting(r -> r.get(1)).containsExactly(regressed.get(2).<String>getAs("app_id"),
        regressed.get(1).<String>getAs("app_id"));
    assertThat(regressions.get(0)).containsSubsequence("wall time 1.30×", "2.0", "0.010",
        "CONFIGURATION: spark.executor.instances 4 -> 2", "--conf spark.executor.instances=4; read finding SPILL",
        regressed.get(3).<String>getAs("app_id"));
    assertThat(regressions.get(1).get(7)).as("no reference run: no comparison").isEqualTo(Fmt.NONE);
    assertThat(regressions.get(1).get(2)).as("a trend").isEqualTo("wall time 1.30× gradually");
    assertThat(regressions.get(0).get(2)).as("a step").isEqualTo("wall time 1.30×");
    assertThat(cells(chrome, "#changed-table")).as("what changed without regressing, under the regressions")
        .containsExactly(List.of(regressed.get(3).<String>getAs("workload_id"),
            regressed.get(3).<String>getAs("app_id"), "within noise",
            "spark.sql.shuffle.partitions 200 -> 400; SQL plan changed", regressed.get(2).<String>getAs("app_id")));

    List<Row> findings = spark.read().format("delta").load(root.resolve("findings").toString()).collectAsList();
    List<List<String>> shown = cells(chrome, "#findings-table");
    assertThat(shown).isNotEmpty();
    assertThat(shown).extracting(r -> r.get(1) + " " + r.get(2)).doesNotHaveDuplicates();
    List<Double> hours = shown.stream().map(r -> Double.parseDouble(r.get(4).replace(",", ""))).toList();
    assertThat(hours).isSortedAccordingTo(java.util.Comparator.reverseOrder());
    for (List<String> row : shown) {
      List<String> stages = findings.stream().filter(f -> f.<String>getAs("rule").equals(row.get(1))
          && f.<String>getAs("app_id").equals(row.get(2)) && f.getAs("stage_id") != null)
          .map(f -> f.<Integer>getAs("stage_id")).sorted().map(String::valueOf).toList();
      assertThat(row.get(3)).as("stages of %s in %s", row.get(1), row.get(2)).isEqualTo(String.join(", ", stages));
    }
    assertTheOverviewListsOnlyFindingsThatSaveSomething(chrome, shown);
  }

  /**
   * A LOW finding whose savings round to nothing (0.0000 core-hours and 0.0 s) is not listed among the most severe;
   * the section's note counts those left out, by rule. The findings hold one such row
   * ({@link #appendAFindingThatSavesNothing}), so the count is not zero.
   */
  private static void assertTheOverviewListsOnlyFindingsThatSaveSomething(ChromeDriver chrome,
      List<List<String>> shown) {
    List<Row> groups = Overview.byRuleAndApplication(spark.read().format("delta")
        .load(root.resolve("findings").toString())).collectAsList();
    List<Row> nothing = groups.stream().filter(g -> g.<String>getAs("severity").equals("LOW")
        && !g.<String>getAs("rule").equals("DROPPED_EVENTS")
        && g.<Double>getAs("core_hours_saved") < 0.00005 && g.<Double>getAs("estimated_savings_s") < 0.05).toList();
    assertThat(nothing).as("the samples have findings that save nothing").isNotEmpty();
    assertThat(groups.size() - nothing.size()).as("and findings that do").isPositive();
    for (List<String> row : shown) {
      assertThat(nothing).as("%s of %s saves nothing, yet is listed", row.get(1), row.get(2))
          .noneMatch(g -> g.<String>getAs("rule").equals(row.get(1)) && g.<String>getAs("app_id").equals(row.get(2)));
    }
    String note = chrome.findElements(By.cssSelector("#findings p.note")).stream().map(WebElement::getText)
        .filter(t -> t.startsWith("Not listed here")).findFirst().orElseThrow();
    assertThat(note).startsWith("Not listed here: " + nothing.size() + " finding");
    nothing.stream().map(g -> g.<String>getAs("rule")).distinct().forEach(rule -> assertThat(note).contains(rule
        + " × " + nothing.stream().filter(g -> g.<String>getAs("rule").equals(rule)).count()));
  }

  private static List<List<String>> cells(ChromeDriver chrome, String table) {
    return chrome.findElements(By.cssSelector(table + " tbody tr")).stream().map(tr -> tr.findElements(
        By.tagName("td")).stream().map(WebElement::getText).toList()).toList();
  }

  private static void open(ChromeDriver chrome, Path page) {
    chrome.get(page.toUri().toString());
    awaitCharts(chrome);
  }

  /** Waits up to 20 s for the page's script to mark its charts drawn. */
  private static void awaitCharts(ChromeDriver chrome) {
    long deadline = System.currentTimeMillis() + 20_000;
    while (chrome.executeScript("return document.body.getAttribute('data-charts-drawn')") == null
        && System.currentTimeMillis() < deadline) {
      chrome.executeScript("return 0");
    }
  }

  /**
   * Every chart has an ECharts instance with data points, and its canvas has drawn pixels: at least 1 % of them
   * neither transparent nor white. At least {@code min} charts exist.
   */
  private static void assertChartsDrawn(ChromeDriver chrome, int min) {
    List<WebElement> charts = chrome.findElements(By.cssSelector("div.chart"));
    assertThat(charts).hasSizeGreaterThanOrEqualTo(min);
    for (WebElement chart : charts) {
      String id = chart.getAttribute("id");
      Object points = chrome.executeScript("var c = echarts.getInstanceByDom(arguments[0]); if (!c) { return -1; }"
          + "var n = 0; c.getOption().series.forEach(function (s) { n += s.data.length; }); return n;", chart);
      assertThat(((Number) points).longValue()).as("data points of " + id).isPositive();
      Object inked = chrome.executeScript("var canvas = arguments[0].querySelector('canvas');"
          + "var d = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data; var n = 0;"
          + "for (var i = 0; i < d.length; i += 4) { if (d[i + 3] > 0 && (d[i] < 240 || d[i + 1] < 240"
          + " || d[i + 2] < 240)) { n++; } } return n / (d.length / 4);", chart);
      assertThat(((Number) inked).doubleValue()).as("share of drawn pixels of " + id).isGreaterThan(0.01);
    }
  }

  private static List<String> severeConsoleMessages(ChromeDriver chrome) {
    return chrome.manage().logs().get(LogType.BROWSER).getAll().stream()
        .filter(e -> e.getLevel().intValue() >= java.util.logging.Level.SEVERE.intValue())
        .map(LogEntry::getMessage).toList();
  }

  private static synchronized ChromeDriver browser() {
    Optional<Path> chromium = Stream.of("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")
        .map(Path::of).filter(Files::isExecutable).findFirst();
    Optional<Path> driver = Stream.of("/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver")
        .map(Path::of).filter(Files::isExecutable).findFirst();
    assumeTrue(chromium.isPresent() && driver.isPresent(), "Skipping the browser checks: no chromium and "
        + "chromedriver in /usr/bin (apt-get install chromium chromium-driver; .ci/run installs them)");
    if (browser == null) {
      ChromeOptions options = new ChromeOptions();
      options.setBinary(chromium.get().toFile());
      options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
          "--window-size=1280,2400", "--hide-scrollbars");
      options.setCapability("goog:loggingPrefs", Map.of(LogType.BROWSER, "ALL"));
      ChromeDriverService service = new ChromeDriverService.Builder()
          .usingDriverExecutable(driver.get().toFile()).usingAnyFreePort().build();
      browser = new ChromeDriver(service, options);
    }
    return browser;
  }
}
