package org.perflab.jobs;

import org.perflab.jobs.cli.Preflight;
import org.perflab.jobs.cli.RunSummary;
import org.perflab.jobs.cli.SessionCommand;
import org.perflab.jobs.cli.JobOutcome;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;
import org.perflab.dagmodel.Prediction;
import org.perflab.dagmodel.SampleMode;
import org.perflab.errors.BadInputException;
import org.perflab.spark.features.FeatureInputs;
import org.perflab.spark.model.DagModels;
import org.perflab.spark.model.ModelTables;
import org.perflab.spark.model.StageTaskSamples;
import org.perflab.spark.storage.ChangedLogs;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code perflab model}: builds the simulator model of every completed application from the {@code ingest} tables
 * and writes {@code dag_models}; with {@code --predict}, predicts each run's duration from every other run of its
 * workload at another slot count and writes {@code model_predictions}. Only the logs ingested since the last run are
 * modelled unless {@code --full} ({@link DagModels}). Options: docs/jobs.md.
 */
@Command(
    name = "model",
    mixinStandardHelpOptions = true,
    description = "Build simulator models of applications from the ingest tables; optionally predict across slots.")
public final class ModelJob implements SessionCommand {
  private static final Logger LOG = LoggerFactory.getLogger(ModelJob.class);

  /** The options of {@code model}. */
  public record Options(String input, String output, SampleMode mode, int apps, boolean predict, long seed,
      Optional<String> workloadProperty, boolean full) {
    public Options {
      BadInputException.require(apps >= 1, "Cannot model: --apps must be >= 1 (%d)", apps);
    }

    /** Options of an incremental run. */
    public Options(String input, String output, SampleMode mode, int apps, boolean predict, long seed,
        Optional<String> workloadProperty) {
      this(input, output, mode, apps, predict, seed, workloadProperty, false);
    }

    /** Options grouping runs without a workload property (the tag, else the normalised application name). */
    public Options(String input, String output, SampleMode mode, int apps, boolean predict, long seed) {
      this(input, output, mode, apps, predict, seed, Optional.empty());
    }

    DagModels.Options model() {
      return new DagModels.Options(input, output, mode, apps, predict, seed, workloadProperty, full,
          StageTaskSamples.DEFAULT_BOUND);
    }
  }

  /** What a model run did: models built, applications skipped, and the predictions made. */
  public record Summary(long models, long skipped, List<Prediction> predictions) {}

  @Option(names = "--input", required = true, paramLabel = "DIR", description = "Output root of ingest.")
  String input;

  @Option(names = "--output", paramLabel = "DIR",
      description = "Output root: writes DIR/dag_models and, with --predict, DIR/model_predictions. Default: --input.")
  String output;

  @Option(names = "--mode", defaultValue = "replay", paramLabel = "replay|empirical",
      description = "Task durations as replayed samples or an empirical draw. Default: ${DEFAULT-VALUE}.")
  String mode;

  @Option(names = "--apps", defaultValue = "1", paramLabel = "N",
      description = "Applications simulated per prediction (more for empirical mode). Default: ${DEFAULT-VALUE}.")
  int apps;

  @Option(names = "--predict", description = "Also predict each run from the runs of its workload at other slots.")
  boolean predict;

  @Option(names = "--seed", defaultValue = "1", paramLabel = "N", description = "Seed of the predictions.")
  long seed;

  @Option(names = "--workload-property", paramLabel = "KEY",
      description = "A Spark property naming the workload of untagged runs, as in features. Default: none.")
  String workloadProperty;

  @Option(names = "--full", description = "Model every application, not only the logs ingested since the last run.")
  boolean full;

  @Override
  public String appName() {
    return "perflab model";
  }

  @Override
  public Work prepare() {
    Options options = new Options(input, output == null ? input : output, mode(mode), apps, predict, seed,
        Optional.ofNullable(workloadProperty), full);
    Preflight.of("model").ingestTables("--input", input, FeatureInputs.TABLES)
        .outputRoot("--output", options.output());
    return spark -> {
      LOG.info("Modelling the applications under {} into {}", options.input(), options.output());
      DagModels.Summary summary = DagModels.run(spark, options.model());
      List<String> tables = options.predict() ? List.of(DAG_MODELS, MODEL_PREDICTIONS) : List.of(DAG_MODELS);
      return JobOutcome.printed(String.format(
          "model: %d models built, %d applications skipped, %d predictions%n  %s%n%s", summary.models(),
          summary.skipped(), summary.predictions().size(), plan(summary.plan()),
          RunSummary.tables(spark, options.output(), tables)));
    };
  }

  static SampleMode mode(String text) {
    try {
      return SampleMode.valueOf(text.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new BadInputException("Cannot model: --mode must be replay or empirical (" + text + ")", e);
    }
  }

  private static String plan(ChangedLogs.Plan plan) {
    return switch (plan.mode()) {
      case FULL -> "full run (" + plan.reason() + ")";
      case INCREMENTAL -> "incremental run (" + plan.reason() + ")";
      case UP_TO_DATE -> "up to date (" + plan.reason() + ")";
    };
  }

  /** Builds the models and writes the tables ({@link DagModels#run}); returns what was done. */
  static Summary run(SparkSession spark, Options options) {
    DagModels.Summary summary = DagModels.run(spark, options.model());
    return new Summary(summary.models(), summary.skipped(), summary.predictions());
  }

  static final StructType MODELS = ModelTables.MODELS;
  static final StructType PREDICTIONS = ModelTables.PREDICTIONS;
  /** The table names under the output root. */
  static final String DAG_MODELS = ModelTables.DAG_MODELS;
  static final String MODEL_PREDICTIONS = ModelTables.MODEL_PREDICTIONS;
}
