package org.perflab.spark.changes;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.desc_nulls_last;
import static org.apache.spark.sql.functions.expr;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.size;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.perflab.changes.Attribution;
import org.perflab.changes.ChangeKind;
import org.perflab.changes.Verdict;
import org.perflab.table.KeyColumns;

/**
 * The {@code regressions} table as the night's readers see it (the nightly summary, the report): the rows of the
 * step's latest run and their regressions, costliest first, each with a one-line headline.
 */
public final class LatestRegressions {
  /** Column added by {@link #regressions}: core-hours above the baseline, {@code core_hours − core_hours ÷ ratio}. */
  public static final String EXTRA_CORE_HOURS = "extra_core_hours";
  /** Regressions a console summary names, one a line; one more line counts the rest ({@link #bounded}). */
  public static final int SUMMARY_LINES = 10;
  /** The column of what changed since the workload's previous run; absent from rows written before it. */
  public static final String CHANGES = "changes";

  private LatestRegressions() {}

  /** The step's latest run, epoch ms ({@code max(judged_at_ms)}); empty for an empty table. */
  public static Optional<Long> judgedAtMs(Dataset<Row> table) {
    Row latest = table.agg(max("judged_at_ms")).first();
    return latest.isNullAt(0) ? Optional.empty() : Optional.of(latest.getLong(0));
  }

  /**
   * The {@code REGRESSION} rows of {@code rows} with {@link #EXTRA_CORE_HOURS}, most extra core-hours first (unknown
   * last), then most extra seconds, then by application.
   */
  public static Dataset<Row> regressions(Dataset<Row> rows) {
    return rows.where(col("verdict").equalTo(Verdict.REGRESSION.name()))
        .withColumn(EXTRA_CORE_HOURS, expr("core_hours - core_hours / core_hours_ratio"))
        .orderBy(desc_nulls_last(EXTRA_CORE_HOURS), desc_nulls_last("extra_s"), col("app_id"), col("log_id"));
  }

  /**
   * The nightly summary's first lines about the step's latest run: {@code regressed: }{@link #headline} per
   * regression, costliest first, at most {@link #SUMMARY_LINES} of them and then one line that counts the rest
   * ({@link #bounded}), or one line saying none of its runs regressed; then {@code changed: } per run whose
   * configuration or plan changed without regressing ({@link #changedHeadlines}), as many at most and a line that
   * counts the rest; none for an empty table.
   */
  public static List<String> summaryLines(Dataset<Row> table) {
    Optional<Long> at = judgedAtMs(table);
    if (at.isEmpty()) {
      return List.of();
    }
    Dataset<Row> night = table.where(col("judged_at_ms").equalTo(at.get()));
    List<String> lines = new ArrayList<>(bounded(regressions(night).collectAsList().stream()
        .map(LatestRegressions::headline).toList()));
    if (lines.isEmpty()) {
      lines.add(String.format(Locale.ROOT, "regressed: nothing (%d runs judged against their workload's history)",
          night.count()));
    }
    List<String> changed = changedHeadlines(night);
    changed.stream().limit(SUMMARY_LINES).forEach(h -> lines.add("changed: " + h));
    if (changed.size() > SUMMARY_LINES) {
      lines.add(String.format(Locale.ROOT, "changed: %d more, %d in all, in the regressions table (column %s)",
          changed.size() - SUMMARY_LINES, changed.size(), CHANGES));
    }
    return lines;
  }

  /**
   * The runs of {@code rows} whose configuration or SQL plan changed since their workload's previous run and that did
   * not regress, by workload and application: "wordcount (app-2) within noise: spark.sql.shuffle.partitions 200 ->
   * 400; 1 more change". What changed before anything got slower. None for rows written before the column.
   */
  public static List<String> changedHeadlines(Dataset<Row> rows) {
    return changedRows(rows).stream().map(r -> {
      List<String> changes = r.getList(r.fieldIndex(CHANGES));
      int more = changes.size() - 1;
      return String.format(Locale.ROOT, "%s (%s) %s: %s%s", r.getAs("workload_id"), r.getAs("app_id"),
          verdictWords(r), changes.get(0), more == 0 ? "" : "; " + more + (more == 1 ? " more change" : " more changes"));
    }).toList();
  }

  /**
   * The rows of {@link #changedHeadlines}: not {@code REGRESSION}, with at least one change, by workload and
   * application; none for rows written before the column.
   */
  public static List<Row> changedRows(Dataset<Row> rows) {
    if (!Arrays.asList(rows.schema().fieldNames()).contains(CHANGES)) {
      return List.of();
    }
    return rows.where(col("verdict").notEqual(Verdict.REGRESSION.name()).and(size(col(CHANGES)).gt(0)))
        .orderBy(col("workload_id"), col("app_id"), col(KeyColumns.LOG_ID)).collectAsList();
  }

  /** The row's verdict in words: "within noise", "insufficient history". */
  public static String verdictWords(Row r) {
    return r.<String>getAs("verdict").toLowerCase(Locale.ROOT).replace('_', ' ');
  }

  /**
   * Headlines as console lines, {@code regressed: } each: the first {@link #SUMMARY_LINES}, then, for more, one line
   * that counts the others and says where they all are, so that a night that judges a whole archive (its first, or a
   * {@code --full} run) does not bury its summary under hundreds of lines.
   */
  public static List<String> bounded(List<String> headlines) {
    List<String> lines = new ArrayList<>(headlines.stream().limit(SUMMARY_LINES)
        .map(h -> "regressed: " + h).toList());
    if (headlines.size() > SUMMARY_LINES) {
      lines.add(String.format(Locale.ROOT, "regressed: %d more, %d in all, costliest first in the regressions table"
          + " and the report (regressions.json)", headlines.size() - SUMMARY_LINES, headlines.size()));
    }
    return lines;
  }

  /**
   * "wordcount (app-1) wall time 1.32x (+4.4 s): CONFIGURATION: spark.executor.instances 4 -> 2"; after the ratio,
   * "gradually" when the change is a trend, "twice in a row" when a pair, "three times in a row" when a triple
   * ({@link #howChanged}). A regression of cost alone (wall time not a regression: the run used more cores or memory
   * for as long or less) names the metric that regressed and then the wall time, with the extra cost:
   * "etl (app-2) core-hours 2.40x gradually, wall time 0.60x (+0.311 core·h): RESOURCES: ...".
   */
  public static String headline(Row r) {
    Object first = r.getAs("first_cause");
    return String.format(Locale.ROOT, "%s (%s) %s%s: %s", r.getAs("workload_id"), r.getAs("app_id"),
        whatRegressed(r), extra(r), first == null ? "no cause found" : first);
  }

  /**
   * What regressed and by how much: "wall time 1.32x" when wall time is a regression, else the first cost metric that
   * is, then the wall time ("core-hours 2.40x, wall time 0.60x"); the change's kind ({@link #howChanged}) follows the
   * first ratio. Wall time alone for a row whose metric verdicts are unknown.
   */
  public static String whatRegressed(Row r) {
    return whatRegressed(r, "x");
  }

  /** {@link #whatRegressed(Row)} with {@code times} after each ratio ("x" on the console, "×" in the report). */
  public static String whatRegressed(Row r, String times) {
    return costRegressed(r).map(m -> m.words + " " + ratio(r, m.column + "_ratio", times) + howChanged(r)
        + ", wall time " + ratio(r, "wall_time_ratio", times))
        .orElseGet(() -> "wall time " + ratio(r, "wall_time_ratio", times) + howChanged(r));
  }

  /**
   * The metric the regression is of, as its columns are named: {@code wall_time} when wall time is a regression (or
   * the row has no metric verdicts), else {@code core_hours} or {@code gb_hours}, the first cost metric that is.
   */
  public static String metric(Row r) {
    return costRegressed(r).map(m -> m.column).orElse("wall_time");
  }

  /** " (+4.4 s)" of extra wall time, or of a cost-only regression " (+0.311 core·h)"; empty when unknown. */
  private static String extra(Row r) {
    Optional<Metric> cost = costRegressed(r);
    if (cost.isEmpty()) {
      Object extra = r.getAs("extra_s");
      return extra == null ? "" : String.format(Locale.ROOT, " (+%.1f s)", (Double) extra);
    }
    Object value = r.getAs(cost.get().column);
    Object ratio = r.getAs(cost.get().column + "_ratio");
    return value == null || ratio == null ? "" : String.format(Locale.ROOT, " (+%.3f %s)",
        (Double) value - (Double) value / (Double) ratio, cost.get().unit);
  }

  /** The cost metric a regression is of ({@link Attribution.Extra#of}); empty for wall time. */
  private static Optional<Metric> costRegressed(Row r) {
    Attribution.Extra of = Attribution.Extra.of(verdict(r, "wall_time"), verdict(r, Metric.CORE_HOURS.column),
        verdict(r, Metric.GB_HOURS.column));
    return Arrays.stream(Metric.values()).filter(m -> m.extra == of).findFirst();
  }

  /** The cost metrics a regression may be of without its wall time: their column, words and unit. */
  private enum Metric {
    CORE_HOURS(Attribution.Extra.CORE_HOURS, "core_hours", "core-hours", "core·h"),
    GB_HOURS(Attribution.Extra.GB_HOURS, "gb_hours", "GB-hours", "GB·h");

    private final Attribution.Extra extra;
    private final String column;
    private final String words;
    private final String unit;

    Metric(Attribution.Extra extra, String column, String words, String unit) {
      this.extra = extra;
      this.column = column;
      this.words = words;
      this.unit = unit;
    }
  }

  /** The row's verdict on {@code metric} ({@code <metric>_verdict}); null when unknown or the column is absent. */
  private static Verdict verdict(Row r, String metric) {
    String column = metric + "_verdict";
    return Arrays.asList(r.schema().fieldNames()).contains(column) && !r.isNullAt(r.fieldIndex(column))
        ? Verdict.valueOf(r.getString(r.fieldIndex(column))) : null;
  }

  private static String ratio(Row r, String column, String times) {
    Object ratio = r.getAs(column);
    return ratio == null ? "?" : String.format(Locale.ROOT, "%.2f", (Double) ratio) + times;
  }

  /**
   * What follows a row's wall-time ratio: " gradually" when its change is a {@code TREND}, " twice in a row" when a
   * {@code PAIR}, " three times in a row" when a {@code TRIPLE}, " with its tasks waiting off the CPU" when
   * {@code CORROBORATED}, " with its set-up changed" when {@code KNOWN_CHANGE}, else empty.
   */
  public static String howChanged(Row r) {
    return changeKind(r).map(k -> switch (k) {
      case TREND -> " gradually";
      case PAIR -> " twice in a row";
      case TRIPLE -> " three times in a row";
      case CORROBORATED -> " with its tasks waiting off the CPU";
      case KNOWN_CHANGE -> " with its set-up changed";
      case STEP -> "";
    }).orElse("");
  }

  /** The row's {@code change_kind}; empty when null or when the table was written before the column existed. */
  public static Optional<ChangeKind> changeKind(Row r) {
    if (!Arrays.asList(r.schema().fieldNames()).contains("change_kind") || r.isNullAt(r.fieldIndex("change_kind"))) {
      return Optional.empty();
    }
    return Optional.of(ChangeKind.valueOf(r.getString(r.fieldIndex("change_kind"))));
  }
}
