package org.perflab.jobs;

import org.perflab.jobs.cli.ExitCode;
import org.perflab.jobs.cli.Preflight;
import org.perflab.jobs.cli.RunSummary;
import org.perflab.jobs.cli.SessionCommand;
import org.perflab.jobs.cli.JobOutcome;
import org.perflab.jobs.cli.TextFiles;
import org.perflab.spark.sweep.SweepTables;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.spark.sql.SparkSession;
import org.perflab.costmodel.Codec;
import org.perflab.costmodel.PhaseCostInputs;
import org.perflab.costmodel.PhaseCostRule;
import org.perflab.spark.costmodel.PhaseCostSource;
import org.perflab.costmodel.SerializerKind;
import org.perflab.errors.BadInputException;
import org.perflab.spark.storage.TableStore;
import org.perflab.sim.Model;
import org.perflab.sim.ModelReader;
import org.perflab.sweep.BestPoint;
import org.perflab.sweep.Grid;
import org.perflab.sweep.GridReader;
import org.perflab.sweep.PointResult;
import org.perflab.sweep.ScalingRule;
import org.perflab.sweep.Statistic;
import org.perflab.sweep.Sweep;
import org.perflab.spark.sweep.SweepOutput;
import org.perflab.spark.sweep.SweepTrials;
import org.perflab.spark.sweep.SweptModels;
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

  /** The options of {@code sweep}; {@code grid} or the three lists give the grid, never both. */
  public record Options(String model, String grid, List<Integer> executors, List<Integer> cores,
      List<Double> memoryGb, List<Double> inputGb, int replications, Integer apps, double targetCi, Long seed,
      int taskCpus, String rule, Double deadlineS, Statistic deadlineStat, int partitionsPerPoint, String output,
      String dagModels, String appId, String costs, List<Codec> codecs, List<SerializerKind> serializers) {

    /** Options without codec or serializer axes. */
    public Options(String model, String grid, List<Integer> executors, List<Integer> cores, List<Double> memoryGb,
        List<Double> inputGb, int replications, Integer apps, double targetCi, Long seed, int taskCpus, String rule,
        Double deadlineS, Statistic deadlineStat, int partitionsPerPoint, String output, String dagModels,
        String appId, String costs) {
      this(model, grid, executors, cores, memoryGb, inputGb, replications, apps, targetCi, seed, taskCpus, rule,
          deadlineS, deadlineStat, partitionsPerPoint, output, dagModels, appId, costs, List.of(), List.of());
    }

    /** Options without {@code --costs} (any rule but phase-cost). */
    public Options(String model, String grid, List<Integer> executors, List<Integer> cores, List<Double> memoryGb,
        List<Double> inputGb, int replications, Integer apps, double targetCi, Long seed, int taskCpus, String rule,
        Double deadlineS, Statistic deadlineStat, int partitionsPerPoint, String output, String dagModels,
        String appId) {
      this(model, grid, executors, cores, memoryGb, inputGb, replications, apps, targetCi, seed, taskCpus, rule,
          deadlineS, deadlineStat, partitionsPerPoint, output, dagModels, appId, null);
    }

    /** Options of a grid without input sizes. */
    public Options(String model, String grid, List<Integer> executors, List<Integer> cores, List<Double> memoryGb,
        int replications, Integer apps, double targetCi, Long seed, int taskCpus, String rule, Double deadlineS,
        Statistic deadlineStat, int partitionsPerPoint, String output, String dagModels, String appId) {
      this(model, grid, executors, cores, memoryGb, List.of(), replications, apps, targetCi, seed, taskCpus, rule,
          deadlineS, deadlineStat, partitionsPerPoint, output, dagModels, appId);
    }

    public Options {
      BadInputException.require((model == null) != (dagModels == null),
          "Cannot sweep: give exactly one of --model FILE and --dag-models DIR (%s, %s)", model, dagModels);
      BadInputException.require((dagModels == null) == (appId == null),
          "Cannot sweep: --dag-models and --app-id go together (%s, %s)", dagModels, appId);
      BadInputException.require(!PhaseCostRule.NAME.equals(rule) || (dagModels != null && costs != null),
          "Cannot sweep: --rule phase-cost needs --dag-models DIR and --costs ROOT (%s, %s)", dagModels, costs);
      executors = List.copyOf(executors);
      cores = List.copyOf(cores);
      memoryGb = List.copyOf(memoryGb);
      inputGb = List.copyOf(inputGb);
      codecs = List.copyOf(codecs);
      serializers = List.copyOf(serializers);
      boolean listed = !executors.isEmpty() || !cores.isEmpty() || !memoryGb.isEmpty() || !inputGb.isEmpty()
          || !codecs.isEmpty() || !serializers.isEmpty();
      BadInputException.require(grid == null || !listed, "Cannot sweep: give either --grid or --executors/--cores/"
          + "--executor-memory-gb/--input-gb/--codecs/--serializers, not both (%s)", grid);
      BadInputException.require((codecs.isEmpty() && serializers.isEmpty()) || PhaseCostRule.NAME.equals(rule),
          "Cannot sweep: --codecs and --serializers need --rule phase-cost (%s; rule %s ignores them)",
          codecs.isEmpty() ? "--serializers " + serializers.stream().map(SerializerKind::shortName).toList()
              : "--codecs " + codecs.stream().map(Codec::shortName).toList(), rule);
      for (double gb : inputGb) {
        BadInputException.require(gb > 0 && Double.isFinite(gb), "Cannot sweep: --input-gb must be > 0 (%s)", gb);
      }
      BadInputException.require(grid != null || (!executors.isEmpty() && !cores.isEmpty()),
          "Cannot sweep: no grid (give --grid FILE, or --executors and --cores)");
      BadInputException.require(partitionsPerPoint >= 1,
          "Cannot sweep: --partitions-per-point must be >= 1 (%d)", partitionsPerPoint);
      BadInputException.require(deadlineS == null || deadlineS > 0,
          "Cannot sweep: --deadline must be > 0 seconds (%s)", deadlineS);
    }
  }

  /** What a sweep did, for logs and tests. */
  public record Summary(int points, int trials, long applications, long tasks, List<PointResult> results,
      List<BestPoint> best) {}

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
    Options options = options(appId);
    preflight(options);
    Sweep fromFile = options.model() != null ? plan(options) : null;
    return spark -> {
      Sweep sweep = fromFile != null ? fromFile : plan(spark, options);
      LOG.info("Sweeping {} grid points ({} trials) into {}", sweep.plans().size(), sweep.trials().size(),
          options.output());
      Summary summary = run(spark, sweep, options);
      return JobOutcome.printed(String.format("sweep: %d points, %d trials, %d applications, %d tasks simulated%n%s",
          summary.points(), summary.trials(), summary.applications(), summary.tasks(),
          RunSummary.tables(spark, options.output(), List.of(SweepTables.RESULTS_TABLE, SweepTables.BEST_TABLE))));
    };
  }

  private Options options(String app) {
    return new Options(model, grid, executors, cores, memoryGb, inputGb, replications, apps, targetCi,
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
      if (!apps.isEmpty()) {
        // the paths are the same for every run: bad ones fail the job, not one run
        preflight(options(apps.get(0)));
      }
      PerWorkload done = runPerWorkload(spark, apps, this::options);
      // a sweep that skipped every run wrote nothing, and must not name tables it did not write
      String written = done.swept() == 0 ? NOTHING_WRITTEN
          : RunSummary.tables(spark, output, List.of(SweepTables.RESULTS_TABLE, SweepTables.BEST_TABLE));
      return JobOutcome.printed(done.skipped().isEmpty() ? ExitCode.SUCCESS : ExitCode.BAD_INPUT,
          String.format("sweep: %d workload runs swept, %d skipped, %d points, %d trials%s%n%s",
              done.swept(), done.skipped().size(), done.points(), done.trials(), done.skippedLines(), written));
    };
  }

  /**
   * What a {@code --per-workload} sweep did.
   *
   * @param swept runs swept
   * @param skipped runs that could not be swept (bad input: no model, no stage costs, a setting the codec table did not
   *     measure), by app id, with the reason
   * @param points grid points simulated, over the swept runs
   * @param trials trials simulated
   */
  record PerWorkload(int swept, Map<String, String> skipped, int points, long trials) {
    /** One indented "skipped APP: REASON" line per skipped run, each after a line break; empty when none. */
    String skippedLines() {
      StringBuilder out = new StringBuilder();
      skipped.forEach((app, reason) -> out.append(String.format("%n  skipped %s: %s", app, reason)));
      return out.toString();
    }
  }

  /**
   * Sweeps each of {@code apps} with its options, one after the other, and then replaces each swept log's rows under
   * the rule, all of them in one commit per table and output root. The applications' models are read from
   * {@code dag_models} in one query. A run that is bad input is skipped, logged and counted with its reason (its old
   * rows stay); the others are still swept.
   */
  static PerWorkload runPerWorkload(SparkSession spark, List<String> apps,
      Function<String, Options> optionsOf) {
    int swept = 0;
    int points = 0;
    long trials = 0;
    Map<String, String> skipped = new LinkedHashMap<>();
    Map<String, List<SweepOutput.Result>> byOutput = new LinkedHashMap<>();
    Map<String, SweptModels.Models> modelsByTable = new HashMap<>();
    for (String app : apps) {
      Options options = optionsOf.apply(app);
      try {
        SweptModels.DagModel dagModel = modelsByTable.computeIfAbsent(options.dagModels(),
            dir -> SweptModels.models(spark, dir, apps)).model(app);
        Sweep sweep = plan(spark, options, dagModel);
        SweepOutput.Result result = simulate(spark, sweep, options, dagModel.swept());
        byOutput.computeIfAbsent(options.output(), root -> new ArrayList<>()).add(result);
        swept++;
        points += result.results().size();
        trials += sweep.trials().size();
      } catch (BadInputException e) {
        LOG.warn("Cannot sweep {}: {}", app, e.getMessage());
        skipped.put(app, e.getMessage());
      }
    }
    byOutput.forEach((root, results) -> new SweepOutput(spark, root).writeAll(results));
    return new PerWorkload(swept, skipped, points, trials);
  }

  /** The application to sweep for each workload and size class of the {@code dag_models} table under {@code dir}. */
  static List<String> latestPerWorkload(SparkSession spark, String dir) {
    return SweptModels.latestPerWorkload(spark, dir);
  }

  /** Checks every path before the model is read or Spark starts: schemes, the dag_models table, the output root. */
  static void preflight(Options options) {
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

  /** Reads the model and the grid and applies the rule to every point: all bad input surfaces here. */
  static Sweep plan(Options options) {
    return plan(options,
        ModelReader.parse(TextFiles.read(options.model(), "model " + options.model()), options.model()));
  }

  /** Reads the grid and applies the rule to every point of {@code base}: all bad input surfaces here. */
  static Sweep plan(Options options, Model base) {
    return plan(options, base, ScalingRule.named(options.rule(), 0L));
  }

  /**
   * The sweep of {@code options.appId()}'s model in the {@code dag_models} table (its input size for
   * {@code input-size}); with {@code --rule phase-cost}, the rule is built from the run's properties and
   * {@code stage_costs} under {@code options.costs()}, and what it covers is logged and printed.
   */
  static Sweep plan(SparkSession spark, Options options) {
    return plan(spark, options, SweptModels.model(spark, options.dagModels(), options.appId()));
  }

  /** {@link #plan(SparkSession, Options)} of {@code dagModel}, the model of {@code options.appId()} already read. */
  static Sweep plan(SparkSession spark, Options options, SweptModels.DagModel dagModel) {
    if (!PhaseCostRule.NAME.equals(options.rule())) {
      return plan(options, dagModel.model(), ScalingRule.named(options.rule(), dagModel.inputBytes()));
    }
    PhaseCostInputs.Built built = PhaseCostSource.build(spark, options.costs(), dagModel.model(),
        dagModel.swept().logId(), options.appId());
    RunSummary.print("sweep " + options.appId() + ": " + built.describe() + "\n");
    return plan(options, dagModel.model(), built.rule());
  }

  /** Reads the grid and applies {@code rule} to every point of {@code base}. */
  static Sweep plan(Options options, Model base, ScalingRule rule) {
    Grid g = options.grid() != null
        ? GridReader.parse(TextFiles.read(options.grid(), "grid " + options.grid()), options.grid())
        : new Grid(options.executors(), options.cores(), options.memoryGb(), gibToBytes(options.inputGb()),
            options.codecs(), options.serializers(), options.replications());
    int appsPerTrial = options.apps() != null ? options.apps() : base.maxJobs();
    long baseSeed = options.seed() != null ? options.seed() : base.seed();
    return Sweep.plan(base, g, rule, options.taskCpus(), baseSeed,
        appsPerTrial, options.targetCi());
  }

  private static List<Long> gibToBytes(List<Double> gib) {
    return gib.stream().map(gb -> Math.max(1L, Math.round(gb * GridReader.BYTES_PER_GB))).toList();
  }

  /**
   * Plans the sweep (from {@code --model}, else from the {@code dag_models} table) and runs it: the job's seam. The
   * command plans a model file before Spark starts instead, so that a bad model or grid costs no session.
   */
  static Summary run(SparkSession spark, Options options) {
    if (options.model() != null) {
      return run(spark, plan(options), options, SweepTables.Swept.MODEL_FILE);
    }
    SweptModels.DagModel dagModel = SweptModels.model(spark, options.dagModels(), options.appId());
    return run(spark, plan(spark, options, dagModel), options, dagModel.swept());
  }

  /** Runs the trials on Spark, writes both tables, and returns what was done. */
  static Summary run(SparkSession spark, Sweep sweep, Options options) {
    return run(spark, sweep, options, options.dagModels() == null ? SweepTables.Swept.MODEL_FILE
        : SweptModels.swept(spark, options.dagModels(), options.appId()));
  }

  /**
   * {@link #run(SparkSession, Sweep, Options)} of a sweep whose model's log and workload ({@code swept}) are known:
   * the {@code dag_models} table is read once.
   */
  private static Summary run(SparkSession spark, Sweep sweep, Options options, SweepTables.Swept swept) {
    SweepOutput out = new SweepOutput(spark, options.output());
    SweepOutput.Result result = simulate(spark, sweep, options, swept);
    out.writeAll(List.of(result));
    List<PointResult> results = result.results();
    List<BestPoint> best = result.best();
    long apps = results.stream().mapToLong(PointResult::applications).sum();
    long tasks = results.stream().mapToLong(PointResult::tasks).sum();
    return new Summary(results.size(), sweep.trials().size(), apps, tasks, results, best);
  }

  /** Runs the trials on Spark and picks the best points: what {@code swept}'s sweep writes. */
  private static SweepOutput.Result simulate(SparkSession spark, Sweep sweep, Options options,
      SweepTables.Swept swept) {
    List<PointResult> results = SweepTrials.run(spark, sweep, options.partitionsPerPoint());
    List<BestPoint> best = Sweep.best(results, options.deadlineStat(), options.deadlineS());
    if (options.deadlineS() != null && best.stream().noneMatch(b -> b.kind() == BestPoint.Kind.DEADLINE)) {
      LOG.warn("No grid point meets the deadline of {} s by {}", options.deadlineS(), options.deadlineStat());
    }
    return new SweepOutput.Result(swept, sweep.rule().name(), results, best);
  }

  static Statistic statistic(String text) {
    try {
      return Statistic.valueOf(text.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new BadInputException("Cannot sweep: --deadline-stat must be mean, p50, p90 or p99 (" + text + ")", e);
    }
  }
}
