package org.perflab.jobs;

import org.perflab.jobs.cli.ExitCode;
import org.perflab.jobs.cli.Preflight;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;
import org.perflab.errors.BadInputException;
import org.perflab.spark.storage.DeltaSessions;
import org.perflab.spark.workload.DataFiles;
import org.perflab.spark.workload.Injection;
import org.perflab.spark.workload.InjectionSpec;
import org.perflab.spark.workload.WorkloadPhase;
import org.perflab.spark.workload.PreparedData;
import org.perflab.spark.workload.Scale;
import org.perflab.spark.workload.SleepDistribution;
import org.perflab.spark.workload.SleepSpec;
import org.perflab.spark.workload.HiBenchWorkload;
import org.perflab.spark.workload.WorkloadResult;
import org.perflab.spark.workload.WorkloadSpec;
import org.perflab.spark.workload.WorkloadTags;
import org.perflab.spark.workload.HiBenchDefaults;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Runs one HiBench-style workload: {@code perflab [spark-submit options] workload --workload wordcount --scale tiny
 * --data-dir hdfs:///perflab/data}. The prepare phase generates the data set; the measured run is its own
 * application, tagged with the {@link WorkloadTags} keys. Prints {@code perflab.workload.app-id=<id>} when the
 * measured application starts and {@code perflab.workload.result ...} when it ends, for the corpus runner.
 */
@Command(
    name = "workload",
    mixinStandardHelpOptions = true,
    description = "Generate a HiBench-style data set and/or run one workload as a tagged Spark application.")
public final class WorkloadJob implements Callable<Integer> {
  private static final Logger LOG = LoggerFactory.getLogger(WorkloadJob.class);
  /** Printed on stdout when the measured application has started. */
  public static final String APP_ID_LINE = "perflab.workload.app-id=";
  /** Printed on stdout when the measured run has finished. */
  public static final String RESULT_LINE = "perflab.workload.result ";

  @Option(names = "--workload", description = "sort, wordcount, terasort, repartition, grep, sleep, stragglers, kmeans, "
      + "svm, pagerank, nweight, scan, join, aggregation (default: conf "
      + WorkloadTags.WORKLOAD + ")", paramLabel = "NAME")
  String workload;

  @Option(names = "--scale", description = "Scale profile: tiny, small, large, huge, gigantic, bigdata "
      + "(default: conf " + WorkloadTags.SCALE + ", else tiny)")
  String scale;

  @Option(names = "--phase", defaultValue = "all", description = "prepare, run or all (default: ${DEFAULT-VALUE})")
  String phase;

  @Option(names = "--data-dir", description = "Root of prepared data sets, any Hadoop FileSystem URI "
      + "(default: ${DEFAULT-VALUE})", defaultValue = "${sys:java.io.tmpdir}/perflab-data")
  String dataDir;

  @Option(names = "--partitions", defaultValue = "8",
      description = "Input files written by prepare and shuffle partitions of the run (default: ${DEFAULT-VALUE})")
  int partitions;

  @Option(names = "--seed", defaultValue = "42", description = "Seed of the data generators (default: ${DEFAULT-VALUE})")
  long seed;

  @Option(names = "--iterations", defaultValue = "0",
      description = "Iterations of KMeans, SVM, PageRank, hops of NWeight; 0 = the workload's default")
  int iterations;

  @Option(names = "--repetition", description = "Repetition number, 1-based (default: conf "
      + WorkloadTags.REPETITION + ", else 1)")
  Integer repetition;

  @Option(names = "--grid-point", description = "Grid point id (default: conf " + WorkloadTags.GRID_POINT
      + ", else <workload>-<scale>)")
  String gridPoint;

  @Option(names = "--force-prepare", description = "Regenerate the data set even if it is already prepared")
  boolean forcePrepare;

  @Option(names = "--sleep-tasks", description = "Sleep: tasks per stage (default: by scale, tiny 4)")
  Integer sleepTasks;

  @Option(names = "--sleep-stages", description = "Sleep: stages, chained by shuffles (default: by scale, tiny 2)")
  Integer sleepStages;

  @Option(names = "--sleep-distribution", defaultValue = "deterministic",
      description = "Sleep: task durations, deterministic, uniform or exponential (default: ${DEFAULT-VALUE})")
  String sleepDistribution;

  @Option(names = "--sleep-mean-ms", description = "Sleep: mean task duration, ms (default: by scale, tiny 500)")
  Long sleepMeanMs;

  @Option(names = "--sleep-min-ms", defaultValue = "0", description = "Sleep: uniform minimum, ms (default: 0)")
  long sleepMinMs;

  @Option(names = "--sleep-max-ms", defaultValue = "0",
      description = "Sleep: uniform maximum / exponential cap, ms (default: 0 = twice the mean for uniform, no cap)")
  long sleepMaxMs;

  @Option(names = "--fail-tasks", defaultValue = "0", description = "Sleep: the first N tasks of stage 0 fail their "
      + "first attempt; needs spark.task.maxFailures > 1 or local[N,F] (default: 0)")
  int failTasks;

  @Option(names = "--inject", defaultValue = "none", description = "Stragglers: what the injected tasks get, "
      + "none, data-skew, gc, cpu, spill or sleep (default: ${DEFAULT-VALUE})")
  String inject;

  @Option(names = "--inject-stages", defaultValue = "3",
      description = "Stragglers: injected stages, each its own job (default: ${DEFAULT-VALUE})")
  int injectStages;

  @Option(names = "--inject-tasks", defaultValue = "3",
      description = "Stragglers: injected partitions per injected stage, at most half of --partitions "
          + "(default: ${DEFAULT-VALUE})")
  int injectTasks;

  @Option(names = "--inject-factor", defaultValue = "4",
      description = "Stragglers: how much heavier an injected task is, at least 1 (default: ${DEFAULT-VALUE})")
  double injectFactor;

  @Override
  public Integer call() {
    SparkConf conf = new SparkConf();
    WorkloadOptions options = resolve(conf);
    preflight(options, conf);
    run(options);
    return ExitCode.SUCCESS.code();
  }

  /** Resolves flags against the spark-submit conf ({@code spark.perflab.*}) and validates them. */
  WorkloadOptions resolve(SparkConf conf) {
    try {
      String workloadName = workload != null ? workload : conf.get(WorkloadTags.WORKLOAD, null);
      BadInputException.require(workloadName != null,
          "Cannot run workload: no workload given (--workload or --conf %s; valid: %s)",
          WorkloadTags.WORKLOAD, HiBenchWorkload.validIds());
      HiBenchWorkload chosen = HiBenchWorkload.parse(workloadName);
      Scale chosenScale = Scale.parse(scale != null ? scale : conf.get(WorkloadTags.SCALE, "tiny"));
      int rep = repetition != null ? repetition : Integer.parseInt(conf.get(WorkloadTags.REPETITION, "1"));
      BadInputException.require(rep >= 1, "Cannot run workload: --repetition must be at least 1 (%d)", rep);
      String point = gridPoint != null ? gridPoint
          : conf.get(WorkloadTags.GRID_POINT, chosen.id() + "-" + chosenScale.profileName());
      WorkloadSpec spec = new WorkloadSpec(chosen, chosenScale, dataDir, partitions, seed, iterations,
          sleepSpec(chosenScale), injectionSpec(chosen, partitions));
      return new WorkloadOptions(spec, phase(), forcePrepare, rep, point);
    } catch (IllegalArgumentException e) {
      throw new BadInputException(e.getMessage().startsWith("Cannot") ? e.getMessage()
          : "Cannot run workload: bad option (" + e.getMessage() + ")", e);
    }
  }

  /**
   * Before any Spark application: the data root can be written, the event-log directory exists (created when
   * missing), and {@code --fail-tasks} runs on a master that retries tasks.
   */
  static void preflight(WorkloadOptions options, SparkConf conf) {
    Preflight preflight = Preflight.of("run workload")
        .outputRoot("--data-dir", options.spec().dataDir())
        .eventLogDirectory(conf);
    int failTasks = options.spec().sleep().failTasks();
    if (options.spec().workload() == HiBenchWorkload.SLEEP && failTasks > 0 && options.phase() != WorkloadPhase.PREPARE) {
      preflight.retriesTasks("--fail-tasks", failTasks, conf);
    }
  }

  private WorkloadPhase phase() {
    for (WorkloadPhase candidate : WorkloadPhase.values()) {
      if (candidate.name().equalsIgnoreCase(phase.trim())) {
        return candidate;
      }
    }
    throw new BadInputException("Cannot run workload: unknown --phase (" + phase + "; valid: prepare, run, all)");
  }

  private SleepSpec sleepSpec(Scale chosenScale) {
    SleepSpec defaults = HiBenchDefaults.sleepDefaults(chosenScale);
    SleepDistribution distribution = SleepDistribution.parse(sleepDistribution);
    long mean = sleepMeanMs != null ? sleepMeanMs : defaults.meanMs();
    long max = sleepMaxMs > 0 ? sleepMaxMs : distribution == SleepDistribution.UNIFORM ? 2 * mean : 0;
    return new SleepSpec(sleepTasks != null ? sleepTasks : defaults.tasks(),
        sleepStages != null ? sleepStages : defaults.stages(), distribution, mean, sleepMinMs, max, failTasks);
  }

  private InjectionSpec injectionSpec(HiBenchWorkload chosen, int taskCount) {
    InjectionSpec injection = new InjectionSpec(Injection.parse(inject), injectStages, injectTasks, injectFactor);
    if (chosen == HiBenchWorkload.STRAGGLERS) {
      injection.requireFits(taskCount);
    }
    return injection;
  }

  /** Runs the phases {@code options} asks for, each as its own Spark application. */
  static WorkloadResult run(WorkloadOptions options) {
    WorkloadSpec spec = options.spec();
    PreparedData data = new PreparedData(new DataFiles(hadoopConf()));
    if (options.phase() == WorkloadPhase.PREPARE || options.phase() == WorkloadPhase.ALL) {
      prepare(options, data);
    }
    if (options.phase() == WorkloadPhase.PREPARE) {
      return null;
    }
    BadInputException.require(data.isPrepared(spec),
        "Cannot run workload %s: its data set is not prepared (%s; run with --phase prepare first)",
        spec.workload().id(), spec.preparedMarker());
    return measure(options, data);
  }

  private static void prepare(WorkloadOptions options, PreparedData data) {
    WorkloadSpec spec = options.spec();
    if (!options.forcePrepare() && data.isPrepared(spec)) {
      LOG.info("Data set {} is already prepared", spec.datasetDir());
      return;
    }
    SparkSession.Builder builder = SparkSession.builder()
        .appName("perflab-prepare-" + spec.workload().dataset() + "-" + spec.scale().profileName())
        .config(WorkloadTags.PHASE, "prepare");
    if (options.phase() == WorkloadPhase.ALL) {
      builder.config("spark.eventLog.enabled", "false");
    }
    SparkSession spark = builder.getOrCreate();
    try {
      long bytes = data.prepare(spark, spec);
      LOG.info("Prepared {} ({} bytes)", spec.datasetDir(), bytes);
    } finally {
      spark.stop();
    }
  }

  private static WorkloadResult measure(WorkloadOptions options, PreparedData data) {
    WorkloadSpec spec = options.spec();
    long inputBytes = data.inputBytes(spec);
    data.clearOutput(spec);
    SparkConf submitted = new SparkConf();
    SparkSession.Builder builder = SparkSession.builder()
        .appName("perflab-" + spec.workload().id() + "-" + spec.scale().profileName())
        .config(WorkloadTags.WORKLOAD, spec.workload().id())
        .config(WorkloadTags.SCALE, spec.scale().profileName())
        .config(WorkloadTags.REPETITION, Integer.toString(options.repetition()))
        .config(WorkloadTags.INPUT_BYTES, Long.toString(inputBytes))
        .config(WorkloadTags.GRID_POINT, options.gridPoint())
        .config(WorkloadTags.PHASE, "run");
    if (!submitted.contains("spark.sql.shuffle.partitions")) {
      builder.config("spark.sql.shuffle.partitions", Integer.toString(spec.partitions()));
    }
    SparkSession spark = builder.getOrCreate();
    try {
      System.out.println(APP_ID_LINE + spark.sparkContext().applicationId());
      long start = System.currentTimeMillis();
      WorkloadResult result = spec.workload().runner().run(spark, spec);
      long wallMs = System.currentTimeMillis() - start;
      System.out.println(RESULT_LINE + "workload=" + spec.workload().id() + " records=" + result.outputRecords()
          + " input_bytes=" + inputBytes + " run_ms=" + wallMs + (result.detail().isEmpty() ? "" : " " + result.detail()));
      LOG.info("Workload {} at {} produced {} records in {} ms", spec.workload().id(), spec.scale().profileName(),
          result.outputRecords(), wallMs);
      return result;
    } finally {
      spark.stop();
    }
  }

  /** The Hadoop configuration the session will use ({@link DeltaSessions#hadoopConfiguration}), before it exists. */
  private static Configuration hadoopConf() {
    return DeltaSessions.hadoopConfiguration();
  }
}
