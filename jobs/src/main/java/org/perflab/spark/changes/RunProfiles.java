package org.perflab.spark.changes;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.collect_list;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.min;
import static org.apache.spark.sql.functions.struct;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.when;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;
import org.perflab.spark.environment.EffectiveProperties;
import org.perflab.changes.RunProfile;
import org.perflab.changes.RunSettings;
import org.perflab.changes.StageRef;
import org.perflab.changes.StageStats;
import org.perflab.changes.WallTimeSplit;
import org.perflab.spark.diagnose.StragglerTable;
import org.perflab.stragglers.Cause;
import org.perflab.table.KeyColumns;

/**
 * Builds the {@link RunProfile}s of a few runs from the tables: application costs and counts
 * ({@code app_features}), executors granted, requested, waited for and lost ({@code applications},
 * {@code executors}), stage attempts ({@code stages}, with skew from {@code stage_features}) and the wall time split by
 * their spans (with the application's start and end from {@code applications}), Spark properties
 * ({@link EffectiveProperties#sparkByLog}) and a fingerprint of the SQL physical plans ({@code sql_operators}). Collects a few rows
 * per run: meant for the judged runs and their baseline runs, not for a whole archive.
 */
public final class RunProfiles {
  /** Executor removals that are the application's own doing, not a loss. */
  private static final Pattern NOT_LOST = Pattern.compile(
      "(?i).*(killed by driver|idle|decommission|application (has )?(ended|finished|completed)|shutdown|stopped).*");
  private static final Pattern NODE_IDS = Pattern.compile("\\s*\\(\\d+\\)|#\\d+");

  private RunProfiles() {}

  /** The profiles of {@code logIds}, by log id; a log without {@code app_features} has none. */
  public static Map<String, RunProfile> of(RunInputs in, Collection<String> logIds) {
    Map<String, RunProfile> out = new HashMap<>();
    if (logIds.isEmpty()) {
      return out;
    }
    Object[] ids = logIds.toArray();
    Map<String, Row> apps = byLog(in.appFeatures().where(col(KeyColumns.LOG_ID).isin(ids)).select(
        col(KeyColumns.LOG_ID), col(KeyColumns.APP_ID), col("wall_time_s"), col("task_time_s"), col("slots"),
        col("input_bytes"), col("shuffle_read_bytes"), col("output_bytes"), col("failed_tasks"),
        col("speculative_tasks"), col("failed_task_time_s").plus(col("killed_task_time_s"))));
    Map<String, Row> applications = byLog(in.applications().where(col(KeyColumns.LOG_ID).isin(ids)).select(
        col(KeyColumns.LOG_ID), col("start_time_ms"), col("executor_instances"),
        col("dynamic_allocation_max_executors"), col("max_concurrent_executors"), col("spark_version"),
        col("end_time_ms")));
    Map<String, Row> executors = byLog(executors(in.executors().where(col(KeyColumns.LOG_ID).isin(ids))));
    Map<String, List<Row>> stages = stages(in, ids);
    Map<String, Row> records = byLog(in.stages().where(col(KeyColumns.LOG_ID).isin(ids)).groupBy(KeyColumns.LOG_ID)
        .agg(sum("input_records")));
    Map<String, Map<String, String>> properties = EffectiveProperties.sparkByLog(in.properties(), logIds);
    Map<String, Row> plans = plans(in, ids);
    for (Map.Entry<String, Row> e : apps.entrySet()) {
      String log = e.getKey();
      Row inputRecords = records.get(log);
      Row app = applications.get(log);
      List<Row> stageRows = stages.getOrDefault(log, List.of());
      out.put(log, profile(e.getValue(), app, executors.get(log), stageStats(stageRows),
          properties.getOrDefault(log, Map.of()), plans.get(log), inputRecords == null ? 0 : longOr(inputRecords, 1),
          split(app, stageRows)));
    }
    return out;
  }

  /**
   * The settings of {@code logIds}, by log id: Spark properties with the Spark version, and the SQL plans' fingerprint
   * (a few rows per run, like {@link #of}); a log without {@code applications} has none.
   */
  public static Map<String, RunSettings> settings(RunInputs in, Collection<String> logIds) {
    Map<String, RunSettings> out = new HashMap<>();
    if (logIds.isEmpty()) {
      return out;
    }
    Object[] ids = logIds.toArray();
    Map<String, Row> versions = byLog(in.applications().where(col(KeyColumns.LOG_ID).isin(ids))
        .select(col(KeyColumns.LOG_ID), col("spark_version")));
    Map<String, Map<String, String>> properties = EffectiveProperties.sparkByLog(in.properties(), logIds);
    Map<String, Row> plans = plans(in, ids);
    for (Map.Entry<String, Row> e : versions.entrySet()) {
      Map<String, String> props = withVersion(properties.getOrDefault(e.getKey(), Map.of()), e.getValue(), 1);
      Plan plan = Plan.of(plans.get(e.getKey()));
      out.put(e.getKey(), new RunSettings(props, plan.fingerprint(), plan.joins()));
    }
    return out;
  }

  /** Per log: its SQL operators as (execution_id, node_id, node_name) structs; empty without the table. */
  private static Map<String, Row> plans(RunInputs in, Object[] ids) {
    return in.sqlOperators().map(ops -> byLog(ops.where(col(KeyColumns.LOG_ID).isin(ids))
        .groupBy(KeyColumns.LOG_ID).agg(collect_list(struct(col("execution_id"), col("node_id"),
            col("node_name"))).as("nodes")))).orElse(Map.of());
  }

  /** {@code props} with the Spark version of {@code app}'s column {@code column} when known. */
  private static Map<String, String> withVersion(Map<String, String> props, Row app, int column) {
    Map<String, String> properties = new HashMap<>(props);
    if (app != null && !app.isNullAt(column)) {
      properties.put(RunProfile.SPARK_VERSION, app.getString(column));
    }
    return properties;
  }

  /** A fingerprint of the normalised SQL physical plans (empty without SQL) and their join operators by name. */
  private record Plan(String fingerprint, Map<String, Long> joins) {
    static Plan of(Row plan) {
      Map<String, Long> joins = new TreeMap<>();
      if (plan == null) {
        return new Plan("", joins);
      }
      List<Row> nodes = new ArrayList<>(plan.getList(1));
      nodes.sort(java.util.Comparator.comparingLong((Row n) -> n.getLong(0)).thenComparingLong(n -> n.getLong(1)));
      StringBuilder text = new StringBuilder();
      for (Row n : nodes) {
        String name = n.isNullAt(2) ? "" : NODE_IDS.matcher(n.getString(2)).replaceAll("");
        text.append(name).append('\n');
        if (name.endsWith("Join")) {
          joins.merge(name, 1L, Long::sum);
        }
      }
      return new Plan(sha(text.toString()), joins);
    }
  }

  private static RunProfile profile(Row f, Row app, Row ex, List<StageStats> stages, Map<String, String> props,
      Row planRow, long inputRecords, WallTimeSplit split) {
    Map<String, String> properties = withVersion(props, app, 5);
    int requested = app == null ? 0 : intOr(app, 2, intOr(app, 3, 0));
    int granted = app == null ? 0 : intOr(app, 4, 0);
    double waitS = 0;
    int lost = 0;
    if (ex != null && app != null && !app.isNullAt(1) && !ex.getBoolean(1) && !ex.isNullAt(2)) {
      waitS = Math.max(0, (ex.getLong(2) - app.getLong(1)) / 1000.0);
    }
    if (ex != null) {
      lost = (int) ex.getLong(3);
    }
    Plan plan = Plan.of(planRow);
    return new RunProfile(f.getString(1), dbl(f, 2), dbl(f, 3), intOr(f, 4, 0), requested, granted, waitS, lost,
        f.getLong(5), inputRecords, f.getLong(6), f.getLong(7), f.getLong(8), f.getLong(9), dbl(f, 10),
        plan.fingerprint(), plan.joins(), properties, stages, split);
  }

  /** The application's wall time split by its stage attempts' spans; unknown without its start and end. */
  private static WallTimeSplit split(Row app, List<Row> stages) {
    if (app == null || app.isNullAt(1) || app.isNullAt(6)) {
      return WallTimeSplit.UNKNOWN;
    }
    List<long[]> spans = stages.stream().filter(r -> !r.isNullAt(18))
        .map(r -> new long[] {r.getLong(18), r.isNullAt(19) ? -1 : r.getLong(19)}).toList();
    return WallTimeSplit.of(app.getLong(1), app.getLong(6), spans);
  }

  /** Per log: whether it ran in local mode, the first executor's add time, and the executors lost. */
  private static Dataset<Row> executors(Dataset<Row> executors) {
    Column worker = col("is_driver").equalTo(false);
    Column lost = worker.and(col("remove_reason").isNotNull())
        .and(col("remove_reason").rlike(NOT_LOST.pattern()).equalTo(false));
    return executors.groupBy(KeyColumns.LOG_ID).agg(
        max(when(col("is_driver"), col("total_cores").isNotNull())).as("local"),
        min(when(worker, col("add_time_ms"))).as("first_add_ms"),
        count(when(lost, lit(1))).as("lost"))
        .select(col(KeyColumns.LOG_ID), org.apache.spark.sql.functions.coalesce(col("local"), lit(false)),
            col("first_add_ms"), col("lost"));
  }

  /** The stage attempts that ran (not skipped or pending) of each log, as rows. */
  private static Map<String, List<Row>> stages(RunInputs in, Object[] ids) {
    Dataset<Row> skew = in.stageFeatures().where(col(KeyColumns.LOG_ID).isin(ids))
        .select(col(KeyColumns.LOG_ID).as("k_log"), col("stage_id").as("k_stage"),
            col("stage_attempt_id").as("k_attempt"), col("duration_max_over_median"));
    Dataset<Row> stages = in.stages().where(col(KeyColumns.LOG_ID).isin(ids)
            .and(col("status").isin("SKIPPED", "PENDING").equalTo(false)))
        .join(skew, col(KeyColumns.LOG_ID).equalTo(col("k_log")).and(col("stage_id").equalTo(col("k_stage")))
            .and(col("stage_attempt_id").equalTo(col("k_attempt"))), "left")
        .join(stragglerSigns(in, ids), col(KeyColumns.LOG_ID).equalTo(col("h_log"))
            .and(col("stage_id").equalTo(col("h_stage"))).and(col("stage_attempt_id").equalTo(col("h_attempt"))),
            "left")
        .select(col(KeyColumns.LOG_ID), col("stage_id"), col("stage_attempt_id"), col("job_id"), col("name"),
            col("num_complete_tasks").plus(col("num_failed_tasks")).plus(col("num_killed_tasks")),
            col("num_failed_tasks"), col("duration_ms"), col("executor_run_time_ms"), col("executor_cpu_time_ns"),
            col("jvm_gc_time_ms"), col("shuffle_fetch_wait_time_ms"), col("shuffle_write_time_ns"),
            col("input_bytes"), col("shuffle_read_bytes"), col("shuffle_write_bytes"), col("disk_spilled_bytes"),
            col("duration_max_over_median"), col("submission_time_ms"), col("completion_time_ms"),
            col("slowest.lost_s"), col("slowest.host"), col("cold_lost_s"));
    Map<String, List<Row>> rows = new HashMap<>();
    stages.collectAsList().forEach(r -> rows.computeIfAbsent(r.getString(0), k -> new ArrayList<>()).add(r));
    return rows;
  }

  /**
   * Per stage attempt of {@code ids} with a straggler on a slow host or a cold executor ({@code SLOW_HOST},
   * {@code COLD_EXECUTOR} in the {@code stragglers} table): {@code slowest}, the longest on a slow host (struct of
   * {@code lost_s}, its excess over the stage's median in s, and {@code host}; null when none), and {@code
   * cold_lost_s}, the longest excess of a cold one not on a slow host, s (null when none); no rows when the root was
   * not diagnosed.
   */
  private static Dataset<Row> stragglerSigns(RunInputs in, Object[] ids) {
    Dataset<Row> stragglers = in.stragglers().orElseGet(() -> in.stages().sparkSession()
        .createDataFrame(List.<Row>of(), StragglerTable.SCHEMA));
    Column slow = StragglerTable.hasCause(Cause.SLOW_HOST);
    Column cold = StragglerTable.coldNotSlowHost();
    return stragglers.where(col(KeyColumns.LOG_ID).isin(ids).and(slow.or(cold)))
        .groupBy(col(KeyColumns.LOG_ID).as("h_log"), col("stage_id").as("h_stage"),
            col("stage_attempt_id").as("h_attempt"))
        .agg(max(when(slow, struct(StragglerTable.lostSeconds().as("lost_s"), col("host")))).as("slowest"),
            max(when(cold, StragglerTable.lostSeconds())).as("cold_lost_s"));
  }

  private static List<StageStats> stageStats(List<Row> rows) {
    Map<Integer, Integer> ordinals = StageRef.jobOrdinals(rows.stream()
        .map(r -> r.isNullAt(3) ? null : r.getInt(3)).toList());
    List<StageStats> out = new ArrayList<>();
    for (Row r : rows) {
      int job = r.isNullAt(3) ? -1 : ordinals.get(r.getInt(3));
      StageRef ref = new StageRef(r.getInt(1), job, r.isNullAt(4) ? null : r.getString(4));
      out.add(new StageStats(ref, r.getInt(2), longOr(r, 5), longOr(r, 6), longOr(r, 7) / 1000.0,
          longOr(r, 8) / 1000.0, longOr(r, 9) / 1e9, longOr(r, 10) / 1000.0, longOr(r, 11) / 1000.0,
          longOr(r, 12) / 1e9, longOr(r, 13), longOr(r, 14), longOr(r, 15), longOr(r, 16),
          r.isNullAt(17) ? Double.NaN : r.getDouble(17), dbl(r, 20), r.isNullAt(21) ? null : r.getString(21),
          dbl(r, 22)));
    }
    return out;
  }

  private static Map<String, Row> byLog(Dataset<Row> rows) {
    Map<String, Row> out = new HashMap<>();
    rows.collectAsList().forEach(r -> out.put(r.getString(0), r));
    return out;
  }

  private static String sha(String text) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static int intOr(Row r, int i, int otherwise) {
    return r.isNullAt(i) ? otherwise : ((Number) r.get(i)).intValue();
  }

  private static long longOr(Row r, int i) {
    return r.isNullAt(i) ? 0 : ((Number) r.get(i)).longValue();
  }

  private static double dbl(Row r, int i) {
    return r.isNullAt(i) ? 0 : ((Number) r.get(i)).doubleValue();
  }
}
