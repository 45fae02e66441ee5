package org.perflab.jobs;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.perflab.errors.BadInputException;
import org.perflab.features.FeatureInputs;
import org.perflab.features.FeatureTables;
import org.perflab.features.Workloads;
import org.perflab.prediction.EvalSummary;
import org.perflab.prediction.Evaluation;
import org.perflab.prediction.PredictionTables;
import org.perflab.prediction.Predictors;
import org.perflab.prediction.RunTable;
import org.perflab.storage.DeltaSessions;
import org.perflab.storage.OutputLock;
import org.perflab.storage.TableStore;
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
public final class EvaluateJob implements Callable<Integer> {
  private static final Logger LOG = LoggerFactory.getLogger(EvaluateJob.class);
  static final String JOB = "evaluate";

  /** The options of {@code evaluate}. */
  public record Options(String input, String output, Optional<String> runs, long seed,
      Optional<String> workloadProperty) {}

  /** What a run did: runs used, rows skipped by reason, workloads skipped with their reasons, the summary rows. */
  public record Summary(long runs, Map<RunTable.SkipReason, Long> skippedRows, Map<String, String> skippedWorkloads,
      List<Row> summary) {}

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

  @Override
  public Integer call() {
    Options options = new Options(input, output == null ? input : output, Optional.ofNullable(runs), seed,
        Optional.ofNullable(workloadProperty));
    Preflight preflight = Preflight.of(JOB).outputRoot("--output", options.output());
    if (options.runs().isPresent()) {
      preflight.matches("--runs", options.runs().get());
    } else {
      preflight.ingestTables("--input", options.input(), FeatureInputs.TABLES);
    }
    boolean ownSession = SparkSession.getActiveSession().isEmpty() && SparkSession.getDefaultSession().isEmpty();
    SparkSession spark = DeltaSessions.builder("perflab evaluate").getOrCreate();
    try {
      LOG.info("Evaluating the runtime predictors on {} into {}", options.runs().orElse(options.input()),
          options.output());
      long start = System.nanoTime();
      Summary summary = run(spark, Clock.systemUTC(), options);
      RunSummary.print(describe(summary, (System.nanoTime() - start) / 1e9) + "\n"
          + RunSummary.tables(spark, options.output(), PredictionTables.NAMES));
      return ExitCode.SUCCESS.code();
    } finally {
      if (ownSession) {
        spark.stop();
      }
    }
  }

  /** Reads the runs, evaluates every workload, and writes the three tables holding the output root's lock. */
  public static Summary run(SparkSession spark, Clock clock, Options options) {
    TableStore out = new TableStore(spark, options.output());
    RunTable.Runs runs = runs(spark, options);
    Dataset<Row> rows = runs.rows().cache();
    long count = rows.count();
    spark.sparkContext().setJobGroup("perflab-evaluate", "Evaluate the runtime predictors", false);
    Evaluation.Result result = Evaluation.evaluate(spark, rows, (w, models) -> Predictors.runtimeOnly());
    List<Row> evalRows = result.rows().collectAsList();
    List<Row> summary = EvalSummary.of(evalRows, result.skipped());
    try (OutputLock lock = OutputLock.acquire(out.fileSystem(), out.root(), JOB, clock)) {
      out.overwrite(PredictionTables.EVAL_TABLE,
          spark.createDataFrame(evalRows, PredictionTables.EVAL).coalesce(1));
      out.overwrite(PredictionTables.SUMMARY_TABLE,
          spark.createDataFrame(summary, PredictionTables.SUMMARY).coalesce(1));
      out.overwrite(PredictionTables.CHOICE_TABLE, result.choices().coalesce(1));
    } finally {
      rows.unpersist();
    }
    return new Summary(count, runs.skipped(), result.skipped(), summary);
  }

  /** The runs: from {@code --runs}, else from {@code workloads} (built from the ingest tables when missing). */
  static RunTable.Runs runs(SparkSession spark, Options options) {
    if (options.runs().isPresent()) {
      return RunTable.fromCsv(spark, options.runs().get());
    }
    TableStore in = new TableStore(spark, options.input());
    Dataset<Row> workloads = in.read(FeatureTables.WORKLOADS_TABLE).orElseGet(() ->
        Workloads.of(FeatureInputs.read(in, JOB), options.workloadProperty()));
    return RunTable.fromWorkloads(workloads);
  }

  static String describe(Summary s, double seconds) {
    List<String> lines = new ArrayList<>();
    lines.add(String.format(Locale.ROOT, "evaluate: %d runs, %d workloads skipped, %.1f s", s.runs(),
        s.skippedWorkloads().size(), seconds));
    RunTable.describeSkipped(s.skippedRows()).forEach(l -> lines.add("  " + l));
    lines.add(EvalSummary.format(s.summary()).stripTrailing());
    return String.join("\n", lines);
  }

}
