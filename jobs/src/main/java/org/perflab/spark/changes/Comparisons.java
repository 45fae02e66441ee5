package org.perflab.spark.changes;

import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.sum;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.perflab.changes.PropertyChange;
import org.perflab.changes.RunProfile;
import org.perflab.changes.RunSettings;
import org.perflab.changes.StageAlignment;
import org.perflab.changes.StageMatcher;
import org.perflab.changes.StageRef;
import org.perflab.changes.WallTimeSplit;
import org.perflab.errors.BadInputException;
import org.perflab.spark.features.TaskColumns;
import org.perflab.table.KeyColumns;

/**
 * Any two runs side by side: which runs ({@link #ofApps}, {@link #latestOf}), the per-stage and per-run sums the
 * comparison needs ({@link #schedulerDelays}, {@link #dataTotals}: Dataset to Dataset), and the rows of the
 * {@code comparisons} table ({@link #rows}): the runs' totals, every configuration and data difference, and every stage
 * of either run aligned by {@link StageMatcher} with its time split ({@link StageTimes}).
 */
public final class Comparisons {
  /** The data metrics compared, in row order: columns of the {@code stages} table, summed over the run's stages. */
  static final List<String> DATA = List.of("input_bytes", "input_records", "shuffle_read_bytes",
      "shuffle_read_records", "shuffle_write_bytes", "shuffle_write_records", "output_bytes", "output_records");

  /** The item of the {@link ComparisonKind#PLAN} row. */
  public static final String PLAN_ITEM = "sql_plan";

  /** The {@code RUN} item of the runs' task time, s. */
  public static final String TASK_TIME_ITEM = "task_time_s";

  /** The {@code RUN} item of the runs' task slots (executors × cores obtained). */
  public static final String SLOTS_ITEM = "slots";

  /** The {@code RUN} items of the wall time split ({@link WallTimeSplit}), in the order of their rows. */
  public static final List<String> SPLIT_ITEMS = List.of("before_stages_s", "stages_s", "between_stages_s",
      "after_stages_s");

  private static final int EXAMPLES = 5;

  /**
   * What one compared run holds: its profile ({@link RunProfiles}), its stages with their attempts summed, its data
   * totals ({@link #DATA} → amount).
   */
  public record Side(RunProfile profile, Map<Integer, StageTimes> stages, Map<String, Long> data) {}

  private Comparisons() {}

  // ---- which runs ---------------------------------------------------------------------------------------------------

  /**
   * The runs of two application ids (of several attempts, the latest), A first.
   *
   * @param runs every run under the root
   * @param root the root, for the messages
   * @throws BadInputException when an id is not under the root
   */
  public static ComparedPair ofApps(List<RunPoint> runs, List<String> appIds, String root) {
    return new ComparedPair(latestAttempt(runs, appIds.get(0), root), latestAttempt(runs, appIds.get(1), root));
  }

  /**
   * A workload's two latest runs by start time: A the earlier, B the latest.
   *
   * @throws BadInputException when the workload is not under the root or has one run
   */
  public static ComparedPair latestOf(List<RunPoint> runs, String workload, String root) {
    List<RunPoint> of = runs.stream().filter(r -> r.workloadId().equals(workload)).sorted(RunPoint.START_ORDER)
        .toList();
    if (of.isEmpty()) {
      throw new BadInputException(String.format("Cannot compare: no workload %s under %s (workloads: %s)", workload,
          root, examples(runs.stream().map(RunPoint::workloadId).toList())));
    }
    BadInputException.require(of.size() >= 2,
        "Cannot compare: workload %s has 1 run under %s (2 needed; ingest another run, or give two --app)", workload,
        root);
    return new ComparedPair(of.get(of.size() - 2), of.get(of.size() - 1));
  }

  /**
   * {@code pair}, unless its runs are of different workloads and {@code force} is off.
   *
   * @throws BadInputException naming both workloads and {@code --force}
   */
  public static ComparedPair requireComparable(ComparedPair pair, boolean force) {
    BadInputException.require(force || pair.sameWorkload(), "Cannot compare: %s is a run of %s and %s of %s"
        + " (pass --force to compare runs of different workloads)", pair.a().appId(), pair.a().workloadId(),
        pair.b().appId(), pair.b().workloadId());
    return pair;
  }

  private static RunPoint latestAttempt(List<RunPoint> runs, String appId, String root) {
    Optional<RunPoint> latest = runs.stream().filter(r -> r.appId().equals(appId)).max(RunPoint.START_ORDER);
    return latest.orElseThrow(() -> new BadInputException(String.format("Cannot compare: no application %s under %s"
        + " (%d applications there, e.g. %s; run perflab features --input %s after ingesting its log)", appId, root,
        runs.size(), examples(runs.stream().map(RunPoint::appId).toList()), root)));
  }

  /** The first few distinct values, sorted, then "..." when there are more; "none" when there are none. */
  private static String examples(List<String> values) {
    TreeSet<String> distinct = new TreeSet<>(values);
    if (distinct.isEmpty()) {
      return "none";
    }
    List<String> first = distinct.stream().limit(EXAMPLES).toList();
    return String.join(", ", first) + (distinct.size() > EXAMPLES ? ", ..." : "");
  }

  // ---- transforms ---------------------------------------------------------------------------------------------------

  /** Per log and stage id (attempts summed): {@code scheduler_delay_s}, Σ of the tasks' scheduler delay, in s. */
  public static Dataset<Row> schedulerDelays(Dataset<Row> tasks) {
    return tasks.groupBy(col(KeyColumns.LOG_ID), col("stage_id"))
        .agg(sum(TaskColumns.schedulerDelayMs()).divide(1000.0).as("scheduler_delay_s"));
  }

  /** Per log: the {@link #DATA} columns of {@code stages} summed over its stage attempts (a missing metric is 0). */
  public static Dataset<Row> dataTotals(Dataset<Row> stages) {
    Column[] sums = DATA.stream().map(c -> sum(coalesce(col(c), lit(0L))).as(c)).toArray(Column[]::new);
    return stages.groupBy(col(KeyColumns.LOG_ID)).agg(sums[0], Arrays.copyOfRange(sums, 1, sums.length));
  }

  /**
   * The two sides of {@code pair}: collects their profiles, scheduler delays and data totals (a few rows per run).
   *
   * @param tasks the ingest {@code tasks} table
   */
  public static List<Side> sides(RunInputs in, Dataset<Row> tasks, ComparedPair pair) {
    Object[] ids = pair.logIds().toArray();
    Map<String, RunProfile> profiles = RunProfiles.of(in, pair.logIds());
    Map<String, Map<Integer, Double>> delays = new HashMap<>();
    schedulerDelays(tasks.where(col(KeyColumns.LOG_ID).isin(ids))).collectAsList().forEach(r -> delays
        .computeIfAbsent(r.getString(0), k -> new HashMap<>()).put(r.getInt(1), r.isNullAt(2) ? 0 : r.getDouble(2)));
    Map<String, Map<String, Long>> data = new HashMap<>();
    dataTotals(in.stages().where(col(KeyColumns.LOG_ID).isin(ids))).collectAsList().forEach(r -> {
      Map<String, Long> totals = new LinkedHashMap<>();
      DATA.forEach(c -> totals.put(c, r.isNullAt(r.fieldIndex(c)) ? 0L : r.getLong(r.fieldIndex(c))));
      data.put(r.getString(0), totals);
    });
    List<Side> out = new ArrayList<>();
    for (String log : pair.logIds()) {
      RunProfile profile = profiles.get(log);
      BadInputException.require(profile != null, "Cannot compare: no app_features row for log %s (run perflab"
          + " features again)", log);
      out.add(new Side(profile, StageTimes.byStage(profile.stages(), delays.getOrDefault(log, Map.of())),
          data.getOrDefault(log, Map.of())));
    }
    return out;
  }

  // ---- rows ---------------------------------------------------------------------------------------------------------

  /**
   * The rows of one compared pair: the runs' totals, the configuration differences (ids, hosts, ports and other
   * values that name one run left out: {@link PropertyChange#between}), the SQL plans when either run has SQL, the
   * data metrics, and every stage of either run in B's run order.
   */
  public static List<ComparisonRow> rows(ComparedPair pair, Side a, Side b, long nowMs) {
    List<ComparisonRow> out = new ArrayList<>(runRows(pair, a.profile(), b.profile(), nowMs));
    List<PropertyChange> changes = PropertyChange.between(a.profile().properties(), b.profile().properties());
    for (int i = 0; i < changes.size(); i++) {
      PropertyChange c = changes.get(i);
      out.add(new ComparisonRow(pair, ComparisonKind.CONFIGURATION, i, c.key(), c.shownBefore(), c.shownAfter(),
          null, null, null, null, null, null, nowMs));
    }
    String planA = RunSettings.of(a.profile()).planShown();
    String planB = RunSettings.of(b.profile()).planShown();
    if (planA != null || planB != null) {
      out.add(new ComparisonRow(pair, ComparisonKind.PLAN, 0, PLAN_ITEM, planA, planB, null, null, null, null, null,
          null, nowMs));
    }
    for (int i = 0; i < DATA.size(); i++) {
      String metric = DATA.get(i);
      out.add(ComparisonRow.amounts(pair, ComparisonKind.DATA, i, metric, a.data().getOrDefault(metric, 0L),
          b.data().getOrDefault(metric, 0L), metric.endsWith("_bytes") ? "bytes" : "records", nowMs));
    }
    out.addAll(stageRows(pair, a, b, nowMs));
    return out;
  }

  /**
   * The runs' totals: wall time, task time, task slots, then the wall time split by the stage spans
   * ({@link WallTimeSplit}: before the first stage, inside stages, between them, after the last; null amounts for a
   * run whose start or end is unknown), so that a wall time that grew outside every stage is seen as such.
   */
  private static List<ComparisonRow> runRows(ComparedPair pair, RunProfile a, RunProfile b, long nowMs) {
    List<ComparisonRow> rows = new ArrayList<>(List.of(
        ComparisonRow.amounts(pair, ComparisonKind.RUN, 0, "wall_time_s", a.wallS(), b.wallS(), "s", nowMs),
        ComparisonRow.amounts(pair, ComparisonKind.RUN, 1, TASK_TIME_ITEM, a.taskTimeS(), b.taskTimeS(), "s", nowMs),
        ComparisonRow.amounts(pair, ComparisonKind.RUN, 2, SLOTS_ITEM, a.cores(), b.cores(), "slots", nowMs)));
    List<ToDoubleFunction<WallTimeSplit>> parts = List.of(WallTimeSplit::beforeS, WallTimeSplit::stagesS,
        WallTimeSplit::betweenS, WallTimeSplit::afterS);
    for (int i = 0; i < parts.size(); i++) {
      rows.add(new ComparisonRow(pair, ComparisonKind.RUN, 3 + i, SPLIT_ITEMS.get(i), null, null,
          known(a.split(), parts.get(i)), known(b.split(), parts.get(i)), "s", null, null, null, nowMs));
    }
    return rows;
  }

  private static Double known(WallTimeSplit split, ToDoubleFunction<WallTimeSplit> part) {
    return split.known() ? part.applyAsDouble(split) : null;
  }

  private static List<ComparisonRow> stageRows(ComparedPair pair, Side a, Side b, long nowMs) {
    StageAlignment alignment = StageMatcher.match(a.profile().stageRefs(), b.profile().stageRefs());
    List<ComparisonRow> out = new ArrayList<>();
    for (StageAlignment.Pair p : alignment.pairs()) {
      StageTimes before = p.before().map(r -> a.stages().get(r.stageId())).orElse(null);
      StageTimes after = p.after().map(r -> b.stages().get(r.stageId())).orElse(null);
      StageMatch match = p.matched() ? StageMatch.MATCHED : after == null ? StageMatch.REMOVED : StageMatch.ADDED;
      StageRef ref = p.after().orElseGet(() -> p.before().orElseThrow());
      out.add(new ComparisonRow(pair, ComparisonKind.STAGE, out.size(), ref.name() == null ? "stage " + ref.stageId()
          : ref.name(), null, null, before == null ? null : before.durationS(),
          after == null ? null : after.durationS(), "s", match, before, after, nowMs));
    }
    return out;
  }
}
