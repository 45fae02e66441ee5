package org.perflab.spark.changes;

import static org.apache.spark.sql.functions.col;

import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.perflab.jobs.PerfLab;
import org.perflab.jobs.RegressionsJob;
import org.perflab.spark.features.FeatureTables;

/**
 * The {@code regressions} job on real runs without injected changes (the cems event logs of
 * {@code $PERFLAB_SHARED/data/scaling/cems}, judged in start order): their repeats give the false-alarm rate on real
 * noise. A judged run is a <em>repeat</em> when more than half of its baseline runs have its configuration
 * (executors, cores per executor, executor memory) and size class; a repeat within {@value #WITHIN} of its
 * configuration's median wall time (the median over every run of its workload, configuration and size class) that
 * is flagged {@code REGRESSION} is a false alarm. Repeats beyond {@value #WITHIN} are the data's known outliers:
 * listed, not counted.
 */
final class RealNoise {
  /** A repeat within this share of its configuration's median is steady; beyond, an outlier. */
  static final double WITHIN = 0.2;

  private RealNoise() {}

  /**
   * One judged run.
   *
   * @param appId the application id
   * @param workload its workload id
   * @param config its configuration and size class, {@code executors x cores, memory bytes, size class}
   * @param verdict the job's verdict
   * @param firstCause the first cause, or null
   * @param repeat more than half of its baseline runs share {@code config}
   * @param ratio wall time ÷ its configuration's median wall time
   * @param changeKind the row's {@code change_kind} ({@code STEP}, {@code TREND}), or null
   */
  record Run(String appId, String workload, String config, String verdict, String firstCause, boolean repeat,
      double ratio, String changeKind) {
    boolean flagged() {
      return "REGRESSION".equals(verdict);
    }

    boolean hasVerdict() {
      return !"INSUFFICIENT_HISTORY".equals(verdict) && !"NOT_MEASURED".equals(verdict);
    }

    boolean outlier() {
      return Math.abs(ratio - 1) > WITHIN;
    }
  }

  /**
   * Ingests {@code logs} into {@code root}, computes features, diagnoses stragglers (the nightly's order), judges every
   * run and classifies it.
   */
  static List<Run> judge(SparkSession spark, Path logs, Path root, Clock clock) {
    run("ingest", "--input", logs.toString(), "--output", root.toString());
    run("features", "--input", root.toString());
    run("diagnose", "--input", root.toString());
    RegressionsJob.run(spark, clock, new RegressionsJob.Options(root.toString(), null,
        RegressionCorpus.MIN_HISTORY, true));
    Map<String, String> configs = new HashMap<>();
    Map<String, String> workloads = new HashMap<>();
    Map<String, List<Double>> times = new HashMap<>();
    Map<String, Double> wall = new HashMap<>();
    for (Row w : spark.read().format("delta").load(root.resolve(FeatureTables.APP_FEATURES_TABLE).toString())
        .select("log_id", "app_id", "workload_id", "size_class", "wall_time_s").join(spark.read().format("delta").load(root.resolve(FeatureTables.WORKLOADS_TABLE).toString())
            .select("log_id", "executors", "cores_per_executor", "executor_memory_bytes"), "log_id")
        .select(col("app_id"), col("workload_id"), col("size_class"), col("executors"), col("cores_per_executor"),
            col("executor_memory_bytes"), col("wall_time_s")).collectAsList()) {
      String app = w.getString(0);
      String config = w.get(3) + " x " + w.get(4) + ", " + w.get(5) + " B, size class " + w.get(2);
      configs.put(app, config);
      workloads.put(app, w.getString(1));
      if (!w.isNullAt(6)) {
        wall.put(app, w.getDouble(6));
        times.computeIfAbsent(w.getString(1) + "|" + config, k -> new ArrayList<>()).add(w.getDouble(6));
      }
    }
    List<Run> out = new ArrayList<>();
    for (Row r : spark.read().format("delta").load(root.resolve(ChangeTables.REGRESSIONS_TABLE).toString())
        .orderBy("start_time_ms").collectAsList()) {
      String app = r.getAs("app_id");
      String config = configs.get(app);
      List<String> baseline = r.getList(r.fieldIndex("baseline_app_ids"));
      long same = baseline.stream().filter(b -> Objects.equals(configs.get(b), config)).count();
      Double seconds = wall.get(app);
      List<Double> peers = times.get(workloads.get(app) + "|" + config);
      double ratio = seconds == null || peers == null ? Double.NaN : seconds / RegressionCorpus.median(peers);
      out.add(new Run(app, workloads.get(app), config, r.getAs("verdict"), r.getAs("first_cause"),
          !baseline.isEmpty() && 2 * same > baseline.size(), ratio, r.getAs("change_kind")));
    }
    return out;
  }

  /** The first cause's kind of each flagged run that is not a repeat (a configuration or size change), with counts. */
  static Map<String, Long> changedCauses(List<Run> runs) {
    Map<String, Long> kinds = new TreeMap<>();
    runs.stream().filter(r -> r.hasVerdict() && !r.repeat() && r.flagged()).forEach(r -> kinds.merge(
        r.firstCause() == null ? "none" : r.firstCause().split(":", 2)[0], 1L, Long::sum));
    return kinds;
  }

  private static void run(String... args) {
    int code = PerfLab.run(args);
    if (code != 0) {
      throw new IllegalStateException("Cannot judge the real runs: " + args[0] + " exited " + code);
    }
  }
}
