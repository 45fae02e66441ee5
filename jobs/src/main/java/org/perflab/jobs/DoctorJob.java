package org.perflab.jobs;

import org.perflab.jobs.cli.Preflight;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.SparkEnv;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.perflab.jobs.cli.ExitCode;
import org.perflab.jobs.cli.JobOutcome;
import org.perflab.jobs.cli.SessionCommand;
import org.perflab.errors.BadInputException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code perflab doctor}: checks that a deployment can run PerfLab before a long job does. It starts a Spark
 * application on the given master, waits for the executors asked for, runs one tiny task per core on them, and checks
 * that each {@code --path} (an event-log archive, an output root) is reachable through its Hadoop FileSystem.
 * Prints one {@code key: value} line per finding on stdout.
 */
@Command(
    name = "doctor",
    mixinStandardHelpOptions = true,
    description = "Check the Spark deployment and archive access: executors come up, tasks run, paths are readable.")
public final class DoctorJob implements SessionCommand {

  /** The options of {@code doctor}. */
  public record DoctorOptions(int executors, Duration executorWait, List<String> paths) {
    public DoctorOptions {
      BadInputException.require(executors >= 0, "Cannot check executors: --executors is negative (%d; 0 or more)", executors);
      BadInputException.require(!executorWait.isNegative() && !executorWait.isZero(),
          "Cannot wait for executors: --executor-wait-seconds must be positive (%d)", executorWait.toSeconds());
      paths = List.copyOf(paths);
    }
  }

  @Option(names = "--executors", defaultValue = "0",
      description = "Executors (besides the driver) that must register; exit 1 if fewer do. Default: ${DEFAULT-VALUE}.")
  int executors;

  @Option(names = "--executor-wait-seconds", defaultValue = "60",
      description = "Seconds to wait for --executors to register. Default: ${DEFAULT-VALUE}.")
  long executorWaitSeconds;

  @Option(names = "--path", paramLabel = "PATH",
      description = "A path or glob on any Hadoop FileSystem (file://, hdfs://, s3a://) that must match something. Repeatable.")
  List<String> paths = new ArrayList<>();

  @Override
  public String appName() {
    return "perflab doctor";
  }

  @Override
  public Work prepare() {
    DoctorOptions options = new DoctorOptions(executors, Duration.ofSeconds(executorWaitSeconds), paths);
    Preflight preflight = Preflight.of("run doctor");
    options.paths().forEach(path -> preflight.matches("--path", path));
    return spark -> {
      ExitCode code = run(spark, options, System.out);
      return new JobOutcome(code, "doctor: " + (code == ExitCode.SUCCESS ? "ok" : "failed"));
    };
  }

  static ExitCode run(SparkSession spark, DoctorOptions options, PrintStream out) throws IOException, InterruptedException {
    JavaSparkContext context = JavaSparkContext.fromSparkContext(spark.sparkContext());
    out.println("spark_version: " + spark.version());
    out.println("master: " + context.master());
    out.println("application_id: " + context.sc().applicationId());
    // Set by submit/perflab, so that jobs such as corpus can launch further spark-submits.
    out.println("perflab_submit: " + System.getenv().getOrDefault("PERFLAB_SUBMIT", "unset"));
    out.println("perflab_home: " + System.getenv().getOrDefault("PERFLAB_HOME", "unset"));
    int registered = awaitExecutors(context, options);
    out.println("executors: " + registered);
    out.println("tasks_ran_on_executors: " + executorsRunningTasks(context));
    for (String path : options.paths()) {
      out.println("path: " + path + " -> " + describe(path, context.hadoopConfiguration()));
    }
    if (registered < options.executors()) {
      System.err.printf("Cannot find the executors asked for: %d of %d registered within %ds%n",
          registered, options.executors(), options.executorWait().toSeconds());
      return ExitCode.FAILURE;
    }
    return ExitCode.SUCCESS;
  }

  /** Waits until {@code options.executors()} executors besides the driver have registered; returns how many did. */
  private static int awaitExecutors(JavaSparkContext context, DoctorOptions options) throws InterruptedException {
    long deadline = System.nanoTime() + options.executorWait().toNanos();
    int registered = nonDriverExecutors(context);
    while (registered < options.executors() && System.nanoTime() < deadline) {
      Thread.sleep(200);
      registered = nonDriverExecutors(context);
    }
    return registered;
  }

  private static int nonDriverExecutors(JavaSparkContext context) {
    // The status tracker lists the driver too.
    return Math.max(0, context.sc().statusTracker().getExecutorInfos().length - 1);
  }

  /** Runs one task per default-parallelism slot; returns the sorted ids of the executors that ran them. */
  private static List<String> executorsRunningTasks(JavaSparkContext context) {
    int tasks = Math.max(1, context.defaultParallelism());
    return context.parallelize(IntStream.range(0, tasks).boxed().toList(), tasks)
        .map(task -> SparkEnv.get().executorId())
        .distinct()
        .collect()
        .stream()
        .sorted()
        .toList();
  }

  private static String describe(String path, Configuration hadoop) throws IOException {
    Path pattern = new Path(path);
    FileSystem fileSystem;
    try {
      fileSystem = pattern.getFileSystem(hadoop);
    } catch (org.apache.hadoop.fs.UnsupportedFileSystemException e) {
      throw new BadInputException("Cannot open --path: no FileSystem for its scheme on the classpath (" + path
          + "; for s3a:// add org.apache.hadoop:hadoop-aws, see README)", e);
    }
    FileStatus[] matches = fileSystem.globStatus(pattern);
    BadInputException.require(matches != null && matches.length > 0, "Cannot read --path: nothing matches (%s)", path);
    long files = 0;
    long bytes = 0;
    for (FileStatus match : matches) {
      var summary = fileSystem.getContentSummary(match.getPath());
      files += summary.getFileCount();
      bytes += summary.getLength();
    }
    return fileSystem.getScheme() + ", " + matches.length + " match(es), " + files + " file(s), " + bytes + " bytes";
  }
}
