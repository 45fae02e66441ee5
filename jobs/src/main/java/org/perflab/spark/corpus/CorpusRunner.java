package org.perflab.spark.corpus;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.perflab.spark.workload.DataFiles;
import org.perflab.spark.workload.PreparedData;
import org.perflab.spark.workload.Scale;
import org.perflab.spark.workload.HiBenchWorkload;
import org.perflab.spark.workload.WorkloadSpec;
import org.perflab.spark.workload.HiBenchDefaults;

/**
 * Runs a grid: prepares each data set once, then submits one measured application per grid point, in order, each
 * with a timeout. Failures are recorded and the sweep goes on. The manifest is rewritten after every run and progress
 * is printed to {@code out} as runs complete.
 */
public final class CorpusRunner {
  private final CorpusGrid grid;
  private final CorpusSettings settings;
  private final Configuration hadoop;
  private final PrintStream out;
  private final Clock clock;
  private final SubmitCommands commands;

  public CorpusRunner(CorpusGrid grid, CorpusSettings settings, Configuration hadoop, PrintStream out, Clock clock) {
    this.grid = grid;
    this.settings = settings;
    this.hadoop = hadoop;
    this.out = out;
    this.clock = clock;
    this.commands = new SubmitCommands(settings.submit(), grid, settings.eventLogDir(), settings.dataDir());
  }

  public CorpusSummary run() {
    Manifest manifest = new Manifest(settings.manifest(), hadoop);
    Map<String, ManifestRow> rows = settings.resume() ? manifest.load() : new LinkedHashMap<>();
    List<CorpusPoint> all = grid.points();
    List<CorpusPoint> todo = all.stream()
        .filter(point -> !(rows.containsKey(point.id()) && rows.get(point.id()).status() == RunStatus.OK))
        .toList();
    int skipped = all.size() - todo.size();
    if (settings.dryRun()) {
      return dryRun(all.size(), skipped, todo);
    }
    out.printf("corpus: %d grid points, %d to run, %d already done; manifest %s%n",
        all.size(), todo.size(), skipped, manifest.path());
    mkdirs(settings.eventLogDir());
    Map<String, Boolean> prepared = prepare(todo);
    LocalCluster cluster = grid.needsLocalCluster() ? new LocalCluster(settings.localClusterScript(), grid.cluster(),
        settings.workDir().resolve("local-cluster"), timeoutMs(grid.timeoutSeconds())) : null;
    String clusterMaster = null;
    int succeeded = 0;
    Instant start = clock.instant();
    try {
      for (int k = 0; k < todo.size(); k++) {
        CorpusPoint point = todo.get(k);
        if (point.masterKind() == MasterKind.LOCAL_CLUSTER && clusterMaster == null) {
          clusterMaster = startCluster(cluster);
        }
        ManifestRow row = runPoint(point, prepared, clusterMaster);
        rows.put(point.id(), row);
        manifest.write(rows.values());
        succeeded += row.status() == RunStatus.OK ? 1 : 0;
        progress(k + 1, todo.size(), row, start);
      }
    } finally {
      if (cluster != null) {
        cluster.stopIfStarted();
      }
    }
    CorpusSummary summary = new CorpusSummary(all.size(), skipped, succeeded, todo.size() - succeeded);
    out.printf("corpus: done, %d OK, %d failed, %d skipped; manifest %s%n",
        summary.succeeded(), summary.failed(), summary.skipped(), manifest.path());
    return summary;
  }

  private CorpusSummary dryRun(int points, int skipped, List<CorpusPoint> todo) {
    PreparedData data = new PreparedData(new DataFiles(hadoop));
    for (WorkloadSpec spec : datasets(todo).values()) {
      if (!data.isPrepared(spec)) {
        out.println(SubmitCommands.shellLine(commands.prepare(spec.workload(), spec.scale())));
      }
    }
    for (CorpusPoint point : todo) {
      out.println(SubmitCommands.shellLine(commands.run(point, SubmitCommands.LOCAL_CLUSTER_PLACEHOLDER)));
    }
    return new CorpusSummary(points, skipped, 0, 0);
  }

  /** Prepares every data set the points need, once; returns whether each (by dataset directory) is ready. */
  private Map<String, Boolean> prepare(List<CorpusPoint> todo) {
    PreparedData data = new PreparedData(new DataFiles(hadoop));
    Map<String, Boolean> ready = new LinkedHashMap<>();
    for (WorkloadSpec spec : datasets(todo).values()) {
      boolean ok = data.isPrepared(spec);
      if (!ok) {
        String name = spec.workload().dataset() + "-" + spec.scale().profileName();
        java.nio.file.Path log = settings.workDir().resolve("prepare").resolve(name + ".log");
        RunOutcome outcome =
            ProcessRunner.run(commands.prepare(spec.workload(), spec.scale()), log, timeoutMs(grid.timeoutSeconds()));
        ok = outcome.exitCode() == 0 && data.isPrepared(spec);
        out.printf("corpus: prepared %s in %.1f s: %s%n", name, outcome.wallTimeMs() / 1000.0,
            ok ? "OK" : "FAILED (exit " + outcome.exitCode() + ", see " + log + ")");
      }
      ready.put(spec.datasetDir(), ok);
    }
    return ready;
  }

  /** One spec per data set and scale the points read, keyed by its directory. */
  private Map<String, WorkloadSpec> datasets(List<CorpusPoint> points) {
    Map<String, WorkloadSpec> specs = new LinkedHashMap<>();
    for (CorpusPoint point : points) {
      WorkloadSpec spec = spec(point.workload(), point.scale());
      if (point.workload().runner().needsInput()) {
        specs.putIfAbsent(spec.datasetDir(), spec);
      }
    }
    return specs;
  }

  private WorkloadSpec spec(HiBenchWorkload workload, Scale scale) {
    return new WorkloadSpec(workload, scale, settings.dataDir(), grid.partitions(), grid.seed(), 0,
        HiBenchDefaults.sleepDefaults(scale));
  }

  private String startCluster(LocalCluster cluster) {
    try {
      String master = cluster.start();
      out.println("corpus: local cluster at " + master);
      return master;
    } catch (RuntimeException e) {
      out.println("corpus: " + e.getMessage());
      return "";
    }
  }

  private ManifestRow runPoint(CorpusPoint point, Map<String, Boolean> prepared, String clusterMaster) {
    Instant startedAt = clock.instant();
    WorkloadSpec spec = spec(point.workload(), point.scale());
    String master = master(point, clusterMaster);
    java.nio.file.Path log = settings.workDir().resolve("runs").resolve(point.id() + ".log");
    if (point.workload().runner().needsInput() && !prepared.getOrDefault(spec.datasetDir(), false)) {
      return row(point, master, RunStatus.PREPARE_FAILED, new RunOutcome(-1, false, 0, ""), startedAt, log);
    }
    if (point.masterKind() == MasterKind.LOCAL_CLUSTER && clusterMaster.isEmpty()) {
      return row(point, master, RunStatus.CLUSTER_FAILED, new RunOutcome(-1, false, 0, ""), startedAt, log);
    }
    RunOutcome outcome = ProcessRunner.run(commands.run(point, clusterMaster), log, timeoutMs(point.timeoutSeconds()));
    RunStatus status = outcome.timedOut() ? RunStatus.TIMEOUT
        : outcome.exitCode() == 0 ? RunStatus.OK : RunStatus.FAILED;
    return row(point, master, status, outcome, startedAt, log);
  }

  private ManifestRow row(CorpusPoint point, String master, RunStatus status, RunOutcome outcome, Instant startedAt,
      java.nio.file.Path log) {
    return new ManifestRow(point.id(), point.workload().id(), point.scale().profileName(), master, point.executors(),
        point.coresPerExecutor(), point.executorMemory(), point.slots(), point.repetition(), status,
        outcome.exitCode(), outcome.appId(), eventLog(outcome.appId()), outcome.wallTimeMs(), startedAt.toString(),
        log.toString());
  }

  /** The timeout of a spark-submit whose grid limit is {@code gridSeconds}: the command's override wins. */
  private long timeoutMs(int gridSeconds) {
    return (settings.timeoutSeconds() > 0 ? settings.timeoutSeconds() : gridSeconds) * 1000L;
  }

  private static String master(CorpusPoint point, String clusterMaster) {
    return switch (point.masterKind()) {
      case LOCAL -> "local[" + point.coresPerExecutor() + "]";
      case LOCAL_CLUSTER -> clusterMaster == null ? "" : clusterMaster;
      case URL -> point.masterUrl();
    };
  }

  /** The event log (file or rolling directory) of {@code appId} in the event-log directory, or empty. */
  private String eventLog(String appId) {
    if (appId.isEmpty()) {
      return "";
    }
    try {
      Path pattern = new Path(settings.eventLogDir(), "*" + appId + "*");
      FileStatus[] matches = pattern.getFileSystem(hadoop).globStatus(pattern);
      return matches == null || matches.length == 0 ? "" : matches[0].getPath().toString();
    } catch (IOException e) {
      return "";
    }
  }

  private void mkdirs(String dir) {
    try {
      Path path = new Path(dir);
      FileSystem fs = path.getFileSystem(hadoop);
      fs.mkdirs(path);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot create event-log directory " + dir + ": " + e.getMessage(), e);
    }
  }

  private void progress(int done, int total, ManifestRow row, Instant start) {
    Duration elapsed = Duration.between(start, clock.instant());
    Duration remaining = elapsed.multipliedBy(total - done).dividedBy(done);
    out.printf("corpus: run %d of %d %s %s (%.1f s%s); elapsed %s, remaining ~%s%n", done, total, row.status(),
        row.gridPoint(), row.wallTimeMs() / 1000.0, row.appId().isEmpty() ? "" : ", " + row.appId(),
        clockTime(elapsed), clockTime(remaining));
  }

  private static String clockTime(Duration duration) {
    long seconds = duration.toSeconds();
    return String.format("%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60);
  }
}
