package org.perflab.jobs;

import org.perflab.jobs.cli.Preflight;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.exp;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.spark.ml.PipelineModel;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perflab.prediction.IntervalSource;
import org.perflab.spark.features.FeatureTables;
import org.perflab.spark.ingest.SparkTestSession;
import org.perflab.spark.prediction.RunTable.SkipReason;
import org.perflab.spark.regress.RegressionKind;
import org.perflab.spark.regress.RuntimeFeature;
import org.perflab.spark.regress.RuntimeModel;
import org.perflab.spark.regress.RuntimePipeline;
import org.perflab.spark.regress.RuntimePredictions;
import org.perflab.spark.regress.RuntimeRegression;
import org.perflab.spark.regress.SyntheticRuns;
import org.perflab.spark.regress.WorkloadFeatures;
import org.perflab.spark.storage.ModelDirectory;
import org.perflab.spark.storage.RuntimeModelFiles;
import org.perflab.spark.storage.TableStore;

/**
 * {@code regress}, run once from the command line, on a test-built {@code workloads} and {@code app_features} of
 * {@link SyntheticRuns} (96 runs of three workloads, plus an unfinished run and one without a configuration): the
 * summary, the table, the saved models read back. Then the runs of a runtime CSV with a bad line, as the job reads
 * them (a fit on them is the same fit), and the bad inputs.
 */
class RegressJobTest {
  @TempDir
  static Path dir;

  private static SparkSession spark;
  private static Path root;
  private static int exitCode;
  private static String printed;
  /** The GC share each workload's app_features rows have. */
  private static final Map<String, Double> GC_SHARE = Map.of("sort", 0.10, "kmeans", 0.30, "wordcount", 0.05);

  @BeforeAll
  static void regressFromTables() {
    spark = SparkTestSession.get();
    root = dir.resolve("tables");
    List<Row> runs = SyntheticRuns.of(spark, 0.03, 3).collectAsList();
    TableStore store = new TableStore(spark, root.toString());
    store.overwrite(FeatureTables.WORKLOADS_TABLE, workloads(runs));
    store.overwrite(FeatureTables.APP_FEATURES_TABLE, appFeatures(runs));
    Scripts.Result regress = Scripts.inProcess("regress", "--input", root.toString(), "--seed", "3");
    exitCode = regress.exitCode();
    printed = regress.stdout();
  }

  @Test
  void theSummaryCountsRunsSkipsAndTheInSampleErrorsOfTheTable() {
    assertThat(exitCode).as(printed).isEqualTo(0);
    Map<String, Double> mape = new HashMap<>();
    table(root, RuntimePredictions.NAME).groupBy("predictor").avg("abs_error_pct").collectAsList()
        .forEach(r -> mape.put(r.getString(0), r.getDouble(1)));
    assertThat(mape.get("regression_linear")).isLessThan(8.0);
    assertThat(mape.get("regression_gbt")).isLessThan(8.0);
    assertThat(printed).contains(String.format(Locale.ROOT, "regress: 96 runs of 3 workloads from the workloads "
        + "under %s; in-sample mean absolute error (the runs fitted on; evaluate gives held-out errors): "
        + "regression_linear %.1f %%, regression_gbt %.1f %%", root, mape.get("regression_linear"),
        mape.get("regression_gbt")))
        .contains("  1 rows skipped: " + SkipReason.NOT_COMPLETED.text())
        .contains("  1 rows skipped: " + SkipReason.NO_CONFIGURATION.text())
        .contains("/{runtime_predictions} (Delta Lake)")
        .contains("  model: file:" + root.resolve(ModelDirectory.MODELS).resolve(RegressJob.MODEL));
  }

  @Test
  void runtimePredictionsHoldOneRowPerRunAndRegressor() {
    Dataset<Row> table = table(root, RuntimePredictions.NAME);
    assertThat(table.schema().fieldNames()).containsExactly(RuntimePredictions.SCHEMA.fieldNames());
    List<Row> rows = table.collectAsList();
    assertThat(rows).hasSize(192);
    Map<String, Long> perPredictor = rows.stream().collect(Collectors.groupingBy(r -> r.getAs("predictor"),
        Collectors.counting()));
    assertThat(perPredictor).containsOnly(Map.entry("regression_linear", 96L), Map.entry("regression_gbt", 96L));
    assertThat(rows).allSatisfy(r -> {
      double actual = r.getAs("actual_s");
      double predicted = r.getAs(RuntimeRegression.PREDICTED_S);
      assertThat(r.<Double>getAs("abs_error_pct")).isCloseTo(Math.abs(actual - predicted) / actual * 100,
          within(1e-9));
      assertThat(r.<Double>getAs(RuntimeRegression.PREDICTED_LOW_S))
          .isLessThan(r.getAs(RuntimeRegression.PREDICTED_HIGH_S));
      assertThat(r.<String>getAs("run_key")).isEqualTo(r.getAs("log_id") + "/app/");
    });
  }

  @Test
  void theSavedModelsReproduceTheTableAndKeepTheTrainingWorkloadFeatures() throws IOException {
    Path saved = root.resolve(ModelDirectory.MODELS).resolve(RegressJob.MODEL);
    try (var names = Files.list(saved)) {
      assertThat(names.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("linear", "gbt",
          RuntimeModelFiles.WORKLOAD_FEATURES, RuntimeModelFiles.INTERVALS_FILE);
    }
    Dataset<Row> features = spark.read().parquet(saved.resolve(RuntimeModelFiles.WORKLOAD_FEATURES).toString());
    for (Row r : features.collectAsList()) {
      assertThat(r.<Double>getAs(WorkloadFeatures.GC_SHARE)).isEqualTo(GC_SHARE.get(r.<String>getAs("workload_id")));
      assertThat(r.<Long>getAs(WorkloadFeatures.TRAINING_RUNS)).isEqualTo(32L);
    }

    // PipelineModel.load applies to the runs joined with workload_features, as they are.
    Dataset<Row> predictions = table(root, RuntimePredictions.NAME);
    Dataset<Row> runs = predictions.where(col("predictor").equalTo("regression_linear"))
        .withColumnRenamed(RuntimeRegression.PREDICTED_S, "in_table_s")
        .drop(RuntimeRegression.PREDICTED_LOW_S, RuntimeRegression.PREDICTED_HIGH_S);
    PipelineModel linear = PipelineModel.load(saved.resolve("linear").toString());
    List<Row> reloaded = linear.transform(runs.join(features, "workload_id"))
        .select(col("in_table_s"), exp(col(RuntimePipeline.PREDICTION))).collectAsList();
    assertThat(reloaded).hasSize(96).allSatisfy(r -> assertThat(r.getDouble(1)).isCloseTo(r.getDouble(0),
        within(1e-9 * r.getDouble(0))));

    // The GBT model, loaded with its interval, predicts what the table holds.
    Map<String, Row> gbtRows = new HashMap<>();
    predictions.where(col("predictor").equalTo("regression_gbt")).collectAsList()
        .forEach(r -> gbtRows.put(r.getAs("run_key"), r));
    Dataset<Row> gbtRuns = runs.drop("in_table_s", "predictor", "abs_error_pct").withColumnRenamed("actual_s",
        "duration_s");
    List<Row> again = RuntimeRegression.predict(RuntimeModelFiles.load(spark, saved.toString(), RegressionKind.GBT),
        gbtRuns).collectAsList();
    assertThat(again).hasSize(96).allSatisfy(r -> {
      Row table = gbtRows.get(r.<String>getAs("run_key"));
      for (String column : List.of(RuntimeRegression.PREDICTED_S, RuntimeRegression.PREDICTED_LOW_S,
          RuntimeRegression.PREDICTED_HIGH_S)) {
        assertThat(r.<Double>getAs(column)).isCloseTo(table.getAs(column), within(1e-9 * table.<Double>getAs(column)));
      }
    });
    assertThat(RuntimeModelFiles.load(spark, saved.toString(), RegressionKind.GBT).intervalSource())
        .isEqualTo(IntervalSource.FOLD_RESIDUALS);
    assertThat(RuntimeModelFiles.load(spark, saved.toString(), RegressionKind.LINEAR).intervalSource())
        .isEqualTo(IntervalSource.TRAINING_RESIDUALS);

    // Models saved before intervals/ named its source took their ratios in sample, and still load.
    Path old = dir.resolve("models-before-interval-source");
    org.apache.commons.io.FileUtils.copyDirectory(saved.toFile(), old.toFile());
    org.apache.commons.io.FileUtils.deleteDirectory(old.resolve(RuntimeModelFiles.INTERVALS_FILE).toFile());
    spark.read().parquet(saved.resolve(RuntimeModelFiles.INTERVALS_FILE).toString()).drop("interval_source")
        .write().parquet(old.resolve(RuntimeModelFiles.INTERVALS_FILE).toString());
    RuntimeModel before = RuntimeModelFiles.load(spark, old.toString(), RegressionKind.GBT);
    assertThat(before.intervalSource()).isEqualTo(IntervalSource.TRAINING_RESIDUALS);
    assertThat(before.lowRatio()).isEqualTo(RuntimeModelFiles.load(spark, saved.toString(), RegressionKind.GBT)
        .lowRatio());
  }

  @Test
  void aRuntimeCsvIsReadWithItsBadLineCountedAsSkippedAndItsUnknownMemoryImputed() throws IOException {
    Path csv = dir.resolve("runs.csv");
    List<String> lines = new ArrayList<>(List.of(
        "workload_id,input_bytes,executors,cores_per_executor,executor_memory_bytes,duration_s",
        "sort,1073741824,0,2,4294967296,10.0", // no executors: skipped
        "sort,1073741824,3,2,,40.0")); // memory unknown: imputed
    for (Row r : SyntheticRuns.of(spark, 0.03, 5).collectAsList()) {
      lines.add(String.join(",", r.<String>getAs("workload_id"), r.getAs("input_bytes").toString(),
          r.getAs("executors").toString(), r.getAs("cores_per_executor").toString(),
          r.getAs("executor_memory_bytes").toString(), r.getAs("duration_s").toString()));
    }
    Files.write(csv, lines, StandardCharsets.UTF_8);
    RegressJob.Inputs inputs = RegressJob.inputs(spark, RegressJob.Options.of(null, dir.resolve("csv-out").toString(),
        csv.toString(), 1));
    assertThat(inputs.runs().skipped()).containsExactly(Map.entry(SkipReason.BAD_VALUE, 1L));
    assertThat(inputs.appFeatures()).isEmpty();
    Dataset<Row> runs = inputs.runs().rows();
    assertThat(runs.count()).isEqualTo(97);

    RuntimeModel model = RuntimeRegression.fit(runs, Optional.empty(), RegressionKind.LINEAR, 1);
    assertThat(model.features()).contains(RuntimeFeature.LOG_EXECUTOR_MEMORY, RuntimeFeature.EXECUTOR_MEMORY_UNKNOWN)
        .doesNotContain(RuntimeFeature.WORKLOAD_GC_SHARE);
    Row unknownMemory = RuntimeRegression.predict(model, runs.where(col("executor_memory_bytes").isNull())).first();
    double actual = unknownMemory.getAs("duration_s");
    assertThat(unknownMemory.<Double>getAs(RuntimeRegression.PREDICTED_S)).isCloseTo(actual, within(actual / 2));
  }

  @Test
  void noUsableRunWritesNothing() {
    Path unfinished = dir.resolve("unfinished");
    List<Row> runs = SyntheticRuns.of(spark, 0.03, 3).limit(2).collectAsList();
    new TableStore(spark, unfinished.toString()).overwrite(FeatureTables.WORKLOADS_TABLE, spark.createDataFrame(
        runs.stream().map(r -> workloadRow(r.getAs("log_id"), r, r.getAs("executors"), false)).toList(),
        FeatureTables.WORKLOADS));
    RegressJob.Summary summary = RegressJob.run(spark, new RegressJob.Options(Optional.of(unfinished.toString()),
        unfinished.toString(), Optional.empty(), 1));
    assertThat(summary).isEqualTo(new RegressJob.Summary(0, 0, Map.of(SkipReason.NOT_COMPLETED, 2L), Map.of(),
        Optional.empty()));
    assertThat(new TableStore(spark, unfinished.toString()).exists(RuntimePredictions.NAME)).isFalse();
    assertThat(unfinished.resolve(ModelDirectory.MODELS)).doesNotExist();
  }

  @Test
  void aRootWithoutWorkloadsOrIngestTablesIsBadInput() {
    Path empty = dir.resolve("empty");
    assertThat(PerfLab.run("regress", "--input", empty.toString())).isEqualTo(2);
    assertThatThrownBy(() -> Preflight.of("regress").featuresTable("--input", empty.toString(), "workloads"))
        .hasMessage("Cannot regress: no ingest tables under " + empty + " (run perflab ingest --output " + empty
            + " first)");

    Path ingested = dir.resolve("ingested");
    new TableStore(spark, ingested.toString()).overwrite("applications", spark.createDataFrame(
        List.of(RowFactory.create("x")), new StructType().add("app_id", DataTypes.StringType)));
    String noWorkloads = "Cannot regress: no workloads table under " + ingested + " (run perflab features --input "
        + ingested + " first)";
    assertThat(PerfLab.run("regress", "--input", ingested.toString())).isEqualTo(2);
    assertThatThrownBy(() -> Preflight.of("regress").featuresTable("--input", ingested.toString(), "workloads"))
        .hasMessage(noWorkloads);
    assertThatThrownBy(() -> RegressJob.run(spark, new RegressJob.Options(Optional.of(ingested.toString()),
        ingested.toString(), Optional.empty(), 1))).hasMessage(noWorkloads);

    assertThat(PerfLab.run("regress")).isEqualTo(2);
    assertThatThrownBy(() -> RegressJob.Options.of(null, null, null, 1))
        .hasMessage("Cannot regress: give --input ROOT or --runs FILE.csv (neither given)");
    assertThatThrownBy(() -> RegressJob.Options.of(null, null, "runs.csv", 1))
        .hasMessage("Cannot regress: --runs needs --output ROOT (where the table and the models go)");
  }

  /** The runs as {@code workloads} rows, plus an unfinished run and one without executors. */
  private static Dataset<Row> workloads(List<Row> runs) {
    List<Row> rows = new ArrayList<>();
    for (Row r : runs) {
      rows.add(workloadRow(r.getAs("log_id"), r, r.getAs("executors"), true));
    }
    rows.add(workloadRow("log-unfinished", runs.get(0), 2, false));
    rows.add(workloadRow("log-no-executors", runs.get(0), null, true));
    return spark.createDataFrame(rows, FeatureTables.WORKLOADS);
  }

  private static Row workloadRow(String log, Row run, Integer executors, boolean completed) {
    long durationMs = Math.round(run.<Double>getAs("duration_s") * 1000);
    Integer cores = run.getAs("cores_per_executor");
    return RowFactory.create(log, "app", "", "app " + run.getAs("workload_id"), run.getAs("workload_id"), "TAG",
        run.getAs("input_bytes"), "TASKS", run.getAs("size_class"), executors, cores,
        executors == null ? null : executors * cores, run.getAs("executor_memory_bytes"), 0L, durationMs, completed);
  }

  /** The app_features columns runtime regression reads, one row per run; the GC share says which workload it is. */
  private static Dataset<Row> appFeatures(List<Row> runs) {
    StructType schema = new StructType().add("log_id", DataTypes.StringType).add("app_id", DataTypes.StringType)
        .add("app_attempt_id", DataTypes.StringType).add("shuffle_read_bytes", DataTypes.LongType)
        .add("gc_share", DataTypes.DoubleType).add("utilization", DataTypes.DoubleType)
        .add("driver_only_s", DataTypes.DoubleType).add("wall_time_s", DataTypes.DoubleType)
        .add("disk_spilled_bytes", DataTypes.LongType);
    List<Row> rows = new ArrayList<>();
    for (Row r : runs) {
      double gc = GC_SHARE.get(r.<String>getAs("workload_id"));
      long input = r.getAs("input_bytes");
      double wall = r.getAs("duration_s");
      rows.add(RowFactory.create(r.getAs("log_id"), "app", "", (long) (input * gc * 4), gc, 0.9 - gc,
          wall * gc, wall, 0L));
    }
    return spark.createDataFrame(rows, schema);
  }

  private static Dataset<Row> table(Path root, String name) {
    return new TableStore(spark, root.toString()).read(name).orElseThrow();
  }
}
