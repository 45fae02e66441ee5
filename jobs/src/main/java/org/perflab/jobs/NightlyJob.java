package org.perflab.jobs;

import java.io.PrintWriter;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;
import org.perflab.errors.BadInputException;
import org.perflab.jobs.cli.BuildInfo;
import org.perflab.jobs.cli.ExitCode;
import org.perflab.jobs.cli.JobOutcome;
import org.perflab.jobs.cli.JobSession;
import org.perflab.jobs.cli.Preflight;
import org.perflab.jobs.cli.RunSummary;
import org.perflab.jobs.cli.SessionCommand;
import org.perflab.jobs.nightly.ArchiveSize;
import org.perflab.jobs.nightly.Night;
import org.perflab.jobs.nightly.NightMemory;
import org.perflab.jobs.nightly.NightOptions;
import org.perflab.jobs.nightly.Pipeline;
import org.perflab.jobs.nightly.SessionSteps;
import org.perflab.jobs.nightly.StepRecord;
import org.perflab.jobs.nightly.StepRunner;
import org.perflab.jobs.nightly.SubmitSteps;
import org.perflab.jobs.nightly.TableWrites;
import org.perflab.spark.changes.ChangeTables;
import org.perflab.spark.changes.LatestRegressions;
import org.perflab.spark.nightly.NightlyRuns;
import org.perflab.spark.storage.DeltaSessions;
import org.perflab.spark.storage.OutputLock;
import org.perflab.spark.storage.SessionConf;
import org.perflab.spark.storage.TableStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code perflab nightly}: the nightly pipeline ({@link Pipeline}) in one Spark application: every step runs in this
 * driver's session, one after the other, while the driver holds the output root's nightly lock. A failed step is
 * reported and its dependents skipped; the others run. Exit code: 0 when every step exited 0 or 2, 1 when a step
 * failed or was skipped for a failed dependency, 2 for the night's own bad options (before any step).
 * Options: docs/jobs.md; operation: docs/operations.md.
 */
@Command(
    name = "nightly",
    mixinStandardHelpOptions = true,
    description = "Run the nightly pipeline (ingest, maintain, features, ..., report) in one Spark application.")
public final class NightlyJob implements SessionCommand {
  private static final Logger LOG = LoggerFactory.getLogger(NightlyJob.class);
  private static final DateTimeFormatter RUN_ID = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
      .withZone(ZoneOffset.UTC);

  @ParentCommand
  PerfLab perflab;

  @Option(names = "--archive", paramLabel = "PATH",
      description = "Event-log archive: a path or glob on any Hadoop file system (repeatable).")
  List<String> archives = new ArrayList<>();

  @Option(names = "--output", paramLabel = "ROOT",
      description = "Output root: ingest writes its tables here, the later steps read and write here.")
  String output;

  @Option(names = "--jobs", split = ",", paramLabel = "JOB",
      description = "Run only these steps of the pipeline (default: all of them, in pipeline order).")
  List<String> jobs = new ArrayList<>();

  @Option(names = "--full", description = "Re-ingest every log and recompute the incremental tables (default: "
      + "ingest --incremental, which skips logs already ingested unchanged).")
  boolean full;

  @Option(names = "--separate", description = "Run each step as a submission of its own through submit/perflab (a"
      + " driver per step, as before the nightly job), with the SPARK-OPTIONs given after --.")
  boolean separate;

  /** Steps that may run at once in one application, unless --concurrent-steps says otherwise. */
  static final int CONCURRENT_STEPS = 2;

  @Option(names = "--concurrent-steps", paramLabel = "N", description = "Run up to N steps at the same time, each"
      + " in a thread of the night's driver, when neither reads or writes a table the other writes (default: "
      + CONCURRENT_STEPS + "; 1 runs the steps one after the other; with --separate, always 1: a submission at a"
      + " time).")
  Integer concurrentSteps;

  @Parameters(paramLabel = "SPARK-OPTION", description = "With --separate, after --: spark-submit options of every"
      + " step's submission, e.g. -- --master yarn --conf K=V.")
  List<String> sparkOptions = new ArrayList<>();

  Clock clock = Clock.systemUTC();

  @Override
  public String appName() {
    return "perflab nightly";
  }

  @Override
  public Work prepare() {
    NightOptions night = options();
    Preflight preflight = Preflight.of("run the nightly pipeline").outputRoot("--output", night.output());
    if (night.runs("ingest")) {
      night.archives().forEach(archive -> preflight.matches("--archive", archive));
    }
    if (!separate) {
      BadInputException.require(sparkOptions.isEmpty(), "Cannot run the nightly pipeline: spark-submit options after"
          + " -- go with --separate; give them to submit/perflab before the job's name (%s)", sparkOptions);
      return spark -> SessionConf.unlessSet(spark, nightSettings(spark, night), () -> runNight(spark, night,
          new SessionSteps(spark, PerfLab::sessionCommand, verbose(), new PrintWriter(System.err, true))));
    }
    String launcher = System.getenv(SubmitSteps.LAUNCHER);
    BadInputException.require(launcher != null && !launcher.isBlank(), "Cannot run the nightly pipeline with"
        + " --separate: %s is not set (run it through submit/perflab or submit/nightly)", SubmitSteps.LAUNCHER);
    return spark -> runNight(spark, night, new SubmitSteps(launcher, sparkOptions));
  }

  /** The night's options, validated: an archive, an output root, and only steps of the pipeline. */
  NightOptions options() {
    BadInputException.require(!archives.isEmpty(), "Cannot run the nightly pipeline: no --archive given");
    BadInputException.require(output != null && !output.isBlank(),
        "Cannot run the nightly pipeline: no --output given");
    Set<String> only = new LinkedHashSet<>();
    for (String job : jobs) {
      String name = job.trim();
      BadInputException.require(Pipeline.step(name).isPresent(),
          "Cannot use --jobs: not a job of the pipeline (%s; one of %s)", name, String.join(" ", Pipeline.jobs()));
      only.add(name);
    }
    BadInputException.require(concurrentSteps == null || (concurrentSteps >= 1 && concurrentSteps <= 16),
        "Cannot use --concurrent-steps: not between 1 and 16 (%s)", concurrentSteps);
    BadInputException.require(!separate || concurrentSteps == null || concurrentSteps == 1, "Cannot use"
        + " --concurrent-steps with --separate: each step's submission takes the output root's lock alone, so they run"
        + " one at a time (%s; 1)", concurrentSteps);
    int atOnce = concurrentSteps != null ? concurrentSteps : separate ? 1 : CONCURRENT_STEPS;
    return new NightOptions(archives, output, full, only, atOnce);
  }

  /**
   * Runs the night while holding the nightly lock, and in one application the jobs' lock too, shared with its steps
   * ({@link OutputLock#shareInThisProcess}: steps that run at once each take it); prints its summary; exit 1 when a
   * step failed or was skipped.
   */
  JobOutcome runNight(SparkSession spark, NightOptions night, StepRunner steps) throws java.io.IOException {
    Path root = new Path(night.output());
    FileSystem fs = root.getFileSystem(spark.sparkContext().hadoopConfiguration());
    try (OutputLock lock = OutputLock.acquire(fs, root, OutputLock.NIGHTLY_FILE_NAME, "nightly", clock);
        OutputLock jobsLock = separate ? null
            : OutputLock.acquire(fs, root, OutputLock.FILE_NAME, "nightly", clock).shareInThisProcess()) {
      System.err.println("nightly: holding the nightly lock " + lock.file());
      String runId = RUN_ID.format(clock.instant());
      BuildInfo build = BuildInfo.current();
      Night.Summary summary = new Night(night, steps, new TableWrites(fs, root), recorder(spark, night),
          new NightMemory(fs, root), build.version() + " (" + build.gitCommit() + ")", System.err, clock).run(runId);
      RunSummary.print(Night.describe(summary, night.output(), regressed(spark, night, summary)).stripTrailing());
      if (summary.usable("report")) {
        System.out.println("report: " + night.output() + "/report/index.html");
      }
      ExitCode code = summary.exitCode() == 0 ? ExitCode.SUCCESS : ExitCode.FAILURE;
      return new JobOutcome(code, String.format("nightly: run %s, %d steps, exit %d", runId, summary.steps().size(),
          code.code()));
    }
  }

  /**
   * What regressed: {@link LatestRegressions#summaryLines} when the night's {@code regressions} step ran and committed
   * to its table (so its latest run is this night's); none otherwise.
   */
  static List<String> regressed(SparkSession spark, NightOptions night, Night.Summary summary) {
    boolean judged = summary.steps().stream().anyMatch(s -> s.step().equals(RegressionsJob.JOB) && s.usable()
        && s.rowsWritten().containsKey(ChangeTables.REGRESSIONS_TABLE));
    return judged ? new TableStore(spark, night.output()).read(ChangeTables.REGRESSIONS_TABLE)
        .map(LatestRegressions::summaryLines).orElse(List.of()) : List.of();
  }

  /**
   * Delta's auto compaction off for the night, when the night runs {@code maintain}. In one driver, Delta compacts a
   * table after its first commit in the JVM whatever its count of small files (docs/tables.md, "Bounded files"), so
   * every table a step wrote was rewritten whole right after: an {@code OPTIMIZE} commit and about a second of Spark
   * jobs per table, some twenty a night. {@code maintain}, the night's second step, compacts every table that holds
   * {@link org.perflab.spark.storage.Maintenance#DEFAULT_COMPACT_MIN_FILES} files or more instead, so the files a
   * night leaves stay bounded.
   */
  static final Map<String, String> NO_AUTO_COMPACTION = Map.of(DeltaSessions.AUTO_COMPACT_ENABLED, "false");

  /**
   * The settings the night runs with, each unless the user set it: {@link JobSession#INTERPRETED_SQL} (also in a session
   * the night did not create), {@link #smallShuffles},
   * over a small archive {@link #SMALL_ARCHIVE_SQL}, and when the night runs {@code maintain}
   * {@link #NO_AUTO_COMPACTION}.
   */
  static Map<String, String> nightSettings(SparkSession spark, NightOptions night) {
    Map<String, String> settings = new java.util.HashMap<>(JobSession.INTERPRETED_SQL);
    if (night.runs("maintain")) {
      settings.putAll(NO_AUTO_COMPACTION);
    }
    boolean small = smallArchive(spark, night);
    if (small) {
      settings.putAll(SMALL_ARCHIVE_SQL);
    }
    if (small || spark.sparkContext().isLocal()) {
      settings.putAll(smallShuffles(spark));
    }
    return settings;
  }

  /**
   * Archives of at most this many bytes of event logs are small: 64 MiB, Spark's advisory partition size for adaptive
   * execution ({@code spark.sql.adaptive.advisoryPartitionSizeInBytes}): the tables a night derives from so few logs
   * shuffle a few such partitions at most, which a fixed two partitions per core hold as well.
   */
  static final long SMALL_ARCHIVE_BYTES = 64L << 20;

  /**
   * Adaptive query execution off, over a small archive: its shuffles have nothing to coalesce or split, while it
   * re-plans every query after each of its stages, and a night runs some 700 Spark jobs. The README's night over the
   * ten samples took 85.9 s against 93.8 s with it (eight pairs of nights, alternating, the same tables;
   * docs/benchmarks.md). Shuffles then keep a fixed count: two partitions per core ({@link #nightSettings}).
   */
  static final Map<String, String> SMALL_ARCHIVE_SQL = Map.of("spark.sql.adaptive.enabled", "false");

  private static final String SHUFFLE_PARTITIONS = "spark.sql.shuffle.partitions";

  /**
   * Whether the night's archives hold at most {@link #SMALL_ARCHIVE_BYTES}; false, with a warning, when they cannot be
   * listed (ingest then says why).
   */
  static boolean smallArchive(SparkSession spark, NightOptions night) {
    try {
      return ArchiveSize.atMost(spark.sparkContext().hadoopConfiguration(), night.archives(),
          SMALL_ARCHIVE_BYTES);
    } catch (java.io.IOException | RuntimeException e) {
      LOG.warn("Cannot size the archives: {} (adaptive execution stays as the session has it)", e.getMessage());
      return false;
    }
  }

  /**
   * Shuffles in two partitions per core instead of Spark's 200 (unless the user set
   * {@code spark.sql.shuffle.partitions}): on a local master, whose one machine's cores run them all while a night's
   * steps shuffle small tables in many short jobs, and over a small archive on any master. Otherwise, on a cluster, the
   * user's or Spark's setting stays.
   */
  static Map<String, String> smallShuffles(SparkSession spark) {
    return Map.of(SHUFFLE_PARTITIONS, Integer.toString(2 * spark.sparkContext().defaultParallelism()));
  }

  /**
   * Keeps the night's records in {@code nightly_runs}, in the night's session, under job group perflab-nightly: creates
   * the table while the first step runs (on a first night, the table's creation and Delta's first commit cost the
   * driver seconds), then appends each call's rows in one commit.
   */
  private static Night.Recorder recorder(SparkSession spark, NightOptions night) {
    return new Night.Recorder() {
      @Override
      public void record(List<StepRecord> records) {
        NightlyJob.record(spark, night, records);
      }

      @Override
      public void prepare() {
        inNightGroup(spark, "nightly: create nightly_runs", () -> NightlyRuns.create(spark, night.output()));
      }
    };
  }

  /**
   * Appends steps' rows to {@code nightly_runs} in one commit, in the night's session, under job group
   * perflab-nightly.
   */
  private static void record(SparkSession spark, NightOptions night, List<StepRecord> steps) {
    String names = steps.stream().map(StepRecord::step).collect(java.util.stream.Collectors.joining(", "));
    inNightGroup(spark, "nightly " + steps.get(0).runId() + ": record " + names,
        () -> NightlyRuns.append(spark, night.output(), steps.stream().map(step -> NightlyRuns.row(step.runId(),
            step.step(), step.startedAt(), step.seconds(), step.exitCode().orElse(null), step.rowsWritten(),
            step.message(), step.skippedReason().orElse(null))).toList()));
  }

  /**
   * Runs {@code work} in this thread (the recorder's) with the night's session active and its Spark jobs under job
   * group perflab-nightly, described by {@code description}; the group is cleared after.
   */
  private static void inNightGroup(SparkSession spark, String description, Runnable work) {
    SparkSession.setActiveSession(spark);
    spark.sparkContext().setJobGroup("perflab-nightly", description, false);
    try {
      work.run();
    } finally {
      spark.sparkContext().clearJobGroup();
    }
  }

  private boolean verbose() {
    return perflab != null && perflab.verbose;
  }
}
