package org.perflab.spark.changes;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.SparkSession;
import org.perflab.spark.ingest.SparkTestSession;

/**
 * {@code bench/run regressions [CORPUS_DIR]}: the {@code regressions} job on the regressions corpus against its ground
 * truth: detection rate (changed runs at least 20 % slower than their workload's steady median that are flagged;
 * goal ≥ 95 %), false-alarm rate (steady repeats flagged; goal ≤ 2 %) and first-cause accuracy (detected regressions
 * whose first cause has the injected change's kind; goal ≥ 90 %), with every miss listed and the load average.
 */
public final class RegressionsBenchmark {
  private RegressionsBenchmark() {}

  /** Runs the benchmark; {@code args[0]} the corpus directory (default samples/regressions). */
  public static void main(String[] args) throws IOException {
    Path corpus = args.length > 0 ? Path.of(args[0]) : Path.of("samples/regressions");
    Path root = Files.createTempDirectory("perflab-regressions-bench");
    SparkSession spark = SparkTestSession.get();
    long start = System.nanoTime();
    List<RegressionCorpus.Judged> judged = RegressionCorpus.judge(spark, corpus, root, Clock.systemUTC());
    double seconds = (System.nanoTime() - start) / 1e9;
    List<RegressionCorpus.Judged> must = judged.stream().filter(RegressionCorpus.Judged::mustRegress).toList();
    List<RegressionCorpus.Judged> steady = judged.stream().filter(RegressionCorpus.Judged::steady).toList();
    List<RegressionCorpus.Judged> detected = must.stream().filter(RegressionCorpus.Judged::flagged).toList();
    long falseAlarms = steady.stream().filter(RegressionCorpus.Judged::flagged).count();
    long rightCause = detected.stream().filter(RegressionCorpus.Judged::rightCause).count();
    System.out.printf(Locale.ROOT, "corpus %s: %d runs (%d steady, %d changed, %d of them >= 20%% slower), judged in"
        + " %.1f s%n", corpus, judged.size(), steady.size(), judged.size() - steady.size(), must.size(), seconds);
    System.out.printf(Locale.ROOT, "detection %d/%d = %.1f %% (goal >= 95 %%)%n", detected.size(), must.size(),
        percent(detected.size(), must.size()));
    System.out.printf(Locale.ROOT, "false alarms %d/%d = %.1f %% (goal <= 2 %%)%n", falseAlarms, steady.size(),
        percent(falseAlarms, steady.size()));
    System.out.printf(Locale.ROOT, "first cause right %d/%d = %.1f %% (goal >= 90 %%)%n", rightCause,
        detected.size(), percent(rightCause, detected.size()));
    judged.stream().filter(j -> j.mustRegress() ? !j.flagged() || !j.rightCause() : j.steady() && j.flagged())
        .forEach(j -> System.out.println("  miss: " + RegressionCorpus.describe(j) + " expected "
            + (j.steady() ? "no regression" : j.expectedCause())));
    System.out.printf(Locale.ROOT, "load average %.1f%n",
        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    spark.stop();
  }

  private static double percent(long part, long whole) {
    return whole == 0 ? Double.NaN : 100.0 * part / whole;
  }
}
