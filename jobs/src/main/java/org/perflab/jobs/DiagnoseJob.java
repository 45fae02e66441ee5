package org.perflab.jobs;

import org.perflab.spark.environment.EffectiveProperties;
import org.perflab.jobs.cli.Preflight;
import org.perflab.jobs.cli.RunSummary;
import org.perflab.jobs.cli.SessionCommand;
import org.perflab.jobs.cli.JobOutcome;
import java.util.ArrayList;
import java.util.List;
import java.time.Clock;
import java.util.Locale;
import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.perflab.spark.diagnose.Diagnosis;
import org.perflab.spark.diagnose.GridSearch;
import org.perflab.spark.diagnose.GroundTruth;
import org.perflab.spark.diagnose.OsMetrics;
import org.perflab.spark.diagnose.StragglerCauses;
import org.perflab.spark.diagnose.StragglerTable;
import org.perflab.errors.BadInputException;
import org.perflab.spark.features.FeatureTables;
import org.perflab.spark.findings.FindingInputs;
import org.perflab.spark.findings.Findings;
import org.perflab.spark.findings.FindingsTable;
import org.perflab.spark.storage.ChangedLogs;
import org.perflab.spark.storage.OutputLock;
import org.perflab.spark.storage.TableStore;
import org.perflab.stragglers.PccThresholds;
import org.perflab.stragglers.StragglerThresholds;
import org.perflab.table.Table;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code perflab diagnose}: finds the stragglers of every application in the {@code ingest} tables and their root
 * causes (BigRoots, with the PCC baseline alongside), and writes {@code stragglers} and {@code straggler_causes};
 * with {@code --grid-search --ground-truth FILE}, also scores the Table 4 grids and writes {@code straggler_grid}.
 * With the {@code features} tables present it also writes {@code findings}. A run recomputes only the logs ingested
 * since its last run ({@code ChangedLogs}), unless {@code --full}. Options:
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
public final class DiagnoseJob implements SessionCommand {
  private static final Logger LOG = LoggerFactory.getLogger(DiagnoseJob.class);

  /** The job's name: its messages, its lock and its watermark. */
  static final String JOB = "diagnose";

  /** The options of {@code diagnose}; {@code osMetrics} and {@code groundTruth} null when not given. */
  public record Options(String input, String output, StragglerThresholds thresholds, PccThresholds pcc, String osMetrics,
      boolean full, String groundTruth) {
    public Options {
      output = output == null ? input : output;
    }

    boolean gridSearch() {
      return groundTruth != null;
    }
  }

  /**
   * What a run did: what it recomputed, the stragglers found in the recomputed logs and how many of them are
   * unexplained, the findings written (and whether the features tables let it write any), and the best grid cells
   * (empty without a search).
   */
  public record Summary(ChangedLogs.Plan plan, long stragglers, long unexplained, long findings,
      boolean findingsWritten, List<String> best) {}

  @Option(names = "--input", required = true, paramLabel = "ROOT", description = "Output root of ingest.")
  String input;

  @Option(names = "--output", paramLabel = "ROOT", description = "Output root of the tables. Default: --input.")
  String output;

  @Option(names = "--lambda-p", defaultValue = "" + StragglerThresholds.DEFAULT_LAMBDA_P, paramLabel = "X",
      description = "Peer multiplier, in [0, 4]. Default: ${DEFAULT-VALUE}.")
  double lambdaP;

  @Option(names = "--lambda-q", defaultValue = "" + StragglerThresholds.DEFAULT_LAMBDA_Q, paramLabel = "X",
      description = "Application quantile level, in [0.1, 1]. Default: ${DEFAULT-VALUE}.")
  double lambdaQ;

  @Option(names = "--lambda-t", defaultValue = "" + StragglerThresholds.DEFAULT_LAMBDA_T, paramLabel = "X",
      description = "Share of the task's duration a time feature must exceed, in [0, 1]. Default: ${DEFAULT-VALUE}.")
  double lambdaT;

  @Option(names = "--os-metrics", paramLabel = "PATH",
      description = "sar-style CSV of host utilisation (docs/stragglers.md); without it RESOURCE_CONTENTION is never"
          + " reported.")
  String osMetrics;

  @Option(names = "--full", description = "Recompute every application, not only the logs ingested since the last"
      + " run.")
  boolean full;

  @Option(names = "--grid-search", description = "Also score the Table 4 grids against --ground-truth.")
  boolean gridSearch;

  @Option(names = "--ground-truth", paramLabel = "FILE",
      description = "Labelled injected tasks, CSV or JSON lines (docs/stragglers.md); needs --grid-search.")
  String groundTruth;

  @Override
  public String appName() {
    return "perflab diagnose";
  }

  @Override
  public Work prepare() {
    BadInputException.require(gridSearch == (groundTruth != null),
        "Cannot diagnose: --grid-search and --ground-truth go together (%s)",
        gridSearch ? "--ground-truth missing" : "--grid-search missing");
    Options options = new Options(input, output, new StragglerThresholds(StragglerThresholds.DEFAULT_STRAGGLER_FACTOR, lambdaP, lambdaQ,
        lambdaT, StragglerThresholds.DEFAULT_LAMBDA_E, StragglerThresholds.DEFAULT_EDGE_WINDOW_S), PccThresholds.defaults(), osMetrics,
        full, groundTruth);
    Preflight preflight = Preflight.of("diagnose").ingestTables("--input", options.input(), Table.TASKS)
        .outputRoot("--output", options.output());
    if (osMetrics != null) {
      preflight.matches("--os-metrics", osMetrics);
    }
    if (groundTruth != null) {
      preflight.matches("--ground-truth", groundTruth);
    }
    return spark -> {
      LOG.info("Diagnosing the applications under {} into {}", options.input(), options.output());
      Summary summary = run(spark, Clock.systemUTC(), options);
      List<String> tables = new ArrayList<>(List.of(StragglerTable.NAME, StragglerCauses.NAME));
      if (summary.findingsWritten()) {
        tables.add(FindingsTable.NAME);
      }
      if (options.gridSearch()) {
        tables.add(GridSearch.NAME);
        summary.best().forEach(RunSummary::print);
      }
      JobOutcome outcome = JobOutcome.printed(describe(summary) + "\n" + RunSummary.tables(spark, options.output(), tables));
      return outcome;
    };
  }

  /**
   * Reads the tasks (and OS metrics, ground truth), runs the transforms and writes each table in one commit, holding
   * the output root's lock. Only the logs ingested since the last run are recomputed (their rows replaced), unless
   * {@code --full}, a missing output table, or a grid search (which needs every labelled task) makes the run full.
   * {@code findings} is written when the {@code features} tables exist, else skipped and said so.
   */
  public static Summary run(SparkSession spark, Clock clock, Options options) {
    TableStore input = new TableStore(spark, options.input());
    TableStore out = new TableStore(spark, options.output());
    ChangedLogs changed = new ChangedLogs(input, out, JOB, Findings.RULES_VERSION);
    try (OutputLock lock = OutputLock.acquire(out.fileSystem(), out.root(), JOB, clock)) {
      Optional<Dataset<Row>> appFeatures = derived(out, input, FeatureTables.APP_FEATURES_TABLE);
      Optional<Dataset<Row>> stageFeatures = derived(out, input, FeatureTables.STAGE_FEATURES_TABLE);
      boolean findings = appFeatures.isPresent() && stageFeatures.isPresent();
      List<String> tables = new ArrayList<>(List.of(StragglerTable.NAME, StragglerCauses.NAME));
      if (findings) {
        tables.add(FindingsTable.NAME);
      }
      ChangedLogs.Plan plan = changed.plan(options.full() || options.gridSearch(), tables);
      LOG.info("diagnose: {} ({})", plan.mode(), plan.reason());
      if (plan.mode() == ChangedLogs.Mode.UP_TO_DATE) {
        changed.commit(plan);
        return new Summary(plan, 0, 0, 0, findings, List.of());
      }
      Dataset<Row> tasks = plan.restrict(input.read(Table.TASKS).orElseThrow(() ->
          new BadInputException("Cannot diagnose: no ingest tables under " + options.input()
              + " (run perflab ingest --output " + options.input() + " first)")));
      Dataset<Row> os = options.osMetrics() == null ? null : OsMetrics.read(spark, options.osMetrics());
      Dataset<Row> features = Diagnosis.features(tasks, os, options.thresholds()).cache();
      // The stragglers written are reused (cached), not read back: reading the table again would list its files and
      // plan its scan anew in every query that uses it (causes, findings, counts).
      Dataset<Row> stragglers = Diagnosis.stragglers(features, options.thresholds(), options.pcc()).cache();
      try {
        changed.write(plan, StragglerTable.NAME, stragglers);
        changed.write(plan, StragglerCauses.NAME, StragglerCauses.of(stragglers));
        long findingRows = 0;
        if (findings) {
          FindingInputs in = new FindingInputs(plan.restrict(appFeatures.get()), plan.restrict(stageFeatures.get()),
              plan.restrict(input.read(Table.INGEST_STATUS).orElseThrow()),
              plan.restrict(EffectiveProperties.read(input).orElseThrow()),
              input.read(Table.SQL_OPERATORS).map(plan::restrict), Optional.of(stragglers),
              input.read(Table.JOBS).map(plan::restrict), input.read(Table.STAGES).map(plan::restrict));
          // One partition: the findings are a union of every rule's rows (27 partitions), small, and each task of a
          // stage over them deserialised the whole union's plan (1.2 s of the samples' 2 s of findings tasks).
          Dataset<Row> found = Findings.compute(in).coalesce(1).cache();
          try {
            findingRows = found.count();
            changed.write(plan, FindingsTable.NAME, found);
          } finally {
            found.unpersist();
          }
        }
        List<String> best = List.of();
        if (options.gridSearch()) {
          out.overwrite(GridSearch.NAME, Diagnosis.grid(features,
              GroundTruth.read(spark, options.groundTruth()), options.thresholds()).coalesce(1));
          best = GridSearch.bestCells(out.read(GridSearch.NAME).orElseThrow()).collectAsList().stream()
              .map(DiagnoseJob::bestLine).toList();
        }
        Row counts = StragglerTable.counts(stragglers).first();
        changed.commit(plan);
        return new Summary(plan, counts.getLong(0), counts.getLong(1), findingRows, findings, best);
      } finally {
        stragglers.unpersist();
        features.unpersist();
      }
    }
  }

  /** A table a derived job wrote: under the output root, else under the input root; empty when neither has it. */
  private static Optional<Dataset<Row>> derived(TableStore out, TableStore input, String table) {
    Optional<Dataset<Row>> rows = out.read(table);
    return rows.isPresent() ? rows : input.read(table);
  }

  /** The summary's first line, e.g. "diagnose: incremental run (2 logs changed since R): 14 stragglers, ...". */
  static String describe(Summary summary) {
    ChangedLogs.Plan plan = summary.plan();
    String how = switch (plan.mode()) {
      case FULL -> "full run";
      case INCREMENTAL -> "incremental run";
      case UP_TO_DATE -> "up to date";
    };
    String findings = summary.findingsWritten() ? summary.findings() + " findings"
        : "findings skipped: no app_features and stage_features (run perflab features first)";
    return String.format(Locale.ROOT, "diagnose: %s (%s): %d stragglers, %d unexplained; %s", how, plan.reason(),
        summary.stragglers(), summary.unexplained(), findings);
  }

  /** The summary line of a best cell of {@code straggler_grid}. */
  private static String bestLine(Row cell) {
    return String.format(Locale.ROOT, "diagnose: best %s threshold=%s quantile=%s tpr=%.4f fpr=%.4f score=%.4f",
        cell.<String>getAs("model"), cell.<Double>getAs("threshold"), cell.<Double>getAs("quantile"),
        cell.<Double>getAs("tpr"), cell.<Double>getAs("fpr"), cell.<Double>getAs("score"));
  }
}
