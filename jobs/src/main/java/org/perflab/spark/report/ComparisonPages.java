package org.perflab.spark.report;

import static org.apache.spark.sql.functions.col;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.perflab.changes.StageAlignment;
import org.perflab.changes.StageMatcher;
import org.perflab.changes.StageRef;
import org.perflab.spark.report.View.Cell;
import org.perflab.spark.report.View.Chart;
import org.perflab.spark.report.View.Page;
import org.perflab.spark.report.View.Section;
import org.perflab.spark.report.View.TableView;

/**
 * One page per regression of the night ({@link NightRegressions}) that names the baseline run its causes were measured
 * against ({@code reference_app_id}): that run (A) beside the regressed one (B), their stages aligned by
 * {@link StageMatcher} (the alignment {@code compare} uses), drawn as two Gantt charts with the same rows, one aligned
 * stage per row, on the same time axis, and listed with each side's duration and the change.
 */
final class ComparisonPages {
  private final Inputs in;
  private final Map<AppKey, Row> applications = new HashMap<>();
  private final Map<String, AppKey> byAppId = new HashMap<>();
  private final Map<AppKey, List<Span>> spans = new HashMap<>();
  private final boolean stagesPresent;

  /**
   * A stage of one run: its attempts from the first submission to the last completion, seconds since the
   * application's start.
   */
  private record Span(StageRef ref, double start, double end) {}

  private ComparisonPages(Inputs in, List<Row> regressions) {
    this.in = in;
    List<String> runs = regressions.stream().map(r -> r.<String>getAs("log_id")).toList();
    List<String> references = regressions.stream().map(r -> r.<String>getAs("reference_app_id")).toList();
    in.read("applications").ifPresent(a -> a.where(col("log_id").isin(runs.toArray())
            .or(col("app_id").isin(references.toArray())))
        .select("log_id", "app_id", "app_attempt_id", "app_name", "start_time_ms", "duration_ms")
        .orderBy("log_id", "app_attempt_id").collectAsList().forEach(r -> {
          applications.put(AppKey.of(r), r);
          byAppId.putIfAbsent(r.getAs("app_id"), AppKey.of(r));
        }));
    Optional<Dataset<Row>> stages = in.read("stages");
    stagesPresent = stages.isPresent();
    List<String> logs = applications.keySet().stream().map(AppKey::logId).distinct().toList();
    if (stagesPresent && !logs.isEmpty()) {
      collectSpans(stages.get().where(col("log_id").isin(logs.toArray())
          .and(col("status").isin("SKIPPED", "PENDING").equalTo(false))
          .and(col("submission_time_ms").isNotNull()).and(col("completion_time_ms").isNotNull()))
          .groupBy("log_id", "app_id", "app_attempt_id", "stage_id")
          .agg(org.apache.spark.sql.functions.min("job_id").as("job_id"),
              org.apache.spark.sql.functions.first("name").as("name"),
              org.apache.spark.sql.functions.min("submission_time_ms").as("submitted"),
              org.apache.spark.sql.functions.max("completion_time_ms").as("completed"))
          .collectAsList());
    }
  }

  /** The page of the regression of {@code run}: {@code compare/<log_id>[-<attempt>].html}. */
  static String page(AppKey run) {
    return "compare/" + run.page().substring("apps/".length());
  }

  /**
   * The comparison pages of the regressions in {@code regressions} that name a reference run, by path, and the
   * applications they link to (added to {@code linked}, so that their pages are built).
   */
  static Map<String, Page> build(Inputs in, List<Row> regressions, Set<AppKey> linked) {
    List<Row> compared = regressions.stream().filter(r -> r.getAs("reference_app_id") != null).toList();
    Map<String, Page> pages = new LinkedHashMap<>();
    if (compared.isEmpty()) {
      return pages;
    }
    ComparisonPages data = new ComparisonPages(in, compared);
    for (Row r : compared) {
      AppKey run = AppKey.of(r);
      pages.put(page(run), data.page(run, r.getAs("reference_app_id"), r.getAs("first_cause"), linked));
    }
    return pages;
  }

  private void collectSpans(List<Row> rows) {
    Map<AppKey, List<Row>> byApp = new HashMap<>();
    rows.forEach(r -> byApp.computeIfAbsent(AppKey.of(r), k -> new ArrayList<>()).add(r));
    byApp.forEach((app, list) -> {
      Row info = applications.get(app);
      Long start = info == null ? null : Fmt.lng(info, "start_time_ms");
      if (start == null) {
        return;
      }
      Map<Integer, Integer> ordinals = StageRef.jobOrdinals(list.stream().map(r -> r.<Integer>getAs("job_id"))
          .toList());
      spans.put(app, list.stream().map(r -> new Span(new StageRef(r.getAs("stage_id"),
          r.getAs("job_id") == null ? -1 : ordinals.get(r.<Integer>getAs("job_id")), r.getAs("name")),
          (Fmt.lng(r, "submitted") - start) / 1000.0, (Fmt.lng(r, "completed") - start) / 1000.0)).toList());
    });
  }

  private Page page(AppKey run, String referenceId, String firstCause, Set<AppKey> linked) {
    AppKey reference = byAppId.get(referenceId);
    linked.add(run);
    List<Section> sections = new ArrayList<>();
    sections.add(summary(reference, referenceId, run, firstCause, linked));
    sections.add(reference == null
        ? Section.note("stages", "Stages aligned", "The baseline run " + referenceId + " is not in the applications "
            + "table under " + in.output().root() + ".")
        : aligned(reference, run));
    return new Page("Regression of " + run.label() + " against " + referenceId, "../", Overview.nav("../"),
        sections);
  }

  private Section summary(AppKey reference, String referenceId, AppKey run, String firstCause, Set<AppKey> linked) {
    List<List<Cell>> rows = new ArrayList<>();
    rows.add(runRow("A: baseline run", reference, referenceId, linked));
    rows.add(runRow("B: regressed run", run, run.appId(), linked));
    return new Section("runs", "The two runs", List.of("First cause: " + (firstCause == null ? Fmt.NONE : firstCause)
        + ". A is the baseline run whose wall time is closest to the baseline median (regressions.reference_app_id)."),
        List.of(), List.of(new TableView("compared-runs", List.of("run", "application", "name", "duration (s)"),
        rows)), List.of());
  }

  private List<Cell> runRow(String role, AppKey app, String appId, Set<AppKey> linked) {
    Row info = app == null ? null : applications.get(app);
    if (info == null) {
      return List.of(Cell.text(role), Cell.text(appId), Cell.text(""), Cell.number(Fmt.NONE));
    }
    linked.add(app);
    Long duration = Fmt.lng(info, "duration_ms");
    return List.of(Cell.text(role), Cell.link(app.label(), "../" + app.page()), Cell.text(Fmt.str(info, "app_name")),
        Cell.number(Fmt.num(duration == null ? null : duration / 1000.0, 1)));
  }

  /** Both runs' Gantt charts over the aligned stages, on one time axis, and the table of the aligned stages. */
  private Section aligned(AppKey a, AppKey b) {
    if (!stagesPresent) {
      return Section.note("stages", "Stages aligned", in.missing("stages", "ingest"));
    }
    Map<StageRef, Span> spansA = byRef(a);
    Map<StageRef, Span> spansB = byRef(b);
    StageAlignment alignment = StageMatcher.match(List.copyOf(spansA.keySet()), List.copyOf(spansB.keySet()));
    List<StageAlignment.Pair> pairs = alignment.pairs().size() > AppPages.MAX_STAGES
        ? alignment.pairs().subList(0, AppPages.MAX_STAGES) : alignment.pairs();
    if (pairs.isEmpty()) {
      return Section.note("stages", "Stages aligned", "Neither run has a timed stage.");
    }
    List<String> labels = new ArrayList<>();
    List<List<Cell>> rows = new ArrayList<>();
    for (StageAlignment.Pair p : pairs) {
      Span sa = p.before().map(spansA::get).orElse(null);
      Span sb = p.after().map(spansB::get).orElse(null);
      labels.add(id(sa) + " → " + id(sb));
      Double da = sa == null ? null : sa.end() - sa.start();
      Double db = sb == null ? null : sb.end() - sb.start();
      rows.add(List.of(Cell.text(id(sa)), Cell.text(id(sb)), Cell.text(name(sa, sb)),
          Cell.text(p.matched() ? "matched" : sa == null ? "added" : "removed"), Cell.number(Fmt.num(da, 2)),
          Cell.number(Fmt.num(db, 2)), Cell.number(Fmt.num(da == null || db == null ? null : db - da, 2))));
    }
    double end = pairs.stream().flatMap(p -> java.util.stream.Stream.of(p.before().map(spansA::get),
        p.after().map(spansB::get))).flatMap(Optional::stream).mapToDouble(Span::end).max().orElse(0);
    end = Math.ceil(end); // a whole second ends the shared axis
    List<String> notes = new ArrayList<>(List.of(String.format(java.util.Locale.ROOT, "%d stages matched, %d only "
        + "in B (added), %d only in A (removed); stage ids are per run, a row is one aligned stage.",
        alignment.matched().size(), alignment.added().size(), alignment.removed().size())));
    if (pairs.size() < alignment.pairs().size()) {
      notes.add("The first " + pairs.size() + " of " + alignment.pairs().size() + " aligned stages.");
    }
    return new Section("stages", "Stages aligned, A above B", notes, List.of(
        gantt("chart-gantt-a", "A: " + a.label(), pairs, labels, p -> p.before().map(spansA::get), end),
        gantt("chart-gantt-b", "B: " + b.label(), pairs, labels, p -> p.after().map(spansB::get), end)),
        List.of(new TableView("aligned-stages", List.of("stage in A", "stage in B", "name", "match",
            "duration in A (s)", "duration in B (s)", "change (s)"), rows)), List.of());
  }

  private static Chart gantt(String id, String title, List<StageAlignment.Pair> pairs, List<String> labels,
      java.util.function.Function<StageAlignment.Pair, Optional<Span>> side, double end) {
    List<Double> starts = new ArrayList<>();
    List<Double> ends = new ArrayList<>();
    for (StageAlignment.Pair p : pairs) {
      Optional<Span> s = side.apply(p);
      starts.add(s.map(Span::start).orElse(null));
      ends.add(s.map(Span::end).orElse(null));
    }
    return new Chart(id, title, ScriptJson.of(Charts.gantt("time since application start (s)", labels, starts,
        ends, end)));
  }

  /** The spans of {@code app} by stage, in run order. */
  private Map<StageRef, Span> byRef(AppKey app) {
    Map<StageRef, Span> out = new LinkedHashMap<>();
    spans.getOrDefault(app, List.of()).stream()
        .sorted(Comparator.comparingInt((Span s) -> s.ref().jobOrdinal()).thenComparingInt(s -> s.ref().stageId()))
        .forEach(s -> out.put(s.ref(), s));
    return out;
  }

  private static String id(Span s) {
    return s == null ? "–" : String.valueOf(s.ref().stageId());
  }

  private static String name(Span a, Span b) {
    Span s = b != null ? b : a;
    return s.ref().name() == null ? "" : s.ref().name();
  }
}
