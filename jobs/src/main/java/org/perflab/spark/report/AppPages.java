package org.perflab.spark.report;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.desc;
import static org.apache.spark.sql.functions.expr;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.expressions.Window;
import org.perflab.spark.diagnose.StragglerCauses;
import org.perflab.spark.report.Charts.Series;
import org.perflab.spark.report.View.Cell;
import org.perflab.spark.report.View.Chart;
import org.perflab.spark.report.View.Page;
import org.perflab.spark.report.View.Section;
import org.perflab.spark.report.View.TableView;

/**
 * One page per application the overview links to (and per {@code --apps}): its stage timeline with the executors'
 * task slots over time, executor utilisation, stragglers, findings and top SQL operators. Tasks are never collected:
 * Spark sums their running time into {@link #BUCKETS} time buckets per application.
 */
public final class AppPages {
  /** Time buckets of the task-slot chart per application. */
  static final int BUCKETS = 120;
  /**
   * Bars of the Gantt chart per application: one per stage attempt up to this many; beyond, consecutive stage
   * attempts (by submission) are grouped into this many bars, each from its first submission to its last completion.
   */
  static final int MAX_STAGES = 500;
  /** A straggler that lost less than this (ms) rounds to 0.0 s on the page and is counted, not listed. */
  static final long LISTED_LOSS_MS = 50;
  private static final List<String> KEYS = List.of("log_id", "app_id", "app_attempt_id");

  private final Inputs in;
  private final int top;
  private final Map<AppKey, Row> applications = new HashMap<>();
  private final Map<AppKey, List<Row>> stages;
  private final Map<AppKey, List<Row>> buckets;
  private final Map<AppKey, List<Row>> executors;
  private final Map<AppKey, List<Row>> stragglers;
  private final Map<AppKey, List<Row>> findings;
  private final Map<AppKey, List<Row>> operators;

  private AppPages(Inputs in, Collection<AppKey> apps, int top) {
    this.in = in;
    this.top = top;
    List<String> logs = apps.stream().map(AppKey::logId).distinct().toList();
    in.read("applications").ifPresent(a -> a.where(col("log_id").isin(logs.toArray())).collectAsList()
        .forEach(r -> applications.put(AppKey.of(r), r)));
    stages = collect("stages", logs, d -> d.select("log_id", "app_id", "app_attempt_id", "stage_id",
        "stage_attempt_id", "name", "status", "num_tasks", "submission_time_ms", "first_task_launch_time_ms",
        "completion_time_ms"));
    buckets = slotBuckets(logs);
    executors = collect("executors", logs, d -> d);
    stragglers = collect("stragglers", logs, d -> topPerApp(d.drop("features")
        .withColumn("causes", StragglerCauses.causesOrUnexplained())
        .withColumn("lost_ms", expr("duration_ms - stage_median_ms"))
        .withColumn("app_stragglers", expr("count(*) OVER (PARTITION BY log_id, app_id, app_attempt_id)"))
        .withColumn("app_stragglers_listed", expr("count_if(lost_ms >= " + LISTED_LOSS_MS
            + ") OVER (PARTITION BY log_id, app_id, app_attempt_id)")), "lost_ms"));
    findings = collect("findings", logs, d -> d.withColumn("severity_rank", expr(Overview.SEVERITY_RANK)));
    operators = collect("sql_operators", logs, d -> topPerApp(d.select("log_id", "app_id", "app_attempt_id",
        "execution_id", "node_id", "node_name", "description", "time_ms", "output_rows", "spill_bytes")
        .where(col("is_cluster").isNull().or(col("is_cluster").equalTo(false)).or(col("time_ms").isNotNull()))
        .where(col("time_ms").isNotNull()), "time_ms"));
  }

  /** The pages of {@code apps}, by path. */
  public static Map<String, Page> build(Inputs in, Collection<AppKey> apps, int top) {
    Map<String, Page> pages = new LinkedHashMap<>();
    if (apps.isEmpty()) {
      return pages;
    }
    AppPages data = new AppPages(in, apps, top);
    for (AppKey app : apps) {
      pages.put(app.page(), data.page(app));
    }
    return pages;
  }

  private Dataset<Row> topPerApp(Dataset<Row> rows, String order) {
    return rows.withColumn("rank_in_app", org.apache.spark.sql.functions.row_number().over(Window.partitionBy("log_id", "app_id",
        "app_attempt_id").orderBy(desc(order)))).where(col("rank_in_app").leq(top));
  }

  private Map<AppKey, List<Row>> collect(String table, List<String> logs,
      java.util.function.Function<Dataset<Row>, Dataset<Row>> shape) {
    Optional<Dataset<Row>> rows = in.read(table);
    if (rows.isEmpty()) {
      return null;
    }
    Map<AppKey, List<Row>> byApp = new HashMap<>();
    for (Row row : shape.apply(rows.get().where(col("log_id").isin(logs.toArray()))).collectAsList()) {
      byApp.computeIfAbsent(AppKey.of(row), k -> new ArrayList<>()).add(row);
    }
    return byApp;
  }

  /**
   * Per application and time bucket, the mean number of running tasks: Σ task overlap with the bucket ÷ width. A task
   * holds its slot from its launch for its executor-side time (deserialisation, run and result serialisation), not up
   * to its finish time: the driver records a task's finish after the executor has handed its slot to the next task
   * (the samples' tasks: 100-300 ms later), and counting to it drew up to twice the slots busy at once.
   */
  private Map<AppKey, List<Row>> slotBuckets(List<String> logs) {
    Optional<Dataset<Row>> tasks = in.read("tasks");
    Optional<Dataset<Row>> apps = in.read("applications");
    if (tasks.isEmpty() || apps.isEmpty()) {
      return null;
    }
    Dataset<Row> spans = apps.get().where(col("log_id").isin(logs.toArray()))
        .select(col("log_id"), col("app_id"), col("app_attempt_id"), col("start_time_ms"), col("end_time_ms"),
            expr("greatest(ceil((end_time_ms - start_time_ms) / " + BUCKETS + "), 1)").as("width_ms"))
        .where(col("start_time_ms").isNotNull().and(col("end_time_ms").isNotNull()));
    Dataset<Row> running = tasks.get().where(col("log_id").isin(logs.toArray()))
        .select("log_id", "app_id", "app_attempt_id", "launch_time_ms", "finish_time_ms",
            "executor_deserialize_time_ms", "executor_run_time_ms", "result_serialization_time_ms")
        .join(spans, KEYS.toArray(new String[0]), "inner")
        .where(col("launch_time_ms").isNotNull())
        // least() skips nulls: a task without its executor metrics runs to its finish time.
        .withColumn("finish", expr("least(launch_time_ms + executor_deserialize_time_ms + executor_run_time_ms"
            + " + coalesce(result_serialization_time_ms, 0), coalesce(finish_time_ms, end_time_ms), end_time_ms)"))
        .withColumn("b0", expr("least(greatest(floor((launch_time_ms - start_time_ms) / width_ms), 0), "
            + (BUCKETS - 1) + ")"))
        .withColumn("b1", expr("least(greatest(floor((finish - 1 - start_time_ms) / width_ms), b0), "
            + (BUCKETS - 1) + ")"))
        .withColumn("bucket", expr("explode(sequence(b0, b1))"))
        .withColumn("overlap_ms", expr("greatest(least(finish, start_time_ms + (bucket + 1) * width_ms) "
            + "- greatest(launch_time_ms, start_time_ms + bucket * width_ms), 0)"))
        .groupBy("log_id", "app_id", "app_attempt_id", "bucket", "width_ms")
        .agg(expr("sum(overlap_ms) / first(width_ms)").as("running"));
    Map<AppKey, List<Row>> byApp = new HashMap<>();
    for (Row row : running.collectAsList()) {
      byApp.computeIfAbsent(AppKey.of(row), k -> new ArrayList<>()).add(row);
    }
    return byApp;
  }

  private Page page(AppKey app) {
    Row info = applications.get(app);
    String name = info == null ? null : info.getAs("app_name");
    List<Section> sections = new ArrayList<>();
    sections.add(summary(app, info));
    sections.add(timeline(app, info));
    sections.add(executorSection(app, info));
    sections.add(stragglerSection(app));
    sections.add(findingSection(app));
    sections.add(operatorSection(app));
    return new Page("Application " + app.label() + (name == null ? "" : " · " + name), "../", Overview.nav("../"),
        sections);
  }

  private Section summary(AppKey app, Row info) {
    if (info == null) {
      return Section.note("summary", "Application", in.missing("applications", "ingest"));
    }
    List<List<Cell>> rows = new ArrayList<>();
    for (String[] field : new String[][] {{"application id", "app_id"}, {"attempt", "app_attempt_id"},
        {"name", "app_name"}, {"user", "user"}, {"Spark version", "spark_version"}, {"master", "master"},
        {"log id", "log_id"}}) {
      String value = Fmt.str(info, field[1]);
      rows.add(List.of(Cell.text(field[0]), Cell.text(value == null || value.isEmpty() ? Fmt.NONE : value)));
    }
    Long duration = Fmt.lng(info, "duration_ms");
    rows.add(List.of(Cell.text("duration (s)"), Cell.number(Fmt.num(duration == null ? null : duration / 1000.0, 1))));
    rows.add(List.of(Cell.text("tasks"), Cell.number(Fmt.count(Fmt.lng(info, "num_task_attempts")))));
    Long start = Fmt.lng(info, "start_time_ms");
    Long submitted = earliest(app, "submission_time_ms");
    Long launched = earliest(app, "first_task_launch_time_ms");
    rows.add(List.of(Cell.text("first stage submitted (s after start)"), Cell.number(seconds(start, submitted))));
    rows.add(List.of(Cell.text("first task launched (s after start)"), Cell.number(seconds(start, launched))));
    rows.add(List.of(Cell.text("start-up wait (s): first stage submitted to first task launched"),
        Cell.number(seconds(submitted, launched))));
    return new Section("summary", "Application", List.of(), List.of(),
        List.of(new TableView("app-summary", List.of("property", "value"), rows)), List.of());
  }

  private Section timeline(AppKey app, Row info) {
    if (stages == null || info == null || Fmt.lng(info, "start_time_ms") == null) {
      return Section.note("timeline", "Stage timeline", in.missing("stages", "ingest"));
    }
    long start = Fmt.lng(info, "start_time_ms");
    List<Row> rows = stages.getOrDefault(app, List.of()).stream()
        .filter(r -> Fmt.lng(r, "submission_time_ms") != null && Fmt.lng(r, "completion_time_ms") != null)
        .sorted(Comparator.comparing((Row r) -> Fmt.lng(r, "submission_time_ms"))
            .thenComparing(r -> r.<Integer>getAs("stage_id")))
        .toList();
    List<String> notes = new ArrayList<>();
    List<Chart> charts = new ArrayList<>();
    if (!rows.isEmpty()) {
      charts.add(gantt(rows, start));
    } else {
      notes.add("No timed stage.");
    }
    if (rows.size() > MAX_STAGES) {
      notes.add(String.format("%d timed stage attempts, drawn as %d bars of consecutive attempts (by submission).",
          rows.size(), MAX_STAGES));
    }
    List<Row> slots = buckets == null ? List.of() : buckets.getOrDefault(app, List.of());
    if (!slots.isEmpty()) {
      charts.add(slotChart(app, info, slots));
    }
    return new Section("timeline", "Stage timeline and task slots", notes, charts, List.of(), List.of());
  }

  /**
   * The Gantt chart of an application's timed stage attempts (in submission order): one bar each up to
   * {@link #MAX_STAGES}, else {@link #MAX_STAGES} bars of consecutive attempts, so the page stays small.
   */
  private static Chart gantt(List<Row> rows, long start) {
    int bars = Math.min(rows.size(), MAX_STAGES);
    List<String> names = new ArrayList<>();
    List<Double> starts = new ArrayList<>();
    List<Double> ends = new ArrayList<>();
    for (int b = 0; b < bars; b++) {
      List<Row> group = rows.subList((int) ((long) b * rows.size() / bars), (int) ((long) (b + 1) * rows.size() / bars));
      Row first = group.get(0);
      Row last = group.get(group.size() - 1);
      names.add(group.size() == 1 ? "stage " + stageLabel(first)
          : "stages " + first.getAs("stage_id") + "–" + last.getAs("stage_id") + " (" + group.size() + ")");
      starts.add((Fmt.lng(first, "submission_time_ms") - start) / 1000.0);
      ends.add((group.stream().mapToLong(r -> Fmt.lng(r, "completion_time_ms")).max().orElseThrow() - start)
          / 1000.0);
    }
    return new Chart("chart-gantt", "Stages over time (Gantt)", ScriptJson.of(Charts.gantt(
        "time since application start (s)", names, starts, ends)));
  }

  private Chart slotChart(AppKey app, Row info, List<Row> slots) {
    long start = Fmt.lng(info, "start_time_ms");
    long end = Fmt.lng(info, "end_time_ms");
    double width = Math.max(1, Math.ceil((end - start) / (double) BUCKETS));
    Double[] running = new Double[BUCKETS];
    for (Row r : slots) {
      running[(int) (long) Fmt.lng(r, "bucket")] = Charts.round(Fmt.dbl(r, "running"));
    }
    List<List<Double>> runningPoints = new ArrayList<>();
    List<List<Double>> capacity = new ArrayList<>();
    for (int b = 0; b < BUCKETS && b * width < end - start + width; b++) {
      double t = (b + 0.5) * width;
      runningPoints.add(List.of(Charts.round(t / 1000), running[b] == null ? 0.0 : running[b]));
      // The last bucket's middle may fall after the application's end: its slots are those alive at the end.
      capacity.add(List.of(Charts.round(t / 1000), coresAlive(app, Math.min(start + t, end), end)));
    }
    return new Chart("chart-slots", "Running tasks and executor task slots over time", ScriptJson.of(Charts.xy(
        "time since application start (s)", "tasks / slots (count)", List.of(
            new Series("running tasks (mean per " + Fmt.num(width / 1000, 2) + " s)", "line", runningPoints),
            new Series("executor cores alive", "line", capacity)), false)));
  }

  private double coresAlive(AppKey app, double at, long end) {
    double cores = 0;
    for (Row e : executors == null ? List.<Row>of() : executors.getOrDefault(app, List.of())) {
      Long added = Fmt.lng(e, "add_time_ms");
      Long removed = Fmt.lng(e, "remove_time_ms");
      Long total = Fmt.lng(e, "total_cores");
      if (total != null && added != null && added <= at && at < (removed == null ? end + 1 : removed)) {
        cores += total;
      }
    }
    return cores;
  }

  private Section executorSection(AppKey app, Row info) {
    if (executors == null || info == null) {
      return Section.note("executors", "Executor utilisation", in.missing("executors", "ingest"));
    }
    long end = Fmt.lng(info, "end_time_ms") == null ? 0 : Fmt.lng(info, "end_time_ms");
    List<List<Cell>> cells = new ArrayList<>();
    List<String> ids = new ArrayList<>();
    List<Double> utilisation = new ArrayList<>();
    for (Row e : executors.getOrDefault(app, List.of()).stream()
        .sorted(Comparator.comparing(r -> r.<String>getAs("executor_id"))).toList()) {
      Long cores = Fmt.lng(e, "total_cores");
      Long added = Fmt.lng(e, "add_time_ms");
      Long removed = Fmt.lng(e, "remove_time_ms");
      double alive = added == null ? 0 : ((removed == null ? end : removed) - added) / 1000.0;
      double busy = orZero(Fmt.lng(e, "task_time_ms")) / 1000.0;
      Double util = cores == null || cores == 0 || alive <= 0 ? null : busy / (cores * alive);
      if (util != null) {
        ids.add(e.getAs("executor_id"));
        utilisation.add(Charts.round(util));
      }
      cells.add(List.of(Cell.text(e.getAs("executor_id")), Cell.text(e.getAs("host")),
          Cell.number(Fmt.count(cores)), Cell.number(Fmt.num(alive, 1)), Cell.number(Fmt.num(busy, 1)),
          Cell.number(Fmt.num(util, 2))));
    }
    List<Chart> charts = ids.isEmpty() ? List.of() : List.of(new Chart("chart-executors",
        "Utilisation per executor", ScriptJson.of(Charts.bars("executor", "busy core time ÷ available (ratio)", ids,
        List.of(new Series("utilisation", "bar", utilisation))))));
    return new Section("executors", "Executor utilisation", List.of("Utilisation: Σ task time ÷ (cores × time "
        + "alive)."), charts, List.of(new TableView("executors-table", List.of("executor", "host", "cores",
        "alive (s)", "task time (s)", "utilisation (ratio)"), cells)), List.of());
  }

  /**
   * The application's stragglers that lost the most time (duration − stage median), up to {@code top}; those that lost
   * less than {@link #LISTED_LOSS_MS} each (0.0 s at the page's precision) are counted in a note, not listed, as the
   * overview does with findings that save nothing: a 0.08 s task at 1.9× its stage's median is a straggler by
   * BigRoots' definition and no one's problem. The {@code stragglers} table keeps every row.
   */
  private Section stragglerSection(AppKey app) {
    if (stragglers == null) {
      return Section.note("stragglers", "Stragglers", in.missing("stragglers", "diagnose"));
    }
    List<Row> rows = stragglers.getOrDefault(app, List.of());
    long all = rows.isEmpty() ? 0 : Fmt.lng(rows.get(0), "app_stragglers");
    long listable = rows.isEmpty() ? 0 : Fmt.lng(rows.get(0), "app_stragglers_listed");
    List<List<Cell>> cells = rows.stream().filter(r -> Fmt.dbl(r, "lost_ms") >= LISTED_LOSS_MS)
        .sorted(Comparator.comparing((Row r) -> -Fmt.dbl(r, "lost_ms")).thenComparing(r -> Fmt.lng(r, "task_id")))
        .map(r -> List.of(Cell.number(stageLabel(r)), Cell.number(Fmt.str(r, "task_id")),
            Cell.text(Fmt.str(r, "executor_id")), Cell.number(Fmt.num(Fmt.lng(r, "duration_ms") / 1000.0, 2)),
            Cell.number(Fmt.num(Fmt.dbl(r, "lost_ms") / 1000.0, 2)),
            Cell.number(Fmt.num(Fmt.dbl(r, "straggler_factor"), 2)),
            Cell.text(String.join(", ", r.<String>getList(r.fieldIndex("causes")))))).toList();
    String under = Fmt.num(LISTED_LOSS_MS / 1000.0, 2);
    List<String> notes = new ArrayList<>();
    if (all == 0) {
      notes.add("No stragglers.");
    } else if (cells.isEmpty()) {
      notes.add(String.format(Locale.ROOT, "%s, none listed: each lost less than %s s (the stragglers table keeps "
          + "them).", stragglers(all), under));
    } else {
      notes.add(cells.size() == all ? stragglers(all) + ", most time lost first."
          : String.format(Locale.ROOT, "%s; the %s that lost the most time (up to %d).", stragglers(all),
              Fmt.count((long) cells.size()), top));
      if (all > listable) {
        notes.add(String.format(Locale.ROOT, "Not listed: %s that lost less than %s s each (the stragglers table "
            + "keeps them).", Fmt.count(all - listable), under));
      }
      notes.add("Time lost: the task's duration − its stage's median task duration.");
    }
    return new Section("stragglers", "Stragglers", notes, List.of(), unlessEmpty(new TableView("stragglers-table",
        List.of("stage", "task", "executor", "duration (s)", "time lost (s)", "× stage median", "causes"), cells)),
        List.of());
  }

  private Section findingSection(AppKey app) {
    if (findings == null) {
      return Section.note("findings", "Findings", in.missing("findings", "diagnose"));
    }
    List<Row> rows = findings.getOrDefault(app, List.of()).stream()
        .sorted(Comparator.comparing((Row r) -> -r.<Integer>getAs("severity_rank"))
            .thenComparing(r -> -r.<Double>getAs("estimated_savings_s"))).toList();
    return new Section("findings", "Findings", rows.isEmpty() ? List.of("No findings.") : List.of(), List.of(),
        unlessEmpty(Overview.findingsTable("app-findings", rows, "../")), List.of());
  }

  private Section operatorSection(AppKey app) {
    if (operators == null) {
      return Section.note("sql", "Top SQL operators", in.missing("sql_operators", "ingest"));
    }
    List<List<Cell>> cells = operators.getOrDefault(app, List.of()).stream()
        .sorted(Comparator.comparing((Row r) -> -r.<Long>getAs("time_ms"))).map(r -> List.of(
            Cell.number(Fmt.str(r, "execution_id")), Cell.number(Fmt.str(r, "node_id")),
            Cell.text(r.getAs("node_name")), Cell.text(abbreviate(r.getAs("description"))),
            Cell.number(Fmt.num(Fmt.lng(r, "time_ms") / 1000.0, 2)), Cell.number(Fmt.count(Fmt.lng(r, "output_rows"))),
            Cell.number(Fmt.count(Fmt.lng(r, "spill_bytes"))))).toList();
    return new Section("sql", "Top SQL operators", cells.isEmpty() ? List.of("No timed SQL operator.") : List.of(),
        List.of(), unlessEmpty(new TableView("sql-table", List.of("execution", "node", "operator", "description",
        "task time (s)", "output rows", "spill (bytes)"), cells)), List.of());
  }

  /** The earliest non-null {@code column} among the application's stage attempts, or null. */
  private Long earliest(AppKey app, String column) {
    return stages == null ? null : stages.getOrDefault(app, List.of()).stream().map(r -> Fmt.lng(r, column))
        .filter(java.util.Objects::nonNull).min(Long::compare).orElse(null);
  }

  /** {@code to − from} in seconds, one decimal, not below 0; {@link Fmt#NONE} when either is unknown. */
  private static String seconds(Long from, Long to) {
    return from == null || to == null ? Fmt.NONE : Fmt.num(Math.max(0, to - from) / 1000.0, 1);
  }

  private static String stragglers(long count) {
    return Fmt.count(count) + (count == 1 ? " straggler" : " stragglers");
  }

  /** {@code table} alone, or nothing when it has no rows: its section's note says so instead of a bare header. */
  private static List<TableView> unlessEmpty(TableView table) {
    return table.rows().isEmpty() ? List.of() : List.of(table);
  }

  /** A stage attempt as people read it: {@code 4} for a first attempt, {@code 4 (attempt 1)} for a retry. */
  static String stageLabel(Row row) {
    int attempt = row.<Integer>getAs("stage_attempt_id");
    return row.getAs("stage_id") + (attempt == 0 ? "" : " (attempt " + attempt + ")");
  }

  private static String abbreviate(String text) {
    return text == null || text.length() <= 300 ? text : text.substring(0, 300) + "…";
  }

  private static double orZero(Long value) {
    return value == null ? 0 : value;
  }
}
