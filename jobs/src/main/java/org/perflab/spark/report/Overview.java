package org.perflab.spark.report;

import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.desc;
import static org.apache.spark.sql.functions.expr;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.not;
import static org.apache.spark.sql.functions.sum;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.perflab.findings.Impact;
import org.perflab.findings.Rule;
import org.perflab.findings.Severity;
import org.perflab.spark.diagnose.StragglerTable;
import org.perflab.spark.nightly.NightlyRuns;
import org.perflab.spark.report.Charts.Series;
import org.perflab.spark.report.View.Cell;
import org.perflab.spark.report.View.Chart;
import org.perflab.spark.report.View.Link;
import org.perflab.spark.report.View.Page;
import org.perflab.spark.report.View.Section;
import org.perflab.spark.report.View.TableView;

/**
 * The overview page ({@code index.html}) and the paged lists of applications and workloads. The data are small
 * aggregates (counts by status, one row per application or workload, the top findings) collected to the driver.
 */
public final class Overview {
  /** Severity order of {@code findings.severity}: {@link Severity}'s ordinal, worst highest (SQL CASE). */
  static final String SEVERITY_RANK = Arrays.stream(Severity.values())
      .map(s -> "WHEN '" + s.name() + "' THEN " + s.ordinal())
      .collect(java.util.stream.Collectors.joining(" ", "CASE severity ", " ELSE 0 END"));
  /** Core-hour equivalent of a GB-hour of executor memory when ordering findings (ImpactLimits' 4 GB per core). */
  static final int GB_PER_CORE = 4;
  /** Core-hours saved below which a LOW finding is not listed among the most severe (half the column's last digit). */
  static final double SHOWN_CORE_HOURS = 0.00005;
  /** Seconds saved below which a LOW finding is not listed among the most severe (half the column's last digit). */
  static final double SHOWN_SECONDS = 0.05;

  private final Inputs in;
  private final ReportOptions options;
  private final Map<String, Page> pages = new LinkedHashMap<>();
  private final Set<AppKey> linked = new LinkedHashSet<>();
  private List<Row> appRows = List.of();

  /**
   * The overview's pages, by path relative to the site root, the applications they link to (each needs a page), and
   * the night's regressions (for regressions.json).
   */
  public record Result(Map<String, Page> pages, Set<AppKey> linkedApps, List<String> workloads,
      NightRegressions regressions) {}

  private Overview(Inputs in, ReportOptions options) {
    this.in = in;
    this.options = options;
  }

  /** Builds the overview and the list pages from the tables that exist. */
  public static Result build(Inputs in, ReportOptions options) {
    return new Overview(in, options).build();
  }

  /**
   * What costs most first: the night's regressions (when judged) and the runs that changed without regressing, the
   * costliest findings, then the archive.
   */
  private Result build() {
    List<Section> sections = new ArrayList<>();
    NightRegressions regressions = NightRegressions.read(in);
    regressions.section(linked, options.top(), pages).ifPresent(sections::add);
    regressions.changedSection(options.top()).ifPresent(sections::add);
    sections.add(findings());
    sections.add(ingestStatus());
    sections.add(lastNight());
    sections.add(topApplications());
    sections.add(stragglers());
    sections.add(clusters());
    List<String> workloads = new ArrayList<>();
    sections.add(workloads(workloads));
    sections.addAll(WorkloadTrend.sections(in, options.top()));
    pages.put("index.html", new Page("Nightly overview", "", nav(""), sections));
    allApplicationPages();
    return new Result(pages, linked, workloads, regressions);
  }

  static List<Link> nav(String root) {
    return List.of(new Link("Overview", root + "index.html"), new Link("Applications", root + "applications-1.html"),
        new Link("Workloads", root + "workloads-1.html"));
  }

  private Section ingestStatus() {
    Optional<Dataset<Row>> status = in.read("ingest_status");
    if (status.isEmpty()) {
      return Section.note("ingest", "Logs ingested", in.missing("ingest_status", "ingest"));
    }
    List<Row> counts = status.get().groupBy("status").count().orderBy("status").collectAsList();
    List<String> statuses = counts.stream().map(r -> r.getString(0)).toList();
    List<Long> values = counts.stream().map(r -> r.getLong(1)).toList();
    List<List<Cell>> rows = counts.stream()
        .map(r -> List.of(Cell.text(r.getString(0)), Cell.number(Fmt.count(r.getLong(1))))).toList();
    Chart chart = new Chart("chart-ingest-status", "Logs by ingest status",
        ScriptJson.of(Charts.bars("status", "logs (count)", statuses, List.of(new Series("logs", "bar", values)))));
    return new Section("ingest", "Logs ingested", List.of(), List.of(chart),
        List.of(new TableView("ingest-status", List.of("status", "logs"), rows)), List.of());
  }

  /** The latest night's steps from {@code nightly_runs}: each step's exit code and seconds, or why it was skipped. */
  private Section lastNight() {
    Optional<Dataset<Row>> runs = in.read(NightlyRuns.TABLE);
    if (runs.isEmpty()) {
      return Section.note("nightly", "Last night's steps", in.missing(NightlyRuns.TABLE, "nightly"));
    }
    List<Row> steps = NightlyRuns.latestNight(runs.get()).collectAsList();
    List<List<Cell>> rows = steps.stream().map(r -> List.of(Cell.text(Fmt.str(r, "step")),
        Cell.number(r.isNullAt(r.fieldIndex("exit_code")) ? "skipped" : Fmt.str(r, "exit_code")),
        Cell.number(Fmt.num(Fmt.dbl(r, "seconds"), 0)), Cell.text(Optional.ofNullable(Fmt.str(r, "skipped_reason"))
            .orElse(Fmt.str(r, "message"))))).toList();
    String night = steps.isEmpty() ? "" : Fmt.str(steps.get(0), "run_id");
    return new Section("nightly", "Last night's steps", List.of("Night " + night + " (nightly_runs): each step's exit"
        + " code (0 success, 2 bad input, 1 failure) and wall time in seconds. The report is the night's last step: its"
        + " own row is written after this page."), List.of(),
        List.of(new TableView("nightly-steps", List.of("step", "exit", "seconds (s)", "summary"), rows)), List.of());
  }

  private Section topApplications() {
    Optional<Dataset<Row>> features = in.read("app_features");
    if (features.isEmpty()) {
      return Section.note("top-apps", "Applications by core-hours", in.missing("app_features", "features"));
    }
    Dataset<Row> apps = features.get().select(col("log_id"), col("app_id"), col("app_attempt_id"), col("workload_id"),
        col("wall_time_s"), col("utilization"),
        expr("coalesce(executor_core_s_available, executor_core_s_busy) / 3600").as("core_hours"));
    Optional<Dataset<Row>> applications = in.read("applications");
    if (applications.isPresent()) {
      apps = apps.join(applications.get().select("log_id", "app_id", "app_attempt_id", "app_name", "user"),
          new String[] {"log_id", "app_id", "app_attempt_id"}, "left");
    }
    appRows = apps.orderBy(desc("core_hours"), col("log_id")).collectAsList();
    List<Row> top = appRows.subList(0, Math.min(options.top(), appRows.size()));
    top.forEach(r -> linked.add(AppKey.of(r)));
    List<String> labels = top.stream().map(r -> AppKey.of(r).appId()).toList();
    List<Double> hours = top.stream().map(r -> Charts.round(orZero(Fmt.dbl(r, "core_hours")))).toList();
    Chart chart = new Chart("chart-top-apps", "Core-hours of the costliest applications", ScriptJson.of(
        Charts.bars("application", "executor core-hours (core·h)", labels, List.of(new Series("core-hours", "bar",
            hours)))));
    return new Section("top-apps", "Applications by core-hours", List.of(
        "Core-hours: the executor cores available to the application × the time they were alive "
            + "(app_features.executor_core_s_available ÷ 3600)."), List.of(chart),
        List.of(appTable("top-apps-table", top, List.of())), List.of());
  }

  private TableView appTable(String id, List<Row> rows, List<Link> pager) {
    List<List<Cell>> cells = new ArrayList<>();
    for (Row r : rows) {
      AppKey key = AppKey.of(r);
      String workload = Fmt.str(r, "workload_id");
      cells.add(List.of(linked.contains(key) ? Cell.link(key.label(), key.page()) : Cell.text(key.label()),
          Cell.text(Fmt.str(r, "app_name")), Cell.text(Fmt.str(r, "user")),
          workload == null ? Cell.text("") : Cell.link(workload, Paths.workloadPage(workload)),
          Cell.number(Fmt.num(Fmt.dbl(r, "wall_time_s"), 1)), Cell.number(Fmt.num(Fmt.dbl(r, "core_hours"), 3)),
          Cell.number(Fmt.num(Fmt.dbl(r, "utilization"), 2))));
    }
    return new TableView(id, List.of("application", "name", "user", "workload", "wall time (s)", "core-hours (core·h)",
        "utilisation (ratio)"), cells, pager);
  }

  /**
   * One row per rule and application (its stages named), most core-hours saved first: the sum of the rows'
   * {@code core_hours_saved} evidence, memory findings' {@code gb_hours_saved} counted at
   * {@value #GB_PER_CORE} GB per core, rows without either (older tables) as their savings ÷ 3600 on one slot.
   */
  private Section findings() {
    Optional<Dataset<Row>> findings = in.read("findings");
    if (findings.isEmpty()) {
      return Section.note("findings", "Most severe findings", in.missing("findings", "diagnose"));
    }
    // Both lists come from the same grouping: grouped once, the findings table scanned once.
    Dataset<Row> grouped = byRuleAndApplication(findings.get()).withColumn("shown", shown()).cache();
    List<Row> top;
    List<Row> hidden;
    try {
      top = grouped.where(col("shown"))
          .orderBy(desc("core_hours_saved"), desc("severity_rank"), desc("estimated_savings_s"), col("log_id"),
              col("rule"))
          .limit(options.top()).collectAsList();
      hidden = grouped.where(not(col("shown"))).groupBy("rule")
          .agg(expr("count(*)").as("n")).orderBy(desc("n"), col("rule")).collectAsList();
    } finally {
      grouped.unpersist();
    }
    top.forEach(r -> linked.add(AppKey.of(r)));
    List<String> notes = new ArrayList<>();
    if (top.isEmpty()) {
      notes.add(hidden.isEmpty() ? "No findings." : "No findings that save anything.");
    } else {
      notes.add("One row per rule and application, most core-hours saved first (findings; severity bounded by what a"
          + " finding costs: docs/findings.md).");
    }
    if (!hidden.isEmpty()) {
      notes.add(hiddenNote(hidden));
    }
    return new Section("findings", "Most severe findings", notes, List.of(), List.of(topFindingsTable(top)),
        List.of());
  }

  /**
   * Whether a row of {@link #byRuleAndApplication} earns a place among the most severe findings: it saves something
   * this table can show (at least {@value #SHOWN_CORE_HOURS} core-hours or {@value #SHOWN_SECONDS} s, half the last
   * digit of its columns), or its severity is above LOW, or its rule is about the evidence ({@link Impact#EVIDENCE}:
   * its grade is not bounded by savings). A LOW row that saves 0.0000 core-hours and 0.0 s tells nothing on the first
   * screen; it stays in {@code findings}.
   */
  static Column shown() {
    Object[] evidence = Arrays.stream(Rule.values()).filter(r -> Impact.of(r) == Impact.EVIDENCE).map(Rule::name)
        .toArray();
    return coalesce(col("core_hours_saved").geq(SHOWN_CORE_HOURS).or(col("estimated_savings_s").geq(SHOWN_SECONDS))
        .or(col("severity_rank").gt(Severity.LOW.ordinal())).or(col("rule").isin(evidence)), lit(true));
  }

  /** "Not listed here: N findings ... that save less than ... (rule × count, ...); where they are." */
  private static String hiddenNote(List<Row> hidden) {
    long total = hidden.stream().mapToLong(r -> r.getLong(1)).sum();
    String rules = hidden.stream().map(r -> r.getString(0) + " × " + r.getLong(1))
        .collect(java.util.stream.Collectors.joining(", "));
    return "Not listed here: " + total + (total == 1 ? " finding" : " findings") + " (rule and application) of"
        + " severity LOW that save less than " + String.format(java.util.Locale.ROOT, "%.5f core-hours and %.2f s",
        SHOWN_CORE_HOURS, SHOWN_SECONDS) + " (" + rules + "); the findings table keeps them.";
  }

  /** {@code findings} grouped by application and rule: worst severity, stages, summed savings, the worst row's text. */
  static Dataset<Row> byRuleAndApplication(Dataset<Row> findings) {
    return findings.withColumn("severity_rank", expr(SEVERITY_RANK))
        .withColumn("core_hours", expr("coalesce(evidence['core_hours_saved'], evidence['gb_hours_saved'] / "
            + GB_PER_CORE + ", estimated_savings_s / 3600)"))
        .groupBy("log_id", "app_id", "app_attempt_id", "rule")
        .agg(max("severity_rank").as("severity_rank"), sum("core_hours").as("core_hours_saved"),
            sum("estimated_savings_s").as("estimated_savings_s"),
            expr("array_sort(collect_set(stage_id))").as("stage_ids"),
            expr("max_by(struct(severity, recommendation, recommended_conf), struct(severity_rank,"
                + " estimated_savings_s))").as("worst"))
        .select(col("log_id"), col("app_id"), col("app_attempt_id"), col("rule"), col("severity_rank"),
            col("core_hours_saved"), col("estimated_savings_s"), col("stage_ids"), col("worst.severity"),
            col("worst.recommendation"), col("worst.recommended_conf"));
  }

  private static TableView topFindingsTable(List<Row> rows) {
    List<List<Cell>> cells = new ArrayList<>();
    for (Row r : rows) {
      AppKey key = AppKey.of(r);
      List<Integer> stages = r.getList(r.fieldIndex("stage_ids"));
      cells.add(List.of(Cell.text(r.getAs("severity")), Cell.text(r.getAs("rule")),
          Cell.link(key.label(), key.page()), Cell.text(stages.stream().map(String::valueOf)
              .collect(java.util.stream.Collectors.joining(", "))),
          Cell.number(Fmt.num(Fmt.dbl(r, "core_hours_saved"), 4)),
          Cell.number(Fmt.num(Fmt.dbl(r, "estimated_savings_s"), 1)), Cell.text(r.getAs("recommendation")),
          Cell.text(confText(r))));
    }
    return new TableView("findings-table", List.of("severity", "rule", "application", "stages",
        "core-hours saved (core·h)", "estimated savings (s)", "recommendation", "--conf"), cells);
  }

  /** A findings table; {@code root} is the relative path from the page to the site root. */
  static TableView findingsTable(String id, List<Row> rows, String root) {
    List<List<Cell>> cells = new ArrayList<>();
    for (Row r : rows) {
      AppKey key = AppKey.of(r);
      cells.add(List.of(Cell.text(r.getAs("severity")), Cell.text(r.getAs("rule")),
          Cell.link(key.label(), root + key.page()), Cell.text(Fmt.str(r, "stage_id")),
          Cell.number(Fmt.num(Fmt.dbl(r, "estimated_savings_s"), 1)), Cell.text(r.getAs("recommendation")),
          Cell.text(confText(r))));
    }
    return new TableView(id, List.of("severity", "rule", "application", "stage", "estimated savings (s)",
        "recommendation", "--conf"), cells);
  }

  /** The row's {@code recommended_conf} as {@code --conf k=v} words, sorted; empty when none. */
  private static String confText(Row r) {
    Object conf = r.getAs("recommended_conf");
    return conf instanceof scala.collection.Map<?, ?> map ? confLines(map) : "";
  }

  private static String confLines(scala.collection.Map<?, ?> map) {
    TreeSet<String> lines = new TreeSet<>();
    scala.jdk.javaapi.CollectionConverters.asJava(map).forEach((k, v) -> lines.add("--conf " + k + "=" + v));
    return String.join(" ", lines);
  }

  private Section stragglers() {
    Optional<Dataset<Row>> causes = in.read("straggler_causes");
    List<Row> rows;
    if (causes.isPresent()) {
      rows = causes.get().groupBy("cause").agg(expr("sum(stragglers)").as("stragglers"),
          expr("sum(lost_s)").as("lost_s")).orderBy(desc("stragglers"), col("cause")).collectAsList();
    } else {
      Optional<Dataset<Row>> stragglers = in.read("stragglers");
      if (stragglers.isEmpty()) {
        return Section.note("stragglers", "Stragglers by cause", in.missing("straggler_causes", "diagnose"));
      }
      rows = stragglers.get()
          .withColumn("cause", expr("explode(if(size(causes) = 0, array('UNEXPLAINED'), causes))"))
          .groupBy("cause").agg(expr("count(*)").as("stragglers"),
              sum(StragglerTable.lostSeconds()).as("lost_s"))
          .orderBy(desc("stragglers"), col("cause")).collectAsList();
    }
    List<List<Cell>> cells = rows.stream().map(r -> List.of(Cell.text(r.getString(0)),
        Cell.number(Fmt.count(Fmt.lng(r, "stragglers"))), Cell.number(Fmt.num(Fmt.dbl(r, "lost_s"), 1)))).toList();
    List<Chart> charts = rows.isEmpty() ? List.of() : List.of(new Chart("chart-straggler-causes",
        "Stragglers by cause", ScriptJson.of(Charts.bars("cause", "stragglers (count)",
        rows.stream().map(r -> r.getString(0)).toList(),
        List.of(new Series("stragglers", "bar", rows.stream().map(r -> Fmt.lng(r, "stragglers")).toList()))))));
    List<String> notes = new ArrayList<>(List.of(rows.isEmpty() ? "No stragglers."
        : "A straggler with two causes counts under both."));
    List<TableView> tables = new ArrayList<>(List.of(new TableView("straggler-causes",
        List.of("cause", "stragglers", "time lost (s)"), cells)));
    slowHosts().ifPresent(hosts -> {
      notes.add("Slow hosts: the hosts of SLOW_HOST stragglers (their other tasks ran slow too), most time lost first;"
          + " a host slow in many applications is the machine to look at (docs/stragglers.md).");
      tables.add(hosts);
    });
    return new Section("stragglers", "Stragglers by cause", notes, charts, tables, List.of());
  }

  /** The {@code --top} hosts of SLOW_HOST stragglers ({@link StragglerTable#slowHosts}); empty when there are none. */
  private Optional<TableView> slowHosts() {
    List<Row> hosts = in.read(StragglerTable.NAME).map(s -> StragglerTable.slowHosts(s).limit(options.top())
        .collectAsList()).orElse(List.of());
    if (hosts.isEmpty()) {
      return Optional.empty();
    }
    List<List<Cell>> cells = hosts.stream().map(r -> List.of(Cell.text(Fmt.str(r, "host")),
        Cell.number(Fmt.count(Fmt.lng(r, "applications"))), Cell.number(Fmt.count(Fmt.lng(r, "stragglers"))),
        Cell.number(Fmt.num(Fmt.dbl(r, "lost_s"), 1)))).toList();
    return Optional.of(new TableView("slow-hosts", List.of("host", "applications", "stragglers", "time lost (s)"),
        cells));
  }

  private Section clusters() {
    Optional<Dataset<Row>> summary = in.read("cluster_summary");
    if (summary.isEmpty()) {
      return Section.note("clusters", "Workload clusters", in.missing("cluster_summary", "cluster"));
    }
    List<List<Cell>> cells = new ArrayList<>();
    for (Row r : summary.get().orderBy("cluster_id").collectAsList()) {
      cells.add(List.of(Cell.number(Fmt.str(r, "cluster_id")), Cell.number(Fmt.count(Fmt.lng(r, "size"))),
          Cell.number(Fmt.num(Fmt.dbl(r, "median_wall_time_s"), 1)),
          Cell.number(Fmt.num(Fmt.dbl(r, "p90_wall_time_s"), 1)), Cell.text(list(r, "dominant_workloads")),
          Cell.number(Fmt.num(Fmt.dbl(r, "dominant_workload_share"), 2)), Cell.text(list(r, "dominant_findings"))));
    }
    return new Section("clusters", "Workload clusters", List.of(), List.of(), List.of(new TableView("clusters-table",
        List.of("cluster", "applications", "median wall time (s)", "p90 wall time (s)", "main workloads",
            "main workload share (ratio)", "main findings"), cells)), List.of());
  }

  private static String list(Row row, String column) {
    int index = row.fieldIndex(column);
    return row.isNullAt(index) ? Fmt.NONE : String.join(", ", row.<String>getList(index));
  }

  private Section workloads(List<String> names) {
    Optional<Dataset<Row>> features = in.read("app_features");
    List<String> headers = List.of("workload", "applications", "median wall time (s)", "core-hours (core·h)");
    if (features.isEmpty()) {
      Paging.pages("workloads", "Workloads", headers, List.of(), pages);
      return Section.note("workloads", "Workloads", in.missing("app_features", "features"));
    }
    List<Row> rows = features.get().groupBy("workload_id").agg(expr("count(*)").as("applications"),
            expr("percentile(wall_time_s, 0.5)").as("median_wall_time_s"),
            expr("sum(coalesce(executor_core_s_available, executor_core_s_busy)) / 3600").as("core_hours"))
        .orderBy(desc("core_hours"), col("workload_id")).collectAsList();
    rows.forEach(r -> names.add(r.getString(0)));
    List<List<Cell>> cells = rows.stream().map(r -> List.of(Cell.link(r.getString(0), Paths.workloadPage(
            r.getString(0))), Cell.number(Fmt.count(Fmt.lng(r, "applications"))),
        Cell.number(Fmt.num(Fmt.dbl(r, "median_wall_time_s"), 1)), Cell.number(Fmt.num(Fmt.dbl(r, "core_hours"), 3))))
        .toList();
    Paging.pages("workloads", "Workloads", headers, cells, pages);
    List<List<Cell>> top = cells.subList(0, Math.min(options.top(), cells.size()));
    return new Section("workloads", "Workloads", List.of(String.format("%d workloads; the %d costliest here, all of "
        + "them under Workloads.", cells.size(), top.size())), List.of(),
        List.of(new TableView("workloads-table", headers, top)), List.of());
  }

  private void allApplicationPages() {
    List<Row> rows = appRows;
    int pageCount = Paging.count(rows.size());
    for (int p = 1; p <= pageCount; p++) {
      List<Row> slice = rows.subList((p - 1) * ReportOptions.PAGE_ROWS,
          Math.min(rows.size(), p * ReportOptions.PAGE_ROWS));
      TableView table = appTable("applications-table", slice, Paging.links("applications", pageCount, p));
      pages.put("applications-" + p + ".html", new Page("Applications (page " + p + " of " + pageCount + ")", "",
          nav(""), List.of(new Section("applications", "Applications by core-hours", List.of(String.format(
          "%d applications, most core-hours first; those the overview links to have a page.", rows.size())),
          List.of(), List.of(table), List.of()))));
    }
  }

  private static double orZero(Double value) {
    return value == null ? 0.0 : value;
  }
}
