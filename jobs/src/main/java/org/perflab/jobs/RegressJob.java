package org.perflab.jobs;

import org.perflab.jobs.cli.Preflight;
import org.perflab.jobs.cli.RunSummary;
import org.perflab.jobs.cli.SessionCommand;
import org.perflab.jobs.cli.JobOutcome;
import static org.apache.spark.sql.functions.avg;
import static org.apache.spark.sql.functions.col;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.perflab.errors.BadInputException;
import org.perflab.spark.features.FeatureTables;
import org.perflab.spark.prediction.RunTable;
import org.perflab.spark.regress.ParallelFits;
import org.perflab.spark.regress.RegressionKind;
import org.perflab.spark.regress.RuntimeModel;
import org.perflab.spark.regress.RuntimePredictions;
import org.perflab.spark.regress.RuntimeRegression;
import org.perflab.spark.regress.WorkloadFeatures;
import org.perflab.spark.storage.ModelDirectory;
import org.perflab.spark.storage.RuntimeModelFiles;
import org.perflab.spark.storage.TableStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code perflab regress}: fits MLlib regressions of a run's log duration on its input size, configuration and
 * workload features ({@link RuntimeRegression}, one {@link RegressionKind} each) over every run, from the
 * {@code workloads} and {@code app_features} tables of {@code features}, or from a runtime table ({@code --runs}).
 * Writes {@code runtime_predictions} (in-sample) under {@code --output}, and the models under
 * {@code <output>/_perflab_models/runtime_model/} ({@link RuntimeModelFiles}). Not incremental: every run is fitted
 * on every run. Usage:
 *
 * <pre>
 * submit/perflab regress --input ROOT [--output ROOT] [--seed 1]
 * submit/perflab regress --runs FILE.csv --output ROOT [--seed 1]
 * </pre>
 *
 * <p>No usable run writes nothing and exits 0. Options: docs/jobs.md.
 */
@Command(
    name = "regress",
    mixinStandardHelpOptions = true,
    description = "Fit MLlib regressions (linear, GBT) of runtime on input size, configuration and workload features.")
public final class RegressJob implements SessionCommand {
  private static final Logger LOG = LoggerFactory.getLogger(RegressJob.class);
  /** The name of the saved models under {@code <output>/_perflab_models/}. */
  public static final String MODEL = "runtime_model";
  static final String ACTION = "regress";

  /**
   * The options of {@code regress}.
   *
   * @param input the output root of {@code features}; empty with {@code runs}
   * @param runs a runtime table (CSV) read instead of {@code input}'s tables
   */
  public record Options(Optional<String> input, String output, Optional<String> runs, long seed) {
    public Options {
      BadInputException.require(input.isPresent() || runs.isPresent(),
          "Cannot regress: give --input ROOT or --runs FILE.csv (neither given)");
      BadInputException.require(output != null,
          "Cannot regress: --runs needs --output ROOT (where the table and the models go)");
    }

    /** The options as given on the command line: {@code output} defaults to {@code input}. */
    static Options of(String input, String output, String runs, long seed) {
      return new Options(Optional.ofNullable(input), output != null ? output : input, Optional.ofNullable(runs),
          seed);
    }
  }

  /** What a run did: the runs fitted and skipped, the in-sample error of each model, and where the models went. */
  public record Summary(long runs, long workloads, Map<RunTable.SkipReason, Long> skipped,
      Map<RegressionKind, Double> inSampleMapePct, Optional<Path> model) {}

  @Option(names = "--input", paramLabel = "ROOT",
      description = "Output root of features: reads ROOT/workloads, and ROOT/app_features when it exists."
          + " Required unless --runs is given (then it is only the default --output).")
  String input;

  @Option(names = "--output", paramLabel = "ROOT",
      description = "Output root of runtime_predictions and the models. Default: --input.")
  String output;

  @Option(names = "--runs", paramLabel = "FILE.csv",
      description = "A runtime table to fit instead of --input's tables: a CSV with a header naming workload_id,"
          + " input_bytes, executors, cores_per_executor, executor_memory_bytes (may be empty), duration_s.")
  String runs;

  @Option(names = "--seed", defaultValue = "1", paramLabel = "N",
      description = "GBT seed. Default: ${DEFAULT-VALUE}.")
  long seed;

  @Override
  public String appName() {
    return "perflab regress";
  }

  @Override
  public Work prepare() {
    Options options = Options.of(input, output, runs, seed);
    Preflight preflight = Preflight.of(ACTION);
    if (options.runs().isPresent()) {
      preflight.matches("--runs", options.runs().get());
    } else {
      preflight.featuresTable("--input", options.input().get(), FeatureTables.WORKLOADS_TABLE);
    }
    preflight.outputRoot("--output", options.output());
    return spark -> {
      LOG.info("Fitting runtime regressions on {} into {}", options.runs().or(options::input).get(),
          options.output());
      JobOutcome outcome = JobOutcome.printed(describe(spark, options, run(spark, options)));
      return outcome;
    };
  }

  /** Fits every {@link RegressionKind} on every run, writes the predictions and the models, and says what it did. */
  static Summary run(SparkSession spark, Options options) {
    Inputs inputs = inputs(spark, options);
    spark.sparkContext().setJobDescription("Fit runtime regressions");
    Dataset<Row> runs = inputs.runs().rows().coalesce(1).cache();
    long count = runs.count();
    if (count == 0) {
      return new Summary(0, 0, inputs.runs().skipped(), Map.of(), Optional.empty());
    }
    Dataset<Row> workloads = WorkloadFeatures.held(WorkloadFeatures.workloadFeatures(runs, inputs.appFeatures()));
    RegressionKind[] kinds = RegressionKind.values();
    // the kinds share nothing: fitted side by side, in kind order
    List<RuntimeModel> models = ParallelFits.run(kinds.length, ParallelFits.parallelism(spark.sparkContext(),
        kinds.length), k -> List.of(RuntimeRegression.fit(runs, workloads, kinds[k], options.seed())));
    Dataset<Row> predictions = null;
    for (RuntimeModel model : models) {
      Dataset<Row> rows = RuntimePredictions.rows(RuntimeRegression.predict(model, runs), model.kind());
      predictions = predictions == null ? rows : predictions.union(rows);
    }
    TableStore out = new TableStore(spark, options.output());
    // The predictions written are kept (cached) for the summary's errors, not read back from the table.
    Dataset<Row> written = predictions.coalesce(1).cache();
    try {
      out.overwrite(RuntimePredictions.NAME, written);
      Path saved = new ModelDirectory(out).replace(MODEL,
          directory -> RuntimeModelFiles.save(directory, models.get(0).workloadFeatures(), models),
          spark.sparkContext().applicationId());
      return new Summary(count, models.get(0).workloadFeatures().count(), inputs.runs().skipped(),
          inSampleMape(written), Optional.of(saved));
    } finally {
      written.unpersist();
      runs.unpersist();
    }
  }

  /** The runs, and {@code app_features} when they come from logs. */
  record Inputs(RunTable.Runs runs, Optional<Dataset<Row>> appFeatures) {}

  /** The runs of {@code --runs}, or of {@code --input}'s {@code workloads} with its {@code app_features}. */
  static Inputs inputs(SparkSession spark, Options options) {
    if (options.runs().isPresent()) {
      return new Inputs(RunTable.fromCsv(spark, options.runs().get()), Optional.empty());
    }
    String root = options.input().get();
    TableStore in = new TableStore(spark, root);
    Dataset<Row> workloads = in.read(FeatureTables.WORKLOADS_TABLE).orElseThrow(() -> new BadInputException(
        String.format("Cannot regress: no workloads table under %s (run perflab features --input %s first)", root,
            root)));
    return new Inputs(RunTable.fromWorkloads(workloads), in.read(FeatureTables.APP_FEATURES_TABLE));
  }

  private static Map<RegressionKind, Double> inSampleMape(Dataset<Row> predictions) {
    Map<String, Double> byLabel = predictions.groupBy(RuntimePredictions.PREDICTOR)
        .agg(avg(col(RuntimePredictions.ABS_ERROR_PCT))).collectAsList().stream()
        .collect(Collectors.toMap(r -> r.getString(0), r -> r.getDouble(1)));
    Map<RegressionKind, Double> mape = new EnumMap<>(RegressionKind.class);
    for (RegressionKind kind : RegressionKind.values()) {
      mape.put(kind, byLabel.get(kind.label()));
    }
    return mape;
  }

  private static String describe(SparkSession spark, Options options, Summary summary) {
    String source = options.runs().map(f -> "the runtime table " + f)
        .orElseGet(() -> "the workloads under " + options.input().get());
    List<String> lines = new ArrayList<>();
    if (summary.model().isEmpty()) {
      lines.add(String.format("regress: no usable run in %s; nothing fitted, no table written (earlier ones under %s "
          + "are left as they were)", source, options.output()));
      lines.addAll(indented(RunTable.describeSkipped(summary.skipped())));
      return String.join("\n", lines);
    }
    String mape = summary.inSampleMapePct().entrySet().stream()
        .map(e -> String.format(Locale.ROOT, "%s %.1f %%", e.getKey().label(), e.getValue()))
        .collect(Collectors.joining(", "));
    lines.add(String.format(Locale.ROOT, "regress: %d runs of %d workloads from %s; in-sample mean absolute error "
        + "(the runs fitted on; evaluate gives held-out errors): %s", summary.runs(), summary.workloads(), source,
        mape));
    lines.addAll(indented(RunTable.describeSkipped(summary.skipped())));
    lines.add(RunSummary.tables(spark, options.output(), List.of(RuntimePredictions.NAME)));
    lines.add("  model: " + summary.model().get());
    return String.join("\n", lines);
  }

  private static List<String> indented(List<String> lines) {
    return lines.stream().map(l -> "  " + l).toList();
  }
}
