package org.perflab.jobs;

import org.perflab.jobs.cli.ExitCode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.perflab.spark.corpus.CorpusGrid;
import org.perflab.spark.corpus.CorpusRunner;
import org.perflab.spark.corpus.CorpusSettings;
import org.perflab.spark.corpus.CorpusSummary;
import org.perflab.spark.corpus.GridFile;
import org.perflab.errors.BadInputException;
import org.perflab.spark.storage.DeltaSessions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Runs a grid of workload applications and collects their event logs:
 * {@code submit/perflab corpus --grid hibench-configs/sweeps/local-smoke.json --event-log-dir /tmp/corpus}.
 * It creates no SparkSession: each grid point is its own spark-submit through the launcher ({@code PERFLAB_SUBMIT}),
 * so every measured run is a separate application with its own event log. Exits 1 when any run failed.
 */
@Command(
    name = "corpus",
    mixinStandardHelpOptions = true,
    description = "Run a grid of workloads (one spark-submit per point) and collect their event logs.")
public final class CorpusCommand implements Callable<Integer> {
  static final String MANIFEST_NAME = "_perflab_corpus.csv";

  @Option(names = "--grid", required = true, description = "Grid definition (JSON), e.g. hibench-configs/sweeps/local-smoke.json")
  Path gridFile;

  @Option(names = "--event-log-dir", required = true,
      description = "spark.eventLog.dir of every run: file://, hdfs://, or a local path")
  String eventLogDir;

  @Option(names = "--manifest", description = "Run manifest CSV (default: <event-log-dir>/" + MANIFEST_NAME + ")")
  String manifest;

  @Option(names = "--work-dir", description = "Run logs and local-cluster state "
      + "(default: <PERFLAB_HOME>/.perflab/corpus/<grid name>, else <tmp>/perflab-corpus/<grid name>)")
  Path workDir;

  @Option(names = "--data-dir", description = "Prepared data sets, any Hadoop FileSystem URI (default: <work-dir>/data)")
  String dataDir;

  @Option(names = "--submit", description = "Launcher (default: $PERFLAB_SUBMIT, else <PERFLAB_HOME>/submit/perflab)")
  Path submit;

  @Option(names = "--local-cluster", description = "Standalone cluster script "
      + "(default: local-cluster beside the launcher)")
  Path localCluster;

  @Option(names = "--timeout-seconds", description = "Limit of every spark-submit, seconds, over the grid's timeoutSeconds (default: the grid's)")
  Integer timeoutSeconds;

  @Option(names = "--resume", description = "Skip grid points the manifest already records as OK")
  boolean resume;

  @Option(names = "--dry-run", description = "Print the spark-submit commands, run nothing")
  boolean dryRun;

  @Override
  public Integer call() {
    CorpusOptions options = resolve(System.getenv());
    Configuration hadoop = DeltaSessions.hadoopConfiguration();
    CorpusSummary summary =
        new CorpusRunner(options.grid(), options.settings(), hadoop, System.out, Clock.systemUTC()).run();
    return summary.failed() > 0 ? ExitCode.FAILURE.code() : ExitCode.SUCCESS.code();
  }

  /** Reads the grid and resolves every default against {@code env} ({@code PERFLAB_SUBMIT}, {@code PERFLAB_HOME}). */
  CorpusOptions resolve(Map<String, String> env) {
    CorpusGrid grid = GridFile.read(gridFile);
    BadInputException.require(timeoutSeconds == null || timeoutSeconds >= 1,
        "Cannot run corpus: --timeout-seconds must be at least 1 (%s)", timeoutSeconds);
    Path home = Path.of(env.getOrDefault("PERFLAB_HOME", "")).toAbsolutePath();
    Path launcher = submit != null ? submit
        : env.containsKey("PERFLAB_SUBMIT") ? Path.of(env.get("PERFLAB_SUBMIT")) : home.resolve("submit/perflab");
    BadInputException.require(Files.isExecutable(launcher),
        "Cannot run corpus: the launcher is not an executable file (%s; set PERFLAB_SUBMIT or --submit)", launcher);
    Path clusterScript = localCluster != null ? localCluster
        : launcher.toAbsolutePath().resolveSibling("local-cluster");
    Path work = workDir != null ? workDir.toAbsolutePath() : defaultWorkRoot(env, home).resolve(grid.name());
    createDirectories(work);
    String events = qualify(eventLogDir);
    CorpusSettings settings = new CorpusSettings(List.of(launcher.toAbsolutePath().toString()), clusterScript, work,
        events, qualify(dataDir != null ? dataDir : work.resolve("data").toString()),
        manifest != null ? qualify(manifest) : events + "/" + MANIFEST_NAME,
        timeoutSeconds != null ? timeoutSeconds : 0, resume, dryRun);
    return new CorpusOptions(gridFile, grid, settings);
  }

  /** {@code <PERFLAB_HOME>/.perflab/corpus} when the launcher set PERFLAB_HOME, else under {@code java.io.tmpdir}. */
  private static Path defaultWorkRoot(Map<String, String> env, Path home) {
    return env.containsKey("PERFLAB_HOME") ? home.resolve(".perflab/corpus")
        : Path.of(System.getProperty("java.io.tmpdir"), "perflab-corpus").toAbsolutePath();
  }

  private static String qualify(String path) {
    try {
      org.apache.hadoop.fs.Path target = new org.apache.hadoop.fs.Path(path);
      return target.getFileSystem(DeltaSessions.hadoopConfiguration()).makeQualified(target).toString();
    } catch (IOException | IllegalArgumentException e) {
      throw new BadInputException("Cannot run corpus: cannot resolve path " + path + " (" + e.getMessage() + ")", e);
    }
  }

  private static void createDirectories(Path dir) {
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot create work directory " + dir + ": " + e.getMessage(), e);
    }
  }
}
