package org.perflab.spark.prediction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perflab.eventlog.redact.Redactor;
import org.perflab.spark.ingest.Ingest;
import org.perflab.spark.ingest.IngestOptions;
import org.perflab.jobs.EvaluateJob;
import org.perflab.jobs.PerfLab;
import org.perflab.spark.model.ModelTables;
import org.perflab.spark.storage.TableStore;
import org.perflab.spark.ingest.SparkTestSession;

/**
 * The harness on a small set whose truth is known: event logs of a map-only application of 8 sleep tasks of 2 s on
 * 1, 2 and 4 one-core executors, two runs each ({@link SleepLogs}), ingested; {@code evaluate} then holds out each
 * slot count. With three configurations no law can be fitted (two core counts remain), so the selection must find the
 * simulator, which replays the tasks at the held-out slot count: its runtime is 1.3 s + ⌈8 ÷ slots⌉ × 2 s.
 */
class EvaluateJobTest {
  private static final int[] EXECUTORS = {1, 2, 4};
  @TempDir static Path dir;
  private static SparkSession spark;
  private static EvaluateJob.Summary summary;
  private static TableStore out;

  @BeforeAll
  static void ingestAndEvaluate() throws IOException {
    Path logs = dir.resolve("logs");
    for (int executors : EXECUTORS) {
      for (int rep = 0; rep < 2; rep++) {
        new SleepLogs(executors, 8, 2_000, 64L << 20).write(logs, "sleep", rep);
      }
    }
    spark = SparkTestSession.get();
    spark.conf().set("spark.sql.shuffle.partitions", "2"); // SparkTestSession.get() resets it for the next class
    String root = dir.resolve("tables").toString();
    new Ingest(spark, new IngestOptions(List.of(logs.toString()), root, false, Redactor.DEFAULT_PATTERN, 0),
        Clock.systemUTC()).run();
    summary = EvaluateJob.run(spark, Clock.systemUTC(), new EvaluateJob.Options(root, root, Optional.empty(), 1L,
        Optional.empty(), true));
    out = new TableStore(spark, root);
  }

  @Test
  void theSelectedPredictionIsWithinAFewPercentOfTheKnownRuntime() {
    List<Row> selected = eval().where("selected").collectAsList();

    assertThat(selected).hasSize(3);
    // Held out, two training configurations give the blend no inner evidence: stages, the fallback, is compared.
    assertThat(selected).extracting(r -> r.<String>getAs("predictor")).containsOnly("stages");
    for (Row r : selected) {
      int slots = r.getAs("total_cores");
      double truth = new SleepLogs(slots, 8, 2_000, 64L << 20).runtimeMs() / 1000.0;
      assertThat(r.<Double>getAs("actual_s")).isCloseTo(truth, within(1e-9));
      assertThat(r.<Double>getAs("abs_error_pct")).as("selected %s at %d slots", r.getAs("predictor"), slots)
          .isLessThan(3.0);
      assertThat(r.<String>getAs("note")).startsWith("selected: ");
    }
  }

  @Test
  void everyPredictorHasARowPerHeldOutConfigurationAndTheLawsSayWhyTheyCannotPredict() {
    // 14 of the harness (the simulator family's four and workload_transfer included) and the two MLlib regressions,
    // per configuration. One workload: workload_transfer has no other workload to borrow from.
    assertThat(eval().count()).isEqualTo(3L * 16);
    assertThat(eval().where("predictor = 'workload_transfer' AND predicted_s IS NULL").count()).isEqualTo(3);
    List<Row> laws = eval().where("predictor IN ('sqrt', 'amdahl', 'power', 'gustafson')").collectAsList();
    assertThat(laws).hasSize(12).allSatisfy(r -> {
      assertThat(r.<Object>getAs("predicted_s")).isNull();
      assertThat(r.<String>getAs("note")).contains("2 distinct core counts (at least 3)");
    });
    assertThat(eval().where("predictor = 'simulator' AND predicted_s IS NOT NULL").count()).isEqualTo(3);
    // The DAG-aware predictor predicts every configuration, and is the family's candidate (a fallback: held out, the
    // blend has too few training configurations for inner evidence, so stages is compared): the simulator alone,
    // the bound and the AMVA are never selected.
    assertThat(eval().where("predictor = 'stages' AND predicted_s IS NOT NULL").count()).isEqualTo(3);
    assertThat(eval().where("predictor IN ('simulator', 'fork_join', 'task_precedence') AND selected").count())
        .isZero();
  }

  /**
   * With {@code --no-model-build} (the nightly pipeline, whose {@code model} step runs first) and no {@code dag_models}
   * under the output root, evaluate neither builds nor writes the models: the simulator's predictors give null, the
   * runtime-only ones still predict.
   */
  @Test
  void withoutModelBuildingTheSimulatorGivesNullAndNoModelsAreWritten() {
    String root = dir.resolve("tables").toString();
    String other = dir.resolve("no-model-build").toString();
    EvaluateJob.run(spark, Clock.systemUTC(), new EvaluateJob.Options(root, other, Optional.empty(), 1L,
        Optional.empty(), false));
    TableStore elsewhere = new TableStore(spark, other);
    assertThat(elsewhere.exists(ModelTables.DAG_MODELS)).isFalse();
    Dataset<Row> rows = elsewhere.read(PredictionTables.EVAL_TABLE).orElseThrow();
    assertThat(rows.where("predictor = 'simulator'").count()).isEqualTo(3);
    assertThat(rows.where("predictor = 'simulator' AND predicted_s IS NOT NULL").count()).isZero();
    assertThat(rows.where("predictor = 'nearest' AND predicted_s IS NOT NULL").count()).isEqualTo(3);
  }

  @Test
  void theSummaryAndTheChoiceAreWritten() {
    Row all = out.read(PredictionTables.SUMMARY_TABLE).orElseThrow()
        .where("workload_id = '*' AND predictor = 'selected'").first();
    assertThat(all.<Integer>getAs("configurations")).isEqualTo(3);
    assertThat(all.<Double>getAs("mean_abs_error_pct")).isLessThan(3.0);
    Row choice = out.read(PredictionTables.CHOICE_TABLE).orElseThrow().first();
    assertThat(choice.<String>getAs("workload_id")).isEqualTo("sleep");
    // Trained on all three configurations, each predicted from the other two: no law can fit two core counts, and
    // the blend, which weighs the stages of the runs' models against nearest by their inner errors, models the
    // configuration with inner evidence, so it is chosen and stages, a fallback candidate, is not compared; the
    // fork-join bound and the AMVA are measured, never chosen (the simulator solves their model exactly).
    assertThat(choice.<String>getAs("predictor")).isEqualTo("blend");
    assertThat(summary.runs()).isEqualTo(6);
    // Two runs at each of the 3 configurations: the noise floor is measured on all three, and the goals compare the
    // selected predictor with the one baseline that predicts here (nearest).
    assertThat(summary.noiseFloor().configurations()).isEqualTo(3);
    assertThat(summary.goals()).extracting(g -> g.what().replaceAll(" (on|of) .*", ""))
        .containsExactly("mean", "vs nearest", "coverage");
  }

  @Test
  void aRuntimeTableGivesTheSimulatorNullWithANoteAndCountsItsBadRows() throws IOException {
    Path csv = dir.resolve("runs.csv");
    Files.writeString(csv, String.join("\n", "workload_id,input_bytes,executors,cores_per_executor,"
            + "executor_memory_bytes,duration_s", "w,1000000000,2,1,,100", "w,1000000000,4,1,,52",
        "w,1000000000,8,1,,28", "w,1000000000,16,1,,16", "w,not-a-number,16,1,,16",
        "tiny,1000000000,2,1,,10", "tiny,1000000000,4,1,,6") + "\n", StandardCharsets.UTF_8);
    String root = dir.resolve("csv-out").toString();
    EvaluateJob.Summary s = EvaluateJob.run(spark, Clock.systemUTC(), new EvaluateJob.Options(root, root,
        Optional.of(csv.toString()), 1L, Optional.empty(), true));

    assertThat(s.runs()).isEqualTo(6);
    // A workload with 2 configurations is skipped with its reason (collected from the executors).
    assertThat(s.skippedWorkloads())
        .containsEntry("tiny", "Cannot evaluate workload tiny: 2 configurations (at least 3)");
    assertThat(s.skippedRows()).containsEntry(RunTable.SkipReason.BAD_VALUE, 1L);
    List<Row> simulator = new TableStore(spark, root).read(PredictionTables.EVAL_TABLE).orElseThrow()
        .where("predictor = 'simulator'").collectAsList();
    assertThat(simulator).hasSize(4).allSatisfy(r -> {
      assertThat(r.<Object>getAs("predicted_s")).isNull();
      assertThat(r.<String>getAs("note")).contains("no training run has a simulator model");
    });
    // tiny, too small to be evaluated, still lends its speed-up from 2 to 4 executors to w: held out at 4, w is
    // 100 s × 6 ÷ 10, and at 2, 52 s × 10 ÷ 6; at 8 and 16 executors tiny measured nothing to lend.
    Map<Integer, Double> borrowed = new java.util.TreeMap<>();
    new TableStore(spark, root).read(PredictionTables.EVAL_TABLE).orElseThrow()
        .where("predictor = 'workload_transfer'").collectAsList()
        .forEach(r -> borrowed.put(r.<Integer>getAs("executors"), r.<Double>getAs("predicted_s")));
    assertThat(borrowed).containsOnlyKeys(2, 4, 8, 16);
    assertThat(borrowed.get(4)).isCloseTo(60.0, within(1e-9));
    assertThat(borrowed.get(2)).isCloseTo(52.0 * 10 / 6, within(1e-9));
    assertThat(borrowed.get(8)).isNull();
    assertThat(borrowed.get(16)).isNull();
  }

  @Test
  void aRootWithoutIngestTablesExitsTwo() throws IOException {
    Path empty = Files.createDirectories(dir.resolve("empty"));
    assertThat(PerfLab.run("evaluate", "--input", empty.toString())).isEqualTo(2);
  }

  private static org.apache.spark.sql.Dataset<Row> eval() {
    return out.read(PredictionTables.EVAL_TABLE).orElseThrow();
  }
}
