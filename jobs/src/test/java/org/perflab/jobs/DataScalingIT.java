package org.perflab.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perflab.dagmodel.DataScaling;
import org.perflab.dagmodel.ScaledPrediction;
import org.perflab.sim.Model;
import org.perflab.sim.ModelReader;
import picocli.CommandLine;

/**
 * The data-scaling rule on the corpus: PerfLab's map-only {@code grep} workload runs on {@code local[2]} at scale
 * {@code large} on 4 input files of 8 MB (S: two waves of tasks of about a second) and on 8 (2S: four waves), with
 * event logging, in five pairs of back-to-back runs, S then 2S and 2S then S in turn (so that a load rising or
 * falling during a pair does not bias every pair the same way). The logs are ingested and modelled, and in each pair
 * the model of the run at S, scaled by {@link DataScaling} to the input of the run at 2S, predicts its duration. On a
 * shared machine the load changes between pairs (the same pair took 1.4 and 2.6 s, or 3.5 and 6.8 s), so the test
 * asserts the median of the five errors. Both data sets are prepared first and grep runs once unmeasured, so that the
 * measured runs find a JVM whose JIT has compiled the grep (local mode runs the tasks in this JVM).
 */
@org.junit.jupiter.api.Tag("long")
class DataScalingIT {
  /** spark.* settings of the workload applications. */
  private static final Map<String, String> SPARK = Map.of(
      "spark.master", "local[2]",
      "spark.ui.enabled", "false",
      "spark.driver.host", "127.0.0.1",
      "spark.eventLog.enabled", "true",
      "spark.eventLog.rolling.enabled", "false");
  /** Input files at S and at 2S. */
  private static final int[] FILES = {4, 8};
  /** Measured pairs of runs, one at S and one at 2S. */
  private static final int PAIRS = 5;

  @TempDir
  static Path dir;

  private static SparkSession spark;
  /** The OK rows of {@code dag_models} in the order the runs started: S, 2S, 2S, S, S, 2S, ... */
  private static List<Row> runs;

  @BeforeAll
  static void generateIngestAndModel() throws Exception {
    Path logs = Files.createDirectories(dir.resolve("logs"));
    Path unmeasured = Files.createDirectories(dir.resolve("unmeasured-logs"));
    for (int files : FILES) {
      runGrep(files, "prepare", unmeasured);
    }
    runGrep(FILES[0], "run", unmeasured);
    for (int pair = 0; pair < PAIRS; pair++) {
      runGrep(FILES[pair % 2], "run", logs);
      runGrep(FILES[1 - pair % 2], "run", logs);
    }
    long started = System.nanoTime();
    spark = ModelledLogs.session("DataScalingIT");
    // Local application ids are local-<start time in ms>: their order is the order the runs started.
    runs = ModelledLogs.ingestAndModel(spark, logs, dir);
    System.out.printf(Locale.ROOT, "data-scaling: ingested and modelled in %.1f s%n",
        (System.nanoTime() - started) / 1e9);
  }

  @AfterAll
  static void stopSpark() {
    if (spark != null) {
      spark.stop();
    }
  }

  /** One phase of grep on {@code files} input files, logging to {@code logs}. */
  private static void runGrep(int files, String phase, Path logs) {
    Map<String, String> previous = new LinkedHashMap<>();
    SPARK.forEach((k, v) -> previous.put(k, System.setProperty(k, v)));
    previous.put("spark.eventLog.dir", System.setProperty("spark.eventLog.dir", logs.toUri().toString()));
    try {
      WorkloadJob job = new WorkloadJob();
      new CommandLine(job).parseArgs("--workload", "grep", "--scale", "large", "--partitions",
          Integer.toString(files), "--phase", phase, "--data-dir", dir.resolve("data-" + files).toString());
      long started = System.nanoTime();
      WorkloadJob.run(job.resolve(new SparkConf()));
      System.out.printf(Locale.ROOT, "data-scaling: grep on %d files, %s in %.1f s%n", files, phase,
          (System.nanoTime() - started) / 1e9);
    } finally {
      previous.forEach((k, v) -> {
        if (v == null) {
          System.clearProperty(k);
        } else {
          System.setProperty(k, v);
        }
      });
    }
  }

  @Test
  void aRunAtInputSPredictsTheRunAtTwiceSWithinTenPercent() {
    assertThat(runs).hasSize(2 * PAIRS);
    List<Double> errors = new ArrayList<>();
    for (int pair = 0; pair < PAIRS; pair++) {
      Row source = runs.get(2 * pair + pair % 2);
      Row target = runs.get(2 * pair + 1 - pair % 2);
      long sourceBytes = source.getAs("input_bytes");
      long targetBytes = target.getAs("input_bytes");
      assertThat((double) targetBytes / sourceBytes).as("twice the input").isBetween(1.9, 2.1);
      Model model = ModelReader.parse(source.getAs("model_json"), source.getAs("app_id"));
      assertThat(DataScaling.roles(model)).containsEntry("S0", DataScaling.Role.INPUT);
      ScaledPrediction p = ScaledPrediction.predict(model, sourceBytes, target.getAs("slots"), targetBytes, 1, 1L);
      double actual = target.getAs("duration_s");
      double error = 100.0 * (actual - p.simulatedS()) / actual;
      errors.add(error);
      System.out.printf(Locale.ROOT, "data-scaling: grep S=%d B (%.2f s) -> 2S=%d B: actual %.2f s, simulated %.2f s "
          + "(error %.1f %%), fork-join %.2f s (%.1f %%), task precedence %.2f s (%.1f %%)%n", sourceBytes,
          source.<Double>getAs("duration_s"), targetBytes, actual, p.simulatedS(), error, p.forkJoinS(),
          100.0 * (actual - p.forkJoinS()) / actual, p.taskPrecedenceS(),
          100.0 * (actual - p.taskPrecedenceS()) / actual);
      System.out.println("data-scaling: S model " + source.<String>getAs("model_json"));
      System.out.println("data-scaling: 2S model " + target.<String>getAs("model_json"));
    }
    double median = errors.stream().mapToDouble(Math::abs).sorted().toArray()[PAIRS / 2];
    System.out.printf(Locale.ROOT, "data-scaling: grep median absolute error %.1f %%%n", median);
    assertThat(median).isLessThanOrEqualTo(10.0);
  }
}
