package org.perflab.jobs;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.perflab.diagnose.Diagnosis;
import org.perflab.diagnose.GridSearch;
import org.perflab.diagnose.GroundTruth;
import org.perflab.diagnose.OsMetrics;
import org.perflab.diagnose.StragglerCauses;
import org.perflab.diagnose.StragglerTable;
import org.perflab.errors.BadInputException;
import org.perflab.storage.DeltaSessions;
import org.perflab.storage.TableStore;
import org.perflab.stragglers.PccThresholds;
import org.perflab.stragglers.Thresholds;
import org.perflab.table.Table;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code perflab diagnose}: finds the stragglers of every application in the {@code ingest} tables and their root
 * causes (BigRoots, with the PCC baseline alongside), and writes {@code stragglers} and {@code straggler_causes};
 * with {@code --grid-search --ground-truth FILE}, also scores the Table 4 grids and writes {@code straggler_grid}.
 * Every run recomputes every application (the incremental wiring comes with the record of changed logs). Options:
 * docs/jobs.md#diagnose; rules: docs/stragglers.md.
 *
 * <pre>
 * submit/perflab diagnose --input /perflab/out [--lambda-p 1.5] [--lambda-q 0.9] [--os-metrics sar.csv]
 * </pre>
 */
@Command(
    name = "diagnose",
    mixinStandardHelpOptions = true,
    description = "Find stragglers and their root causes in the ingest tables.")
public final class DiagnoseJob implements Callable<Integer> {
  private static final Logger LOG = LoggerFactory.getLogger(DiagnoseJob.class);

  /** The options of {@code diagnose}; {@code osMetrics} and {@code groundTruth} null when not given. */
  public record Options(String input, String output, Thresholds thresholds, PccThresholds pcc, String osMetrics,
      boolean full, String groundTruth) {
    public Options {
      output = output == null ? input : output;
    }

    boolean gridSearch() {
      return groundTruth != null;
    }
  }

  /** What a run wrote: stragglers found, of which unexplained, and the best grid cells (empty without a search). */
  public record Summary(long stragglers, long unexplained, List<String> best) {}

  @Option(names = "--input", required = true, paramLabel = "ROOT", description = "Output root of ingest.")
  String input;

  @Option(names = "--output", paramLabel = "ROOT", description = "Output root of the tables. Default: --input.")
  String output;

  @Option(names = "--lambda-p", defaultValue = "" + Thresholds.DEFAULT_LAMBDA_P, paramLabel = "X",
      description = "Peer multiplier, in [0, 4]. Default: ${DEFAULT-VALUE}.")
  double lambdaP;

  @Option(names = "--lambda-q", defaultValue = "" + Thresholds.DEFAULT_LAMBDA_Q, paramLabel = "X",
      description = "Application quantile level, in [0.1, 1]. Default: ${DEFAULT-VALUE}.")
  double lambdaQ;

  @Option(names = "--lambda-t", defaultValue = "" + Thresholds.DEFAULT_LAMBDA_T, paramLabel = "X",
      description = "Share of the task's duration a time feature must exceed, in [0, 1]. Default: ${DEFAULT-VALUE}.")
  double lambdaT;

  @Option(names = "--os-metrics", paramLabel = "PATH",
      description = "sar-style CSV of host utilisation (docs/stragglers.md); without it RESOURCE_CONTENTION is never"
          + " reported.")
  String osMetrics;

  @Option(names = "--full", description = "Recompute every application (today every run does).")
  boolean full;

  @Option(names = "--grid-search", description = "Also score the Table 4 grids against --ground-truth.")
  boolean gridSearch;

  @Option(names = "--ground-truth", paramLabel = "FILE",
      description = "Labelled injected tasks, CSV or JSON lines (docs/stragglers.md); needs --grid-search.")
  String groundTruth;

  @Override
  public Integer call() {
    BadInputException.require(gridSearch == (groundTruth != null),
        "Cannot diagnose: --grid-search and --ground-truth go together (%s)",
        gridSearch ? "--ground-truth missing" : "--grid-search missing");
    Options options = new Options(input, output, new Thresholds(Thresholds.DEFAULT_STRAGGLER_FACTOR, lambdaP, lambdaQ,
        lambdaT, Thresholds.DEFAULT_LAMBDA_E, Thresholds.DEFAULT_EDGE_WINDOW_S), PccThresholds.defaults(), osMetrics,
        full, groundTruth);
    Preflight preflight = Preflight.of("diagnose").ingestTables("--input", options.input(), Table.TASKS)
        .outputRoot("--output", options.output());
    if (osMetrics != null) {
      preflight.matches("--os-metrics", osMetrics);
    }
    if (groundTruth != null) {
      preflight.matches("--ground-truth", groundTruth);
    }
    boolean ownSession = SparkSession.getActiveSession().isEmpty() && SparkSession.getDefaultSession().isEmpty();
    SparkSession spark = DeltaSessions.builder("perflab diagnose").getOrCreate();
    try {
      LOG.info("Diagnosing the applications under {} into {} (full recompute)", options.input(), options.output());
      Summary summary = run(spark, options);
      List<String> tables = new ArrayList<>(List.of(StragglerTable.NAME, StragglerCauses.NAME));
      if (options.gridSearch()) {
        tables.add(GridSearch.NAME);
        summary.best().forEach(RunSummary::print);
      }
      RunSummary.print(String.format(Locale.ROOT, "diagnose: %d stragglers, %d unexplained (full recompute)%n%s",
          summary.stragglers(), summary.unexplained(), RunSummary.tables(spark, options.output(), tables)));
      return ExitCode.SUCCESS.code();
    } finally {
      if (ownSession) {
        spark.stop();
      }
    }
  }

  /** Reads the tasks (and OS metrics, ground truth), runs the transforms, writes each table in one commit. */
  public static Summary run(SparkSession spark, Options options) {
    Dataset<Row> tasks = new TableStore(spark, options.input()).read(Table.TASKS).orElseThrow(() ->
        new BadInputException("Cannot diagnose: no ingest tables under " + options.input()
            + " (run perflab ingest --output " + options.input() + " first)"));
    Dataset<Row> os = options.osMetrics() == null ? null : OsMetrics.read(spark, options.osMetrics());
    Dataset<Row> features = Diagnosis.features(tasks, os, options.thresholds()).cache();
    TableStore out = new TableStore(spark, options.output());
    try {
      out.overwrite(StragglerTable.NAME, Diagnosis.stragglers(features, options.thresholds(), options.pcc()));
      Dataset<Row> stragglers = out.read(StragglerTable.NAME).orElseThrow();
      out.overwrite(StragglerCauses.NAME, StragglerCauses.of(stragglers));
      List<String> best = List.of();
      if (options.gridSearch()) {
        out.overwrite(GridSearch.NAME, Diagnosis.grid(features,
            GroundTruth.read(spark, options.groundTruth()), options.thresholds()).coalesce(1));
        best = out.read(GridSearch.NAME).orElseThrow().filter("best").orderBy("model").collectAsList().stream()
            .map(DiagnoseJob::bestLine).toList();
      }
      // both counts in one job
      Row counts = stragglers.selectExpr("count(*)", "count_if(size(causes) = 0)").first();
      return new Summary(counts.getLong(0), counts.getLong(1), best);
    } finally {
      features.unpersist();
    }
  }

  private static String bestLine(Row r) {
    return String.format(Locale.ROOT, "diagnose: best %s threshold=%s quantile=%s tpr=%.4f fpr=%.4f score=%.4f",
        r.getString(0), r.getDouble(1), r.getDouble(2), r.getDouble(7), r.getDouble(8), r.getDouble(10));
  }
}
