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
 */
record NightRegressions(Long judgedAtMs, long judged, List<Row> rows, boolean tablePresent) {
  /** The version of regressions.json's format: raised when a field changes meaning or goes away. */
  static final int FORMAT_VERSION = 1;
  /** The file under the report's directory. */
  static final String JSON_FILE = "regressions.json";

  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  /** Reads the latest judging run's regressions; none when the table is absent or empty. */
  static NightRegressions read(Inputs in) {
    Optional<Dataset<Row>> table = in.read(ChangeTables.REGRESSIONS_TABLE);
    if (table.isEmpty()) {
      return new NightRegressions(null, 0, List.of(), false);
    }
    Optional<Long> at = LatestRegressions.judgedAtMs(table.get());
    if (at.isEmpty()) {
      return new NightRegressions(null, 0, List.of(), true);
    }
    Dataset<Row> night = table.get().where(col("judged_at_ms").equalTo(at.get()));
    return new NightRegressions(at.get(), night.count(), LatestRegressions.regressions(night).collectAsList(), true);
  }

  /** The overview's section, linking each application (added to {@code linked}); empty without the table. */
  Optional<Section> section(Set<AppKey> linked) {
    if (!tablePresent) {
      return Optional.empty();
    }
    List<List<Cell>> cells = new ArrayList<>();
    for (Row r : rows) {
      AppKey key = AppKey.of(r);
      linked.add(key);
      String workload = Fmt.str(r, "workload_id");
      String reference = r.getAs("reference_app_id");
      cells.add(List.of(Cell.link(workload, Paths.workloadPage(workload)), Cell.link(key.label(), key.page()),
          Cell.text(LatestRegressions.whatRegressed(r, "×")),
          Cell.number(Fmt.num(Fmt.dbl(r, "extra_s"), 1)),
          Cell.number(Fmt.num(Fmt.dbl(r, LatestRegressions.EXTRA_CORE_HOURS), 3)), Cell.text(Fmt.str(r, "first_cause")),
          Cell.text(String.join(" ", r.<String>getList(r.fieldIndex("actions")))),
          reference == null ? Cell.text(Fmt.NONE) : Cell.link(reference, ComparisonPages.page(key))));
    }
    String when = judgedAtMs == null ? "" : " judged at " + Instant.ofEpochMilli(judgedAtMs);
    String note = rows.isEmpty()
        ? String.format(Locale.ROOT, "No regressions among the %d runs%s.", judged, when)
        : String.format(Locale.ROOT, "%d of the %d runs%s regressed against their workload's history, most extra"
            + " core-hours first (regressions; how they are judged: docs/regressions.md).", rows.size(), judged, when);
    return Optional.of(new Section("regressions", "Regressions last night", List.of(note), List.of(),
        rows.isEmpty() ? List.of() : List.of(new TableView("regressions-table", List.of("workload", "application",
            "what regressed (ratio)", "extra time (s)", "extra core-hours (core·h)", "first cause", "what to do",
            "compared with (stages aligned)"), cells)),
        List.of()));
  }

  /** regressions.json: format version, when, and one object per regression (fields in docs/report.md). */
  String json(Instant generatedAt) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("format_version", FORMAT_VERSION);
    out.put("generated_at", generatedAt.toString());
    out.put("regressions_table", tablePresent);
    out.put("judged_at", judgedAtMs == null ? null : Instant.ofEpochMilli(judgedAtMs).toString());
    out.put("judged_runs", judged);
    out.put("regressions", rows.stream().map(NightRegressions::regression).toList());
    try {
      return JSON.writeValueAsString(out) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Cannot write regressions.json: " + e.getOriginalMessage(), e);
    }
  }

  private static Map<String, Object> regression(Row r) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (String column : List.of("workload_id", "app_id", "app_attempt_id", "log_id", "start_time_ms",
        "wall_time_s", "baseline_wall_time_s", "wall_time_ratio", "wall_time_z", "core_hours_ratio",
        "gb_hours_ratio", "extra_s", "extra_core_hours", "first_cause", "reference_app_id")) {
      m.put(column, r.isNullAt(r.fieldIndex(column)) ? null : r.get(r.fieldIndex(column)));
    }
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
    m.put("page", AppKey.of(r).page());
    m.put("comparison_page", r.isNullAt(r.fieldIndex("reference_app_id")) ? null
        : ComparisonPages.page(AppKey.of(r)));
    return m;
  }
}
