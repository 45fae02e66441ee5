package org.perflab.jobs.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.perflab.spark.nightly.NightlyRuns;
import org.perflab.spark.storage.DeltaSessions;

/**
 * The README's first command, {@code submit/nightly --archive samples/spark-events --output ROOT}, over the bundled
 * samples, twice in the same run: with {@code --separate} (one submission per step, the night before the
 * {@code nightly} job: the baseline) and without (the whole night in one Spark application). The build is done
 * before either is timed. Prints each night's wall seconds and exit code, the seconds of every step read from the
 * night's {@code nightly_runs} table (not from its console), and the ratio of the two nights. Not a test: it prints
 * figures. Run with {@code bench/run nightly}.
 */
public final class NightlyBenchmark {
  private NightlyBenchmark() {}

  /** One night: its wall seconds, exit code and output root. */
  record Night(String mode, double seconds, int exitCode, Path root) {}

  public static void main(String[] args) throws IOException, InterruptedException {
    Path repository = Path.of("").toAbsolutePath();
    Path work = Files.createTempDirectory("perflab-nightly-bench");
    System.out.printf("nightly benchmark: the README's first command over samples/spark-events, --separate and one"
        + " application, in %s; load average %.2f%n", work, load());
    int built = new ProcessBuilder(repository.resolve("submit/perflab").toString(), "--version").inheritIO().start()
        .waitFor();
    if (built != 0) {
      throw new IllegalStateException("Cannot build PerfLab: submit/perflab --version exited " + built);
    }
    Night separate = night(repository, work, "separate", List.of("--separate"));
    Night one = night(repository, work, "one-application", List.of());
    Map<String, Double> separateSteps = steps(separate.root());
    Map<String, Double> oneSteps = steps(one.root());
    System.out.printf("%-12s %12s %16s%n", "step", "separate (s)", "one application (s)");
    for (String step : separateSteps.keySet()) {
      System.out.printf("%-12s %12.1f %16.1f%n", step, separateSteps.get(step), oneSteps.getOrDefault(step, Double.NaN));
    }
    System.out.printf("night wall time: --separate %.1f s (exit %d), one application %.1f s (exit %d); one ÷ separate"
        + " %.3f (goal: one application <= 90 s); load average %.2f%n", separate.seconds(), separate.exitCode(),
        one.seconds(), one.exitCode(), one.seconds() / separate.seconds(), load());
  }

  private static Night night(Path repository, Path work, String mode, List<String> extra)
      throws IOException, InterruptedException {
    Path root = work.resolve(mode);
    List<String> command = new java.util.ArrayList<>(List.of(repository.resolve("submit/nightly").toString(),
        "--archive", repository.resolve("samples/spark-events").toString(), "--output", root.toString()));
    command.addAll(extra);
    ProcessBuilder process = new ProcessBuilder(command).redirectOutput(work.resolve(mode + ".out").toFile())
        .redirectError(work.resolve(mode + ".err").toFile());
    process.environment().remove("SPARK_HOME");
    long start = System.nanoTime();
    int code = process.start().waitFor();
    Night night = new Night(mode, (System.nanoTime() - start) / 1e9, code, root);
    System.out.printf("%s: exit %d after %.1f s (console: %s)%n", mode, code, night.seconds(),
        work.resolve(mode + ".out"));
    return night;
  }

  /** Seconds per step of the latest night under {@code root}, from its nightly_runs table. */
  private static Map<String, Double> steps(Path root) {
    SparkSession spark = DeltaSessions.builder("nightly-benchmark").master("local[1]")
        .config("spark.ui.enabled", "false").getOrCreate();
    Map<String, Double> seconds = new LinkedHashMap<>();
    for (Row row : NightlyRuns.latestNight(spark.read().format("delta")
        .load(root.resolve(NightlyRuns.TABLE).toString())).collectAsList()) {
      seconds.put(row.getAs("step"), row.<Double>getAs("seconds"));
    }
    return seconds;
  }

  private static double load() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }
}
