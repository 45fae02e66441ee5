package org.perflab.jobs;

import org.perflab.jobs.cli.Preflight;
import org.perflab.jobs.cli.RunSummary;
import org.perflab.jobs.cli.SessionCommand;
import org.perflab.jobs.cli.JobOutcome;
import static org.apache.spark.sql.functions.col;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.perflab.errors.BadInputException;
import org.perflab.spark.features.FeatureInputs;
import org.perflab.spark.features.FeatureTables;
import org.perflab.spark.features.WorkloadTable;
import org.perflab.spark.prediction.EvalSummary;
import org.perflab.spark.prediction.Evaluation;
import org.perflab.spark.prediction.PredictionTables;
import org.perflab.prediction.Configuration;
import org.perflab.prediction.Goals;
import org.perflab.prediction.Measured;
import org.perflab.prediction.NoiseFloor;
import org.perflab.prediction.Predictors;
import org.perflab.spark.prediction.RegressionFolds;
import org.perflab.spark.prediction.RunTable;
import org.perflab.prediction.Run;
import org.perflab.prediction.SimulatorFamily;
import org.perflab.prediction.WorkloadTransfer;
import org.perflab.dagmodel.SampleMode;
import org.perflab.spark.storage.OutputLock;
import org.perflab.spark.storage.TableStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code perflab evaluate}: the prediction harness. Every configuration of every workload with at least three is held
 * out in turn and predicted by every predictor from the workload's other configurations; writes
 * {@code prediction_eval}, {@code prediction_eval_summary} and {@code predictor_choice}, and prints the summary.
 * Options: docs/jobs.md#evaluate; the method: docs/prediction.md.
 */
@Command(
    name = "evaluate",
    mixinStandardHelpOptions = true,
    description = "Judge every runtime predictor on held-out configurations, and choose one per workload.")
public final class EvaluateJob implements SessionCommand {
  private static final Logger LOG = LoggerFactory.getLogger(EvaluateJob.class);
  static final String JOB = "evaluate";
  /** Applications the simulator runs per prediction. */
  static final int SIMULATED_APPS = 1;

  /**
   * The options of {@code evaluate}.
   *
   * @param buildModels whether to run {@code model} first when the output root has no {@code dag_models}; false in
   *     the nightly pipeline, whose {@code model} step runs before this one and owns that table
   */
  public record Options(String input, String output, Optional<String> runs, long seed,
      Optional<String> workloadProperty, boolean buildModels) {}

  /**
   * What a run did: runs used, rows skipped by reason, workloads skipped with their reasons, the summary rows, the
   * runs' noise floor and the goals of docs/prediction.md#goals.
   */
  public record Summary(long runs, Map<RunTable.SkipReason, Long> skippedRows, Map<String, String> skippedWorkloads,
      List<Row> summary, NoiseFloor.Floor noiseFloor, List<Goals.Goal> goals) {}

  @Option(names = "--input", required = true, paramLabel = "ROOT",
      description = "Output root of ingest and features (reads workloads, or builds it from the ingest tables).")
  String input;

  @Option(names = "--output", paramLabel = "ROOT", description = "Output root of the tables. Default: --input.")
  String output;

  @Option(names = "--runs", paramLabel = "FILE.csv",
      description = "Read runs from a runtime table instead of event logs (columns: " + "workload_id, input_bytes, "
          + "executors, cores_per_executor, executor_memory_bytes, duration_s).")
  String runs;

  @Option(names = "--seed", defaultValue = "1", paramLabel = "N", description = "Seed. Default: ${DEFAULT-VALUE}.")
  long seed;

  @Option(names = "--workload-property", paramLabel = "KEY",
      description = "A Spark property naming the workload of untagged runs, when workloads must be built.")
  String workloadProperty;

  @Option(names = "--no-model-build", description = "Without dag_models under --output, evaluate without the "
      + "simulator's models instead of running model first (the nightly pipeline: its model step owns dag_models).")
  boolean noModelBuild;

  @Override
  public String appName() {
    return "perflab evaluate";
  }

  @Override
  public Work prepare() {
    Options options = new Options(input, output == null ? input : output, Optional.ofNullable(runs), seed,
        Optional.ofNullable(workloadProperty), !noModelBuild);
    Preflight preflight = Preflight.of(JOB);
    if (options.runs().isPresent()) {
      preflight.matches("--runs", options.runs().get());
    } else {
      preflight.ingestTables("--input", options.input(), FeatureInputs.TABLES);
    }
    preflight.outputRoot("--output", options.output());
    return spark -> {
      LOG.info("Evaluating the runtime predictors on {} into {}", options.runs().orElse(options.input()),
          options.output());
      long start = System.nanoTime();
      Summary summary = run(spark, Clock.systemUTC(), options);
      JobOutcome outcome = JobOutcome.printed(describe(summary, (System.nanoTime() - start) / 1e9) + "\n"
          + RunSummary.tables(spark, options.output(), PredictionTables.NAMES));
      return outcome;
    };
  }

  /** Reads the runs, evaluates every workload, and writes the three tables holding the output root's lock. */
  public static Summary run(SparkSession spark, Clock clock, Options options) {
    TableStore out = new TableStore(spark, options.output());
    RunTable.Runs runs = runs(spark, options);
    Dataset<Row> rows = runs.rows().cache();
    long count = rows.count();
    spark.sparkContext().setJobDescription("Evaluate the runtime predictors");
    long seed = options.seed();
    Dataset<Row> withModels = options.runs().isPresent() ? rows : withModels(spark, options, rows);
    List<Run> collected = Evaluation.collectRuns(rows);
    // Every workload lends its measured configurations to the others' workload_transfer (issue 28: borrowing).
    Map<Configuration, Map<String, Measured>> lent = WorkloadTransfer.index(collected);
    Evaluation.Result result = Evaluation.evaluate(spark, withModels, (w, models) ->
        Predictors.all(new SimulatorFamily(models, SIMULATED_APPS, seed), WorkloadTransfer.of(w, lent)));
    List<Row> evalRows = new ArrayList<>(result.rows().collectAsList());
    Set<String> evaluated = evalRows.stream().map(r -> r.getString(0)).collect(Collectors.toSet());
    Optional<Dataset<Row>> appFeatures = options.runs().isPresent() ? Optional.empty()
        : new TableStore(spark, options.input()).read(FeatureTables.APP_FEATURES_TABLE);
    RegressionFolds.evaluate(rows, appFeatures, evaluated, seed).forEach(p -> evalRows.add(Evaluation.evalRow(p)));
    List<Row> summary = EvalSummary.of(evalRows, result.skipped());
    NoiseFloor.Floor floor = NoiseFloor.of(collected, seed);
    List<Goals.Goal> goals = Goals.of(evalRows.stream().map(Evaluation::predictionRow).toList(),
        floor.meanAbsErrorPct());
    try (OutputLock lock = OutputLock.acquire(out.fileSystem(), out.root(), JOB, clock)) {
      out.overwrite(PredictionTables.EVAL_TABLE,
          spark.createDataFrame(evalRows, PredictionTables.EVAL).coalesce(1));
      out.overwrite(PredictionTables.SUMMARY_TABLE,
          spark.createDataFrame(summary, PredictionTables.SUMMARY).coalesce(1));
      out.overwrite(PredictionTables.CHOICE_TABLE, result.choices().coalesce(1));
    } finally {
      rows.unpersist();
    }
    return new Summary(count, runs.skipped(), result.skipped(), summary, floor, goals);
  }

  /**
   * The runs with their simulator models ({@code dag_models.model_json} and {@code stage_refs}, null for a run without
   * one). Without a
   * {@code dag_models} table under the output root, {@code model} is run first to build it, unless
   * {@link Options#buildModels} is false: then every run has none.
   */
  static Dataset<Row> withModels(SparkSession spark, Options options, Dataset<Row> runs) {
    TableStore out = new TableStore(spark, options.output());
    if (!out.exists(ModelJob.DAG_MODELS) && options.buildModels()) {
      LOG.info("evaluate: no {} under {}; building the simulator models first", ModelJob.DAG_MODELS,
          options.output());
      ModelJob.run(spark, new ModelJob.Options(options.input(), options.output(), SampleMode.REPLAY, 1, false,
          options.seed(), options.workloadProperty()));
    }
    Dataset<Row> dagModels = out.read(ModelJob.DAG_MODELS).orElseGet(() -> {
      LOG.warn("evaluate: no {} under {} (--no-model-build): the simulator's predictors give null", ModelJob.DAG_MODELS,
          options.output());
      return spark.createDataFrame(List.of(), ModelJob.MODELS);
    });
    Dataset<Row> models = dagModels
        .where(col("status").equalTo("OK").and(col(Evaluation.MODEL_JSON).isNotNull()))
        .select(RunTable.runKey().as("_model_key"), col(Evaluation.MODEL_JSON), Evaluation.stageRefs(dagModels));
    return runs.join(models, runs.col("run_key").equalTo(models.col("_model_key")), "left").drop("_model_key");
  }

  /** The runs: from {@code --runs}, else from {@code workloads} (built from the ingest tables when missing). */
  static RunTable.Runs runs(SparkSession spark, Options options) {
    if (options.runs().isPresent()) {
      return RunTable.fromCsv(spark, options.runs().get());
    }
    TableStore in = new TableStore(spark, options.input());
    Dataset<Row> workloads = in.read(FeatureTables.WORKLOADS_TABLE).orElseGet(() ->
        WorkloadTable.of(FeatureInputs.read(in, JOB), options.workloadProperty()));
    return RunTable.fromWorkloads(workloads);
  }

  static String describe(Summary s, double seconds) {
    List<String> lines = new ArrayList<>();
    lines.add(String.format(Locale.ROOT, "evaluate: %d runs, %d workloads skipped, %.1f s", s.runs(),
        s.skippedWorkloads().size(), seconds));
    RunTable.describeSkipped(s.skippedRows()).forEach(l -> lines.add("  " + l));
    lines.add(EvalSummary.format(s.summary()).stripTrailing());
    lines.add(String.format(Locale.ROOT, "noise floor: %.1f %% (one half of a configuration's runs predicting the "
        + "other half's median, %d configurations with 2 runs or more)", s.noiseFloor().meanAbsErrorPct(),
        s.noiseFloor().configurations()));
    lines.add("goals (docs/prediction.md#goals):");
    s.goals().forEach(g -> lines.add("  " + g.describe()));
    return String.join("\n", lines);
  }

}
