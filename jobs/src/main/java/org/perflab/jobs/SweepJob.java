package org.perflab.jobs;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.perflab.costmodel.Codec;
import org.perflab.costmodel.SerializerKind;
import org.perflab.errors.BadInputException;
import org.perflab.jobs.cli.ExitCode;
import org.perflab.jobs.cli.JobOutcome;
import org.perflab.jobs.cli.Preflight;
import org.perflab.jobs.cli.RunSummary;
import org.perflab.jobs.cli.SessionCommand;
import org.perflab.jobs.cli.TextFiles;
import org.perflab.sim.Model;
import org.perflab.sim.ModelReader;
import org.perflab.spark.sweep.SweepOptions;
import org.perflab.spark.sweep.SweepRun;
import org.perflab.spark.sweep.SweepTables;
import org.perflab.spark.sweep.SweptModels;
import org.perflab.sweep.Grid;
import org.perflab.sweep.GridReader;
import org.perflab.sweep.ScalingRule;
import org.perflab.sweep.Statistic;
import org.perflab.sweep.Sweep;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code perflab sweep}: simulates a model over a grid of executors × cores per executor (× executor memory) ×
 * replications, fanning trials out over Spark partitions, and writes {@code sweep_results} and {@code sweep_best}
 * under {@code --output}. The grid and model are checked before any trial runs. Options: docs/jobs.md.
 */
@Command(
    name = "sweep",
    mixinStandardHelpOptions = true,
    description = "Monte Carlo sweep of a simulator model over executors x cores (x memory) x replications.")
public final class SweepJob implements SessionCommand {
  private static final Logger LOG = LoggerFactory.getLogger(SweepJob.class);

  @Option(names = "--model", paramLabel = "FILE",
      description = "Simulator model (JSON, see docs/simulator.md); its time unit is taken as seconds.")
  String model;

  @Option(names = "--dag-models", paramLabel = "DIR",
      description = "Instead of --model: the dag_models table written by the model job; with --app-id.")
  String dagModels;

  @Option(names = "--app-id", paramLabel = "ID", description = "With --dag-models: the application to sweep.")
  String appId;

  @Option(names = "--per-workload", description = "With --dag-models, instead of --app-id: sweep the latest run "
      + "(greatest app id) of each workload and input-size class of the table, one after the other.")
  boolean perWorkload;

  @Option(names = "--costs", paramLabel = "ROOT",
      description = "With --rule phase-cost: the root holding the ingest properties table and stage_costs.")
  String costs;

  @Option(names = "--grid", paramLabel = "FILE",
      description = "Grid file: {\"executors\": [..], \"coresPerExecutor\": [..], \"executorMemoryGb\": [..], "
          + "\"inputGb\": [..], \"replications\": N}. Excludes --executors, --cores, --executor-memory-gb, "
          + "--input-gb.")
  String grid;

  @Option(names = "--executors", split = ",", paramLabel = "N[,N...]", description = "Executor counts.")
  List<Integer> executors = new ArrayList<>();

  @Option(names = "--cores", split = ",", paramLabel = "N[,N...]", description = "Cores per executor.")
  List<Integer> cores = new ArrayList<>();

  @Option(names = "--executor-memory-gb", split = ",", paramLabel = "GB[,GB...]",
      description = "Executor memory sizes in GB (optional grid dimension; adds gb_hours).")
  List<Double> memoryGb = new ArrayList<>();

  @Option(names = "--input-gb", split = ",", paramLabel = "GB[,GB...]",
      description = "Input sizes in GiB (optional grid dimension; needs --rule input-size).")
  List<Double> inputGb = new ArrayList<>();

  @Option(names = "--codecs", split = ",", paramLabel = "CODEC[,CODEC...]",
      description = "Shuffle compression codecs (spark.io.compression.codec: lz4, lzf, snappy, zstd; optional grid "
          + "dimension; needs --rule phase-cost, which takes their costs from the shipped codec cost table).")
  List<String> codecs = new ArrayList<>();

  @Option(names = "--serializers", split = ",", paramLabel = "java|kryo",
      description = "Serializers (spark.serializer; optional grid dimension; needs --rule phase-cost).")
  List<String> serializers = new ArrayList<>();

  @Option(names = "--replications", defaultValue = "1", paramLabel = "N",
      description = "Independent trials per grid point (ignored with --grid, which sets its own). "
          + "Default: ${DEFAULT-VALUE}.")
  int replications;

  @Option(names = "--apps", paramLabel = "N",
      description = "Applications simulated per trial at most. Default: the model's maxJobs.")
  Integer apps;

  @Option(names = "--target-ci", defaultValue = "0", paramLabel = "R",
      description = "Stop a point once its execution-time CI half-width is about R × mean (each trial stops at "
          + "R·√replications); 0 runs --apps per trial. Default: ${DEFAULT-VALUE}.")
  double targetCi;

  @Option(names = "--seed", paramLabel = "N", description = "Base seed. Default: the model's seed.")
  Long seed;

  @Option(names = "--task-cpus", defaultValue = "1", paramLabel = "N",
      description = "spark.task.cpus: slots = executors × cores ÷ N. Default: ${DEFAULT-VALUE}.")
  int taskCpus;

  @Option(names = "--rule", defaultValue = ScalingRule.Baseline.NAME, paramLabel = "NAME",
      description = "Scaling rule from grid point to model: baseline (slots change, task durations do not), "
          + "input-size (slots and input size change) or phase-cost (task durations from the phase cost model; "
          + "needs --dag-models and --costs). Default: ${DEFAULT-VALUE}.")
  String rule;

  @Option(names = "--deadline", paramLabel = "SECONDS",
      description = "Also report the cheapest point whose --deadline-stat is at most this many seconds.")
  Double deadline;

  @Option(names = "--deadline-stat", defaultValue = "mean", paramLabel = "mean|p50|p90|p99",
      description = "Execution-time statistic for --deadline and the Pareto front. Default: ${DEFAULT-VALUE}.")
  String deadlineStat;

  @Option(names = "--partitions-per-point", defaultValue = "1", paramLabel = "N",
      description = "Spark partitions per grid point (results do not depend on it). Default: ${DEFAULT-VALUE}.")
  int partitionsPerPoint;

  @Option(names = "--output", required = true, paramLabel = "DIR",
      description = "Output root; writes DIR/sweep_results and DIR/sweep_best (Delta; the swept log's rows are replaced).")
  String output;

  @Override
  public String appName() {
    return "perflab sweep";
  }

  @Override
  public Work prepare() {
    if (perWorkload) {
      return preparePerWorkload();
    }
    SweepOptions options = options(appId);
    preflight(options);
    Sweep fromFile = options.model() != null ? plan(options) : null;
    return spark -> {
      SweepRun.Summary summary = run(spark, options, fromFile);
      return JobOutcome.printed(String.format("sweep: %d points, %d trials, %d applications, %d tasks simulated%n%s",
          summary.points(), summary.trials(), summary.applications(), summary.tasks(),
          RunSummary.tables(spark, options.output(), List.of(SweepTables.RESULTS_TABLE, SweepTables.BEST_TABLE))));
    };
  }

  private SweepOptions options(String app) {
    return new SweepOptions(model, grid, executors, cores, memoryGb, inputGb, replications, apps, targetCi,
        seed, taskCpus, rule, deadline, statistic(deadlineStat), partitionsPerPoint, output, dagModels, app, costs,
        codecs.stream().map(Codec::parse).toList(), serializers.stream().map(SerializerKind::parse).toList());
  }

  /** The summary's last line when a {@code --per-workload} sweep skipped every run. */
  static final String NOTHING_WRITTEN = "  tables: none written (no run swept)";

  /** {@code --per-workload}: one sweep per workload and size class, each replacing its swept log's rows. */
  private Work preparePerWorkload() {
    BadInputException.require(dagModels != null && appId == null && model == null,
        "Cannot sweep: --per-workload needs --dag-models DIR and neither --app-id nor --model (%s, %s, %s)",
        dagModels, appId, model);
    return spark -> {
      List<String> apps = latestPerWorkload(spark, dagModels);
      SweepRun.PerWorkload done = new SweepRun.PerWorkload(0, Map.of(), 0, 0);
      if (!apps.isEmpty()) {
        // the paths are the same for every run: bad ones fail the job, not one run
        SweepOptions first = options(apps.get(0));
        preflight(first);
        done = SweepRun.runPerWorkload(spark, apps, this::options, grid(first), RunSummary::print);
      }
      // a sweep that skipped every run wrote nothing, and must not name tables it did not write
      String written = done.swept() == 0 ? NOTHING_WRITTEN
          : RunSummary.tables(spark, output, List.of(SweepTables.RESULTS_TABLE, SweepTables.BEST_TABLE));
      return JobOutcome.printed(done.skipped().isEmpty() ? ExitCode.SUCCESS : ExitCode.BAD_INPUT,
          String.format("sweep: %d workload runs swept, %d skipped, %d points, %d trials%s%n%s",
              done.swept(), done.skipped().size(), done.points(), done.trials(), done.skippedLines(), written));
    };
  }

  /** The application to sweep for each workload and size class of the {@code dag_models} table under {@code dir}. */
  static List<String> latestPerWorkload(SparkSession spark, String dir) {
    return SweptModels.latestPerWorkload(spark, dir);
  }

  /** Checks every path before the model is read or Spark starts: schemes, the dag_models table, the output root. */
  static void preflight(SweepOptions options) {
    Preflight preflight = Preflight.of("sweep");
    if (options.model() != null) {
      preflight.scheme("--model", options.model());
    }
    if (options.grid() != null) {
      preflight.scheme("--grid", options.grid());
    }
    if (options.dagModels() != null) {
      preflight.directory("--dag-models", options.dagModels(), "the dag_models table that perflab model --output DIR"
          + " writes as DIR/dag_models");
    }
    if (options.costs() != null) {
      preflight.directory("--costs", options.costs(), "the root holding the ingest properties table and the"
          + " stage_costs table that perflab stage-costs writes");
    }
    preflight.outputRoot("--output", options.output());
  }

  /** The grid: read from {@code --grid}, else the one the lists give. */
  static Grid grid(SweepOptions options) {
    return options.grid() != null
        ? GridReader.parse(TextFiles.read(options.grid(), "grid " + options.grid()), options.grid())
        : options.listedGrid();
  }

  /** Reads the model file and the grid and applies the rule to every point: all bad input surfaces here. */
  static Sweep plan(SweepOptions options) {
    Model base = ModelReader.parse(TextFiles.read(options.model(), "model " + options.model()), options.model());
    return plan(options, base);
  }

  /** Reads the grid and applies the rule to every point of {@code base}: all bad input surfaces here. */
  static Sweep plan(SweepOptions options, Model base) {
    return SweepRun.plan(options, base, ScalingRule.named(options.rule(), 0L), grid(options));
  }

  /**
   * The sweep of {@code options.appId()}'s model in the {@code dag_models} table (its input size for
   * {@code input-size}); with {@code --rule phase-cost}, what the rule covers is printed.
   */
  static Sweep plan(SparkSession spark, SweepOptions options) {
    return SweepRun.plan(spark, options, grid(options),
        SweptModels.model(spark, options.dagModels(), options.appId()), RunSummary::print);
  }

  /**
   * Plans the sweep (from {@code --model}, else from the {@code dag_models} table) and runs it: the job's seam. The
   * command plans a model file before Spark starts instead, so that a bad model or grid costs no session.
   */
  static SweepRun.Summary run(SparkSession spark, SweepOptions options) {
    return run(spark, options, options.model() != null ? plan(options) : null);
  }

  /**
   * Runs {@code fromFile}, the sweep of a {@code --model} file already planned; when null, plans the sweep of the
   * {@code dag_models} table's model first, reading the table once (the model, and the log and workload the rows are
   * written under).
   */
  private static SweepRun.Summary run(SparkSession spark, SweepOptions options, Sweep fromFile) {
    SweptModels.DagModel dagModel = fromFile != null ? null
        : SweptModels.model(spark, options.dagModels(), options.appId());
    Sweep sweep = fromFile != null ? fromFile
        : SweepRun.plan(spark, options, grid(options), dagModel, RunSummary::print);
    LOG.info("Sweeping {} grid points ({} trials) into {}", sweep.plans().size(), sweep.trials().size(),
        options.output());
    return SweepRun.run(spark, sweep, options, dagModel == null ? SweepTables.Swept.MODEL_FILE : dagModel.swept());
  }

  /** Runs the trials of a planned sweep on Spark and writes both tables. */
  static SweepRun.Summary run(SparkSession spark, Sweep sweep, SweepOptions options) {
    return SweepRun.run(spark, sweep, options, options.dagModels() == null ? SweepTables.Swept.MODEL_FILE
        : SweptModels.swept(spark, options.dagModels(), options.appId()));
  }

  static Statistic statistic(String text) {
    try {
      return Statistic.valueOf(text.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new BadInputException("Cannot sweep: --deadline-stat must be mean, p50, p90 or p99 (" + text + ")", e);
    }
  }
}
