package org.perflab.spark.report;

import static org.apache.spark.sql.functions.col;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.perflab.spark.changes.ChangeTables;
import org.perflab.spark.changes.LatestRegressions;
import org.perflab.spark.report.View.Cell;
import org.perflab.spark.report.View.Link;
import org.perflab.spark.report.View.Page;
import org.perflab.spark.report.View.Section;
import org.perflab.spark.report.View.TableView;

/**
 * The night's regressions: the {@code REGRESSION} rows of the {@code regressions} table's latest judging run (its
 * greatest {@code judged_at_ms}), most extra core-hours first, then most extra seconds ({@link LatestRegressions}). The overview shows them first;
 * {@code <output>/report/regressions.json} ({@link #json}, fields in docs/report.md) serves alerting tools.
 *
 * @param judgedAtMs the latest judging run, epoch ms; null without the table or rows
 * @param judged rows of that run
 * @param rows its regressions, in order
 * @param tablePresent whether the {@code regressions} table exists
 * @param changed the runs of that judgement that changed their configuration or plan since their workload's previous
 *     run without regressing ({@link LatestRegressions#changedRows})
 */
record NightRegressions(Long judgedAtMs, long judged, List<Row> rows, boolean tablePresent, List<Row> changed) {
  /**
   * The version of regressions.json's format: raised when a field changes meaning or goes away. 2 (2026-12-02):
   * {@code page} may be null, for a regression beyond the report's {@code --top}.
   */
  static final int FORMAT_VERSION = 2;
  /** The file under the report's directory. */
  static final String JSON_FILE = "regressions.json";

  /** The pages of the whole list, {@code regressions-1.html}, ...: {@link Paging}. */
  static final String PAGES = "regressions";
  private static final String TITLE = "Regressions last night";
  private static final List<String> CHANGED_HEADERS = List.of("workload", "application", "verdict",
      "what changed since the previous run", "previous run");
  private static final List<String> HEADERS = List.of("workload", "application", "what regressed (ratio)",
      "extra time (s)", "extra core-hours (core·h)", "first cause", "what to do", "compared with (stages aligned)");
  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  /** Reads the latest judging run's regressions; none when the table is absent or empty. */
  static NightRegressions read(Inputs in) {
    Optional<Dataset<Row>> table = in.read(ChangeTables.REGRESSIONS_TABLE);
    if (table.isEmpty()) {
      return new NightRegressions(null, 0, List.of(), false, List.of());
    }
    Optional<Long> at = LatestRegressions.judgedAtMs(table.get());
    if (at.isEmpty()) {
      return new NightRegressions(null, 0, List.of(), true, List.of());
    }
    Dataset<Row> night = table.get().where(col("judged_at_ms").equalTo(at.get()));
    return new NightRegressions(at.get(), night.count(), LatestRegressions.regressions(night).collectAsList(), true,
        LatestRegressions.changedRows(night));
  }

  /**
   * The overview's section; empty without the table. It shows the {@code top} costliest regressions, each linked to
   * its application's page (added to {@code linked}) and its comparison page ({@link #paged}); when there are more (a
   * first night over an archive, or a {@code --full} run, judges every application), all of them go to the pages
   * {@code regressions-1.html}, ... ({@link Paging}), added to {@code pages} and linked under the overview's table,
   * those beyond {@code top} without pages of their own, so that the report stays as large whatever the night judged.
   */
  Optional<Section> section(Set<AppKey> linked, int top, Map<String, Page> pages) {
    if (!tablePresent) {
      return Optional.empty();
    }
    List<List<Cell>> cells = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      Row r = rows.get(i);
      AppKey key = AppKey.of(r);
      boolean paged = i < top;
      if (paged) {
        linked.add(key);
      }
      String workload = Fmt.str(r, "workload_id");
      String reference = r.getAs("reference_app_id");
      cells.add(List.of(Cell.link(workload, Paths.workloadPage(workload)),
          paged ? Cell.link(key.label(), key.page()) : Cell.text(key.label()),
          Cell.text(LatestRegressions.whatRegressed(r, "×")),
          Cell.number(Fmt.num(Fmt.dbl(r, "extra_s"), 1)),
          Cell.number(Fmt.num(Fmt.dbl(r, LatestRegressions.EXTRA_CORE_HOURS), 3)), Cell.text(Fmt.str(r, "first_cause")),
          Cell.text(actions(r)),
          reference == null ? Cell.text(Fmt.NONE)
              : paged ? Cell.link(reference, ComparisonPages.page(key)) : Cell.text(reference)));
    }
    String when = judgedAtMs == null ? "" : " judged at " + Instant.ofEpochMilli(judgedAtMs);
    if (rows.isEmpty()) {
      return Optional.of(Section.note("regressions", TITLE,
          String.format(Locale.ROOT, "No regressions among the %d runs%s.", judged, when)));
    }
    List<Link> more = List.of();
    String shown = "";
    if (cells.size() > top) {
      Paging.pages(PAGES, TITLE, HEADERS, cells, pages);
      more = Paging.into(PAGES, Paging.count(cells.size()));
      shown = String.format(Locale.ROOT, "; the %d costliest here, with their application and comparison pages, all %d"
          + " on the pages linked below the table", top, cells.size());
    }
    String note = String.format(Locale.ROOT, "%d of the %d runs%s regressed against their workload's history, most"
        + " extra core-hours first%s (regressions; how they are judged: docs/regressions.md).", rows.size(), judged,
        when, shown);
    return Optional.of(new Section("regressions", TITLE, List.of(note), List.of(),
        List.of(new TableView("regressions-table", HEADERS, cells.subList(0, Math.min(top, cells.size())), more)),
        List.of()));
  }

  /**
   * The overview's section after the regressions: the runs of the same judgement that changed their configuration or
   * SQL plan since their workload's previous run without regressing, the first {@code top} by workload (the others
   * counted in its note; all in the table's {@code changes} column); empty when none did.
   */
  Optional<Section> changedSection(int top) {
    if (changed.isEmpty()) {
      return Optional.empty();
    }
    String note = String.format(Locale.ROOT, "%d of the %d runs changed their configuration or SQL plan since their"
        + " workload's previous run without regressing%s (regressions, column changes; docs/regressions.md).",
        changed.size(), judged, changed.size() > top ? String.format(Locale.ROOT, "; the first %d by workload here",
        top) : "");
    List<List<Cell>> cells = new ArrayList<>();
    for (Row r : changed.subList(0, Math.min(top, changed.size()))) {
      String workload = Fmt.str(r, "workload_id");
      cells.add(List.of(Cell.link(workload, Paths.workloadPage(workload)), Cell.text(AppKey.of(r).label()),
          Cell.text(LatestRegressions.verdictWords(r)),
          Cell.text(String.join("; ", r.<String>getList(r.fieldIndex(LatestRegressions.CHANGES)))),
          Cell.text(Fmt.str(r, "previous_app_id"))));
    }
    return Optional.of(new Section("changed", "Changed without regressing", List.of(note), List.of(),
        List.of(new TableView("changed-table", CHANGED_HEADERS, cells)), List.of()));
  }

  /** The regressions the report writes application and comparison pages for: the {@code top} costliest. */
  List<Row> paged(int top) {
    return rows.subList(0, Math.min(top, rows.size()));
  }

  /** The row's {@code actions}, in rank order, as one text: each a clause of its own, separated by semicolons. */
  static String actions(Row r) {
    return String.join("; ", r.<String>getList(r.fieldIndex("actions")));
  }

  /**
   * regressions.json: format version, when, and one object per regression (fields in docs/report.md), the {@code top}
   * costliest with their pages, the others with none ({@link #paged}).
   */
  String json(Instant generatedAt, int top) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("format_version", FORMAT_VERSION);
    out.put("generated_at", generatedAt.toString());
    out.put("regressions_table", tablePresent);
    out.put("judged_at", judgedAtMs == null ? null : Instant.ofEpochMilli(judgedAtMs).toString());
    out.put("judged_runs", judged);
    List<Map<String, Object>> regressions = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      regressions.add(regression(rows.get(i), i < top));
    }
    out.put("regressions", regressions);
    List<Map<String, Object>> changedRuns = new ArrayList<>();
    for (Row r : changed) {
      Map<String, Object> m = columns(r, List.of("workload_id", "app_id", "app_attempt_id", "log_id", "verdict",
          "previous_app_id"));
      m.put("changes", r.getList(r.fieldIndex(LatestRegressions.CHANGES)));
      changedRuns.add(m);
    }
    out.put("changed", changedRuns);
    try {
      return JSON.writeValueAsString(out) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Cannot write regressions.json: " + e.getOriginalMessage(), e);
    }
  }

  /** The row's {@code columns} by name, in order, null where null. */
  private static Map<String, Object> columns(Row r, List<String> columns) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (String column : columns) {
      m.put(column, r.isNullAt(r.fieldIndex(column)) ? null : r.get(r.fieldIndex(column)));
    }
    return m;
  }

  private static Map<String, Object> regression(Row r, boolean paged) {
    Map<String, Object> m = columns(r, List.of("workload_id", "app_id", "app_attempt_id", "log_id", "start_time_ms",
        "wall_time_s", "baseline_wall_time_s", "wall_time_ratio", "wall_time_z", "core_hours_ratio",
        "gb_hours_ratio", "extra_s", "extra_core_hours", "first_cause", "reference_app_id"));
    m.put("metric", LatestRegressions.metric(r));
    m.put("change_kind", LatestRegressions.changeKind(r).map(Enum::name).orElse(null));
    m.put("baseline_app_ids", r.getList(r.fieldIndex("baseline_app_ids")));
    List<Map<String, Object>> causes = new ArrayList<>();
    for (Row c : r.<Row>getList(r.fieldIndex("causes"))) {
      Map<String, Object> cause = new LinkedHashMap<>();
      for (String field : List.of("rank", "kind", "what", "seconds", "share", "action")) {
        cause.put(field, c.isNullAt(c.fieldIndex(field)) ? null : c.get(c.fieldIndex(field)));
      }
      causes.add(cause);
    }
    m.put("causes", causes);
    m.put("actions", r.getList(r.fieldIndex("actions")));
    m.put("page", paged ? AppKey.of(r).page() : null);
    m.put("comparison_page", !paged || r.isNullAt(r.fieldIndex("reference_app_id")) ? null
        : ComparisonPages.page(AppKey.of(r)));
    return m;
  }
}
