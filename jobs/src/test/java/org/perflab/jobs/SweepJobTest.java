package org.perflab.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perflab.spark.ingest.SparkTestSession;
import org.perflab.spark.sweep.SweepOptions;
import org.perflab.spark.sweep.SweepRun;
import org.perflab.sweep.PointResult;
import org.perflab.sweep.Statistic;
import org.perflab.sweep.Sweep;

class SweepJobTest {
  private static final String MODEL = """
      {"Stages": [
         {"name": "scan", "tasks": 40, "pre": [], "post": ["agg"], "distr": {"type": "exp", "params": {"rate": 0.1}}},
         {"name": "agg", "tasks": 4, "pre": ["scan"], "post": [], "distr": {"type": "lognorm",
          "params": {"mu": 1.0, "sigma": 0.5}}}],
       "Nodes": 1, "maxJobs": 400, "seed": 21}
      """;

  private static SparkSession spark;

  @TempDir
  static Path shared;

  /** The same sweep with 1 and 2 partitions per grid point, run once for the tests that read its tables. */
  private static SweepRun.Summary summaryOne;
  private static SweepOptions optionsOne;

  @BeforeAll
  static void startSparkAndSweep() throws Exception {
    spark = SparkTestSession.get();
    spark.conf().set("spark.sql.shuffle.partitions", "2"); // SparkTestSession.get() resets it for the next class
    Path model = Files.writeString(shared.resolve("m.json"), MODEL);
    optionsOne = options(model, shared.resolve("one"), 1);
    SweepOptions two = options(model, shared.resolve("two"), 2);
    summaryOne = SweepJob.run(spark, SweepJob.plan(optionsOne), optionsOne);
    SweepJob.run(spark, SweepJob.plan(two), two);
  }

  private static SweepOptions options(Path model, Path out, int partitionsPerPoint) {
    return new SweepOptions(model.toString(), null, List.of(1, 2, 4), List.of(2, 4), List.of(), 2, 200, 0,
        7L, 1, "baseline", 100.0, Statistic.P90, partitionsPerPoint, out.toString(), null, null);
  }

  private static List<Row> table(Path out, String name) {
    return spark.read().format("delta").load(out.resolve(name).toString())
        .orderBy("executors", "cores_per_executor").collectAsList();
  }

  @Test
  void resultsAreIdenticalWithOneAndTwoPartitionsPerPointAndEqualTheSequentialSweep() {
    SweepRun.Summary summary = summaryOne;
    assertThat(summary.points()).isEqualTo(6);
    assertThat(summary.trials()).isEqualTo(12);
    assertThat(summary.applications()).isEqualTo(12 * 200);
    List<Row> first = table(shared.resolve("one"), "sweep_results");
    assertThat(first).hasSize(6).isEqualTo(table(shared.resolve("two"), "sweep_results"));
    assertThat(table(shared.resolve("one"), "sweep_best")).isEqualTo(table(shared.resolve("two"), "sweep_best"));

    List<PointResult> sequential = SweepJob.plan(optionsOne).runSequentially();
    assertThat(summary.results()).isEqualTo(sequential);
    Row slots2 = first.get(0);
    assertThat(slots2.<Integer>getAs("slots")).isEqualTo(2);
    assertThat(slots2.<Double>getAs("mean_s")).isEqualTo(sequential.get(0).meanS());
    assertThat(slots2.<Double>getAs("core_hours")).isEqualTo(2 * sequential.get(0).meanS() / 3600);
    assertThat(slots2.isNullAt(slots2.fieldIndex("gb_hours"))).isTrue();
    assertThat(slots2.<Long>getList(slots2.fieldIndex("trial_seeds"))).isEqualTo(sequential.get(0).trialSeeds())
        .hasSize(2);
    assertThat(slots2.isNullAt(slots2.fieldIndex("executor_memory_gb"))).isTrue();
    // More slots, shorter runs: 40 tasks of mean 10 s need 20 waves on 2 slots and 3 on 16.
    assertThat(first.get(0).<Double>getAs("mean_s")).isGreaterThan(first.get(5).<Double>getAs("mean_s"));
  }

  @Test
  void bestHoldsTheParetoFrontAndTheCheapestPointMeetingTheDeadline() {
    SweepRun.Summary summary = summaryOne;
    List<Row> best = spark.read().format("delta").load(shared.resolve("one/sweep_best").toString()).collectAsList();
    PointResult expected = Sweep.cheapestMeeting(summary.results(), 100.0, Statistic.P90).orElseThrow();
    Row deadline = best.stream().filter(r -> r.getAs("kind").equals("deadline")).findFirst().orElseThrow();
    assertThat(deadline.<Integer>getAs("slots")).isEqualTo(expected.slots());
    assertThat(deadline.<Double>getAs("time_s")).isEqualTo(expected.p90S()).isLessThanOrEqualTo(100.0);
    assertThat(deadline.<String>getAs("statistic")).isEqualTo("p90");
    assertThat(best.stream().filter(r -> r.getAs("kind").equals("pareto")).count())
        .isEqualTo(Sweep.paretoFront(summary.results(), Statistic.P90).size());
  }

  @Test
  void gridFileWithMemoryAddsGbHours(@TempDir Path dir) throws Exception {
    Path model = Files.writeString(dir.resolve("m.json"), MODEL);
    Path grid = Files.writeString(dir.resolve("grid.json"),
        "{\"executors\": [2], \"coresPerExecutor\": [4], \"executorMemoryGb\": [4, 8], \"replications\": 2}");
    SweepOptions options = new SweepOptions(model.toString(), grid.toString(), List.of(), List.of(),
        List.of(), 1, 100, 0, null, 1, "baseline", null, Statistic.MEAN, 1, dir.resolve("out").toString(), null,
        null);
    SweepJob.run(spark, options);

    List<Row> rows = spark.read().format("delta").load(dir.resolve("out/sweep_results").toString())
        .orderBy("executor_memory_gb").collectAsList();
    assertThat(rows).hasSize(2);
    Row eight = rows.get(1);
    assertThat(eight.<Double>getAs("executor_memory_gb")).isEqualTo(8.0);
    assertThat(eight.<Double>getAs("gb_hours")).isEqualTo(2 * 8.0 * eight.<Double>getAs("mean_s") / 3600);
    assertThat(eight.<Long>getAs("applications")).isEqualTo(200);
    assertThat(eight.<Long>getAs("base_seed")).isEqualTo(21);
  }

  @Test
  void inputSizeRuleSweepsSizesGivenOnTheCommandLine(@TempDir Path dir) throws Exception {
    // The scan reads 40 × 128 MB = 5 GiB; 2.5 and 10 GiB halve and double its tasks.
    Path model = Files.writeString(dir.resolve("m.json"),
        MODEL.replace("\"tasks\": 40,", "\"tasks\": 40, \"inputBytes\": 5368709120,"));
    SweepOptions options = new SweepOptions(model.toString(), null, List.of(2), List.of(4), List.of(),
        List.of(2.5, 10.0), 1, 50, 0, null, 1, "input-size", null, Statistic.MEAN, 1, dir.resolve("out").toString(),
        null, null);
    SweepRun.Summary summary = SweepJob.run(spark, SweepJob.plan(options), options);
    assertThat(summary.results()).extracting(PointResult::tasks).containsExactly(50 * 24L, 50 * 84L);
    List<Row> rows = spark.read().format("delta").load(dir.resolve("out/sweep_results").toString())
        .orderBy("input_bytes").collectAsList();
    assertThat(rows).extracting(r -> r.<Long>getAs("input_bytes")).containsExactly(5L << 29, 5L << 31);
    assertThat(rows).extracting(r -> r.<String>getAs("rule")).containsOnly("input-size");
    assertThat(rows.get(0).<Double>getAs("mean_s")).isLessThan(rows.get(1).<Double>getAs("mean_s"));
    assertThat(spark.read().format("delta").load(dir.resolve("out/sweep_best").toString()).collectAsList())
        .extracting(r -> r.<Long>getAs("input_bytes")).containsOnly(5L << 29, 5L << 31);

    SimulateJobTest.Run baseline = SimulateJobTest.perflab("sweep", "--model", model.toString(), "--executors", "2",
        "--cores", "4", "--input-gb", "1", "--output", dir.resolve("bad").toString());
    assertThat(baseline.exitCode()).isEqualTo(2);
    assertThat(baseline.stderr()).contains(
        "Cannot plan sweep: the grid has input sizes, which rule baseline ignores (use --rule input-size)");
    SimulateJobTest.Run noBytes = SimulateJobTest.perflab("sweep", "--model",
        Files.writeString(dir.resolve("plain.json"), MODEL).toString(), "--rule", "input-size", "--executors", "2",
        "--cores", "4", "--input-gb", "1", "--output", dir.resolve("bad").toString());
    assertThat(noBytes.exitCode()).isEqualTo(2);
    assertThat(noBytes.stderr()).contains("no stage records bytes read from storage");
    assertThat(dir.resolve("bad")).doesNotExist();
  }

  @Test
  void badGridOrModelExitsTwoBeforeAnyTrial(@TempDir Path dir) throws Exception {
    Path model = Files.writeString(dir.resolve("m.json"), MODEL);
    Path grid = Files.writeString(dir.resolve("grid.json"), "{\"executors\": [2, -1], \"coresPerExecutor\": [4]}");
    Path out = dir.resolve("out");

    SimulateJobTest.Run badGrid = SimulateJobTest.perflab("sweep", "--model", model.toString(), "--grid",
        grid.toString(), "--output", out.toString());
    SimulateJobTest.Run badModel = SimulateJobTest.perflab("sweep", "--model",
        Files.writeString(dir.resolve("bad.json"), MODEL.replace("\"tasks\": 4,", "\"tasks\": 0,")).toString(),
        "--executors", "2", "--cores", "2", "--output", out.toString());
    SimulateJobTest.Run badSlots = SimulateJobTest.perflab("sweep", "--model", model.toString(), "--executors", "1",
        "--cores", "1", "--task-cpus", "2", "--output", out.toString());

    assertThat(badGrid.exitCode()).isEqualTo(2);
    assertThat(badGrid.stderr()).contains("Cannot read grid").contains("executors[1] must be an integer >= 1 (-1)");
    assertThat(badModel.exitCode()).isEqualTo(2);
    assertThat(badModel.stderr()).contains("Stages[1].tasks must be an integer >= 1 (0)");
    assertThat(badSlots.exitCode()).isEqualTo(2);
    assertThat(badSlots.stderr()).contains("leave no task slot");
    assertThat(out).doesNotExist();
    assertThat(spark.sparkContext().isStopped()).isFalse();
  }
}
