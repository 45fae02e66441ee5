package org.perflab.spark.changes;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.perflab.changes.ChangeDetector;
import org.perflab.eventlog.fixture.LogFixtures;
import org.perflab.spark.ingest.SparkTestSession;

/**
 * {@code bench/run regressions [CORPUS_DIR]}: the {@code regressions} job on the regressions corpus against its ground
 * truth: detection rate (changed runs at least 20 % slower than their workload's steady median that are flagged;
 * goal ≥ 95 %), false-alarm rate (steady repeats flagged; goal ≤ 2 %) and first-cause accuracy (detected regressions
 * whose first cause has the injected change's kind; goal ≥ 90 %), with every miss listed, the {@link ThresholdCeiling}
 * of any one threshold on the wall time, and the load average; then
 * the false-alarm rate on the real noise of the cems runs ({@link RealNoise}), their outliers listed.
 */
public final class RegressionsBenchmark {
  private RegressionsBenchmark() {}

  /**
   * Runs the benchmark; {@code args[0]} the corpus directory (default samples/regressions), {@code args[1]} the real
   * runs (default {@code $PERFLAB_SHARED/data/scaling/cems}).
   */
  public static void main(String[] args) throws IOException {
    Path corpus = args.length > 0 ? Path.of(args[0]) : Path.of("samples/regressions");
    Path root = Files.createTempDirectory("perflab-regressions-bench");
    SparkSession spark = SparkTestSession.get();
    long start = System.nanoTime();
    List<RegressionCorpus.Judged> judged = RegressionCorpus.judge(spark, corpus, root, Clock.systemUTC(), true);
    double seconds = (System.nanoTime() - start) / 1e9;
    List<RegressionCorpus.Judged> must = judged.stream().filter(RegressionCorpus.Judged::mustRegress).toList();
    List<RegressionCorpus.Judged> steady = judged.stream().filter(RegressionCorpus.Judged::steady)
        .filter(RegressionCorpus.Judged::hasVerdict).toList();
    List<RegressionCorpus.Judged> detected = must.stream().filter(RegressionCorpus.Judged::flagged).toList();
    long falseAlarms = steady.stream().filter(RegressionCorpus.Judged::flagged).count();
    long rightCause = detected.stream().filter(RegressionCorpus.Judged::rightCause).count();
    long changed = judged.stream().filter(j -> !j.steady()).count();
    System.out.printf(Locale.ROOT, "corpus %s: %d runs (%d steady, %d of them with a verdict; %d changed, %d of them"
        + " >= 20%% slower than the steady median), judged in %.1f s%n", corpus, judged.size(),
        judged.size() - changed, steady.size(), changed, must.size(), seconds);
    printSteadySpread(judged);
    System.out.printf(Locale.ROOT, "detection %d/%d = %.1f %% (goal >= 95 %%)%n", detected.size(), must.size(),
        percent(detected.size(), must.size()));
    System.out.printf(Locale.ROOT, "false alarms %d/%d = %.1f %% (goal <= 2 %%)%n", falseAlarms, steady.size(),
        percent(falseAlarms, steady.size()));
    List<RegressionCorpus.Judged> within = steady.stream()
        .filter(j -> Math.abs(j.ratio() - 1) <= RealNoise.WITHIN).toList();
    long withinFlagged = within.stream().filter(RegressionCorpus.Judged::flagged).count();
    System.out.printf(Locale.ROOT, "  by the cems runs' rule, steady runs within %.0f %% of their workload's steady"
        + " median flagged: %d/%d = %.1f %%; beyond it, flagged and listed below: %d%n", 100 * RealNoise.WITHIN,
        withinFlagged, within.size(), percent(withinFlagged, within.size()),
        falseAlarms - withinFlagged);
    System.out.printf(Locale.ROOT, "first cause right %d/%d = %.1f %% (goal >= 90 %%)%n", rightCause,
        detected.size(), percent(rightCause, detected.size()));
    Map<String, Double> spread = steadySpread(judged);
    judged.stream().filter(j -> j.mustRegress() ? !j.flagged() || !j.rightCause() : j.steady() && j.flagged())
        .forEach(j -> System.out.println("  miss: " + RegressionCorpus.describe(j) + " expected "
            + (j.steady() ? "no regression" : j.expectedCause()) + "; " + judgedAgainst(j.row(),
            spread.get(j.workload()))));
    detected.stream().filter(RegressionCorpus.Judged::rightCause).forEach(j -> System.out.println("  found: "
        + RegressionCorpus.describe(j) + "; " + judgedAgainst(j.row(), spread.get(j.workload()))));
    printCeiling(judged, must, steady, spread);
    printLoad();
    Path cems = args.length > 1 ? Path.of(args[1]) : LogFixtures.sharedDir().resolve("data/scaling/cems");
    if (Files.isDirectory(cems)) {
      realNoise(spark, cems);
    } else {
      System.out.println("Skipping the real runs: no directory " + cems + " (set PERFLAB_SHARED)");
    }
    spark.stop();
  }

  /** The cems half: the false-alarm rate on the real runs' repeats, the outliers listed, the other flags counted. */
  private static void realNoise(SparkSession spark, Path cems) throws IOException {
    long start = System.nanoTime();
    List<RealNoise.Run> runs = RealNoise.judge(spark, cems, Files.createTempDirectory("perflab-regressions-cems"),
        Clock.systemUTC());
    double seconds = (System.nanoTime() - start) / 1e9;
    List<RealNoise.Run> judged = runs.stream().filter(RealNoise.Run::hasVerdict).toList();
    List<RealNoise.Run> repeats = judged.stream().filter(RealNoise.Run::repeat).toList();
    List<RealNoise.Run> steady = repeats.stream().filter(r -> !r.outlier()).toList();
    long falseAlarms = steady.stream().filter(RealNoise.Run::flagged).count();
    System.out.printf(Locale.ROOT, "real runs %s: %d runs, %d with a verdict (%d with fewer than %d earlier runs),"
        + " %d repeats of their baseline's configuration and size class, judged in %.1f s%n", cems, runs.size(),
        judged.size(), runs.size() - judged.size(), RegressionCorpus.MIN_HISTORY, repeats.size(), seconds);
    System.out.printf(Locale.ROOT, "real-noise false alarms %d/%d = %.1f %% (goal <= 2 %%): repeats within %.0f %%"
        + " of their configuration's median flagged%n", falseAlarms, steady.size(),
        percent(falseAlarms, steady.size()), 100 * RealNoise.WITHIN);
    steady.stream().filter(RealNoise.Run::flagged).forEach(r -> System.out.println("  false alarm: " + describe(r)));
    repeats.stream().filter(RealNoise.Run::outlier).forEach(r -> System.out.println("  outlier (not counted): "
        + describe(r)));
    System.out.printf(Locale.ROOT, "runs whose configuration or size class differs from their baseline's: %d, %d"
        + " flagged, first causes %s%n", judged.size() - repeats.size(),
        judged.stream().filter(r -> !r.repeat() && r.flagged()).count(), RealNoise.changedCauses(runs));
    judged.stream().filter(r -> !r.repeat() && r.flagged()).forEach(r -> System.out.println("  changed, flagged: "
        + describe(r)));
    printLoad();
  }

  /** The steady repeats' wall times relative to their median: the corpus's own run-to-run noise. */
  private static void printSteadySpread(List<RegressionCorpus.Judged> judged) {
    for (String workload : RegressionCorpus.workloads(judged)) {
      double[] ratios = judged.stream().filter(j -> j.steady() && j.workload().equals(workload))
          .mapToDouble(RegressionCorpus.Judged::ratio).sorted().toArray();
      System.out.printf(Locale.ROOT, "  %s: steady repeats %.2fx to %.2fx their median wall time%n", workload,
          ratios[0], ratios[ratios.length - 1]);
    }
  }

  /**
   * The best any threshold could do on the wall time alone, with each workload's steady median (and spread) known in
   * hindsight: on the ratio to that median, and on its log in units of the workload's robust spread (1.4826 × the
   * MAD of its steady repeats' log wall times). A goal this misses is out of reach of every rule on the wall time.
   */
  private static void printCeiling(List<RegressionCorpus.Judged> judged, List<RegressionCorpus.Judged> must,
      List<RegressionCorpus.Judged> steady, Map<String, Double> spread) {
    ToDoubleFunction<RegressionCorpus.Judged> ratio = RegressionCorpus.Judged::ratio;
    ToDoubleFunction<RegressionCorpus.Judged> z = j -> Math.log(j.ratio()) / spread.get(j.workload());
    System.out.println("ceiling of any one threshold on the wall time (each workload's steady median known in"
        + " hindsight):");
    System.out.println("  on the ratio to the steady median: " + ceiling(must, steady, ratio).describe("x"));
    System.out.println("  in units of the workload's steady spread: " + ceiling(must, steady, z).describe(" sigma"));
  }

  /** Each workload's robust spread in hindsight: 1.4826 × the MAD of its steady repeats' log wall times. */
  private static Map<String, Double> steadySpread(List<RegressionCorpus.Judged> judged) {
    Map<String, Double> spread = new HashMap<>();
    for (String workload : RegressionCorpus.workloads(judged)) {
      spread.put(workload, ChangeDetector.robustSigma(judged.stream()
          .filter(j -> j.steady() && j.workload().equals(workload)).mapToDouble(j -> Math.log(j.ratio())).toArray()));
    }
    return spread;
  }

  /**
   * What the run was judged against, beside what hindsight knows: its wall-time baseline's runs, its ratio to their
   * median, its z and the noise that z implies (ln ratio ÷ z), against the workload's steady spread; then core-hours
   * and GB-hours, each with its own ratio, z and verdict (any of the three makes a regression).
   */
  private static String judgedAgainst(Row r, double steadySpread) {
    Double ratio = r.getAs("wall_time_ratio");
    Double z = r.getAs("wall_time_z");
    String wall = ratio == null || z == null || z == 0 ? "no wall-time z" : String.format(Locale.ROOT,
        "judged against %d runs: %.2fx their median, z %.1f, noise %.1f %% (the workload's steady spread %.1f %%)",
        r.<Integer>getAs("baseline_runs"), ratio, z, 100 * Math.log(ratio) / z, 100 * steadySpread);
    return wall + metric(r, "core_hours", "core-hours") + metric(r, "gb_hours", "GB-hours");
  }

  private static String metric(Row r, String column, String name) {
    Double ratio = r.getAs(column + "_ratio");
    Double z = r.getAs(column + "_z");
    return ratio == null || z == null ? "; " + name + " not judged" : String.format(Locale.ROOT,
        "; %s %.2fx, z %.1f, %s", name, ratio, z, r.<String>getAs(column + "_verdict"));
  }

  private static ThresholdCeiling ceiling(List<RegressionCorpus.Judged> must, List<RegressionCorpus.Judged> steady,
      ToDoubleFunction<RegressionCorpus.Judged> score) {
    return ThresholdCeiling.of(must.stream().mapToDouble(score).toArray(),
        steady.stream().mapToDouble(score).toArray(), 0.02, 0.95);
  }

  private static String describe(RealNoise.Run r) {
    return String.format(Locale.ROOT, "%s %s [%s] %s%s %.2fx its configuration's median, first cause %s", r.appId(),
        r.workload(), r.config(), r.verdict(), r.changeKind() == null ? "" : " (" + r.changeKind() + ")", r.ratio(),
        r.firstCause());
  }

  private static void printLoad() {
    System.out.printf(Locale.ROOT, "load average %.1f%n",
        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
  }

  private static double percent(long part, long whole) {
    return whole == 0 ? Double.NaN : 100.0 * part / whole;
  }
}
