package org.perflab.jobs.bench;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.perflab.spark.storage.DeltaSessions;

/**
 * Issue 12's end-to-end check of the memory recommendation, on the local standalone cluster (2 workers of 1 core):
 * a cached iterative workload (KMeans, its samples cached {@code MEMORY_ONLY}) and PageRank (its links cached
 * {@code MEMORY_ONLY}) run once with ample memory; {@code ingest} and {@code memory} recommend per-executor storage
 * and execution memory for that run; each workload then runs again with 80 %, 100 % and 120 % of the recommended
 * storage (and the recommended execution memory) in the recommended heap, and {@link CacheReplay} measures the
 * recomputed and spilled bytes of each run from its event log.
 *
 * <p>Usage: {@code bench/run memory-e2e [work-dir]} (default: a new temporary directory, deleted afterwards unless
 * given; a given one keeps its prepared data and finished baseline logs for the next run). The commands run through
 * {@code submit/perflab} and {@code submit/local-cluster} of this checkout.
 */
public final class MemoryEndToEnd {
  /** Storage shares of the recommended storage that the runs get. */
  public static final List<Double> SHARES = List.of(0.8, 1.0, 1.2);
  private static final long TIMEOUT_MINUTES = 15;
  private static final String WORKER_MEMORY = "1g";
  private static final String BASELINE_HEAP = "1g";

  /**
   * A workload of the check: the {@code workload} job's id, scale, and partitions (input files and shuffle partitions;
   * the cached data have one partition per input file, see {@link #measured}).
   *
   * <p>PageRank runs with 32 cached partitions per executor. With 8 (16 in all), the recommendation's placement
   * margins (the largest partition for uneven placement, and one for unrolling) are 2 of the 8, so 80 % of the
   * recommended storage is exactly the balanced share of the cache and cannot show that 80 % is too little.
   */
  public enum Workload {
    KMEANS("kmeans", "small", 16),
    PAGERANK("pagerank", "large", 64);

    final String id;
    final String scale;
    final int partitions;

    Workload(String id, String scale, int partitions) {
      this.id = id;
      this.scale = scale;
      this.partitions = partitions;
    }

    /** The workload's data set directory name (the {@code workload} job's layout). */
    String dataset() {
      return org.perflab.spark.workload.HiBenchWorkload.valueOf(name()).dataset();
    }
  }

  /**
   * The {@code memory_recommendations} row of a baseline run, per executor.
   *
   * @param appId the baseline application
   * @param storageBytes {@code storage_bytes}
   * @param executionBytes {@code execution_bytes}
   * @param heapBytes {@code executor_memory_bytes}
   * @param rddCacheBytes {@code rdd_cache_bytes} (whole cluster)
   */
  public record Recommendation(String appId, long storageBytes, long executionBytes, long heapBytes,
      long rddCacheBytes) {}

  /** One measured run: its settings and what {@link CacheReplay} measured in its log. */
  public record Run(Workload workload, StorageSetting setting, String appId, CacheReplay.Measurement measured) {}

  /** Everything the check measured. */
  public record Result(Map<Workload, Recommendation> recommendations, Map<Workload, CacheReplay.Measurement> baselines,
      List<Run> runs) {}

  private final Path repository;
  private final Path work;

  public MemoryEndToEnd(Path repository, Path work) {
    this.repository = repository;
    this.work = work;
  }

  /** Runs the whole check: cluster, prepare, baselines, recommendation, nine-less-three measured runs, stop. */
  public Result run() throws IOException, InterruptedException {
    Path state = work.resolve("cluster");
    String master = lastLine(command(List.of(repository.resolve("submit/local-cluster").toString(), "start",
        "--state-dir", state.toString(), "--workers", "2", "--worker-cores", "1", "--worker-memory", WORKER_MEMORY)));
    try {
      for (Workload workload : Workload.values()) {
        if (!Files.exists(work.resolve("data").resolve(workload.dataset()).resolve(workload.scale)
            .resolve("_perflab_prepared.properties"))) {
          perflab(List.of("--master", "local[1]", "--conf", "spark.ui.enabled=false"), workload, "prepare");
        }
      }
      Map<Workload, String> baselineApps = new LinkedHashMap<>();
      Map<Workload, CacheReplay.Measurement> baselines = new LinkedHashMap<>();
      for (Workload workload : Workload.values()) {
        Path logs = work.resolve("logs/baseline-" + workload.id);
        String appId = previousBaseline(logs);
        if (appId == null) {
          appId = measured(master, workload, BASELINE_HEAP, List.of(), logs);
        }
        baselineApps.put(workload, appId);
        baselines.put(workload, CacheReplay.replay(logs.resolve(appId), Map.of()));
      }
      Map<Workload, Recommendation> recommendations = recommend(baselineApps);
      List<Run> runs = new ArrayList<>();
      for (Workload workload : Workload.values()) {
        Recommendation recommendation = recommendations.get(workload);
        for (double share : SHARES) {
          StorageSetting setting = StorageSetting.of(share, recommendation.storageBytes(),
              recommendation.executionBytes(), recommendation.heapBytes());
          Path logs = work.resolve("logs/" + workload.id + "-" + Math.round(share * 100));
          String appId = measured(master, workload, setting.executorMemory(), List.of(
              "--conf", "spark.memory.fraction=" + setting.memoryFraction(),
              "--conf", "spark.memory.storageFraction=" + setting.storageFraction()), logs);
          runs.add(new Run(workload, setting, appId,
              CacheReplay.replay(logs.resolve(appId), baselines.get(workload).blockSizes())));
        }
      }
      return new Result(recommendations, baselines, runs);
    } finally {
      command(List.of(repository.resolve("submit/local-cluster").toString(), "stop", "--state-dir", state.toString()));
    }
  }

  /** The application id of a finished baseline log that a given work directory already holds, else null. */
  private static String previousBaseline(Path logs) throws IOException {
    if (!Files.isDirectory(logs)) {
      return null;
    }
    try (Stream<Path> files = Files.list(logs)) {
      List<String> apps = files.map(file -> file.getFileName().toString())
          .filter(name -> name.startsWith("app-") && !name.endsWith(".inprogress")).toList();
      return apps.size() == 1 ? apps.get(0) : null;
    }
  }

  /** Runs {@code workload} on the cluster with event logging into {@code logs}; returns its application id. */
  private String measured(String master, Workload workload, String heap, List<String> conf, Path logs)
      throws IOException, InterruptedException {
    Files.createDirectories(logs);
    List<String> submit = new ArrayList<>(List.of("--master", master, "--conf", "spark.driver.host=127.0.0.1",
        "--total-executor-cores", "2", "--executor-cores", "1", "--executor-memory", heap,
        "--conf", "spark.ui.enabled=false",
        "--conf", "spark.eventLog.enabled=true", "--conf", "spark.eventLog.dir=" + logs.toUri(),
        "--conf", "spark.eventLog.compress=false", "--conf", "spark.eventLog.rolling.enabled=false",
        "--conf", "spark.eventLog.logBlockUpdates.enabled=true",
        // one file (of 3 MB at kmeans small) per Parquet scan partition, not 2 cores' worth of files
        "--conf", "spark.sql.files.minPartitionNum=" + workload.partitions,
        // both executors registered before the first task, so that partitions spread over W = 2 as recommended
        "--conf", "spark.scheduler.minRegisteredResourcesRatio=1.0",
        "--conf", "spark.scheduler.maxRegisteredResourcesWaitingTime=120s",
        "--conf", "spark.perflab.kmeans.storageLevel=MEMORY_ONLY"));
    submit.addAll(conf);
    String out = perflab(submit, workload, "run");
    return out.lines().filter(line -> line.startsWith("perflab.workload.app-id=")).findFirst()
        .map(line -> line.substring(line.indexOf('=') + 1).strip())
        .orElseThrow(() -> new IllegalStateException("Cannot find the application id: no app-id line (" + out + ")"));
  }

  private String perflab(List<String> submit, Workload workload, String phase)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(repository.resolve("submit/perflab").toString()));
    command.addAll(submit);
    command.addAll(List.of("workload", "--workload", workload.id, "--scale", workload.scale,
        "--data-dir", work.resolve("data").toString(), "--partitions", Integer.toString(workload.partitions),
        "--phase", phase));
    return command(command);
  }

  /** Ingests the baselines' logs, runs {@code memory}, and reads each baseline's recommendation. */
  private Map<Workload, Recommendation> recommend(Map<Workload, String> baselineApps)
      throws IOException, InterruptedException {
    Path tables = work.resolve("tables");
    if (Files.exists(tables)) {
      deleteTree(tables);
    }
    String perflab = repository.resolve("submit/perflab").toString();
    command(List.of(perflab, "--master", "local[1]", "--conf", "spark.ui.enabled=false", "ingest", "--input",
        work.resolve("logs").toString() + "/baseline-*", "--output", tables.toString()));
    command(List.of(perflab, "--master", "local[1]", "--conf", "spark.ui.enabled=false", "memory", "--input",
        tables.toString()));
    SparkSession spark = DeltaSessions.builder("memory-e2e").master("local[1]").appName("memory-e2e")
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1").getOrCreate();
    try {
      Map<Workload, Recommendation> recommendations = new LinkedHashMap<>();
      List<Row> rows = spark.read().format("delta").load(tables.resolve("memory_recommendations").toString())
          .where("scope = 'application'")
          .select("app_id", "storage_bytes", "execution_bytes", "executor_memory_bytes", "rdd_cache_bytes", "reason")
          .collectAsList();
      baselineApps.forEach((workload, appId) -> {
        Row row = rows.stream().filter(r -> appId.equals(r.getString(0))).findFirst().orElseThrow(
            () -> new IllegalStateException("Cannot find the recommendation: no row for " + appId + " (" + rows + ")"));
        if (row.isNullAt(1)) {
          throw new IllegalStateException("Cannot use the recommendation: " + row.getString(5) + " (" + appId + ")");
        }
        recommendations.put(workload, new Recommendation(appId, row.getLong(1), row.getLong(2), row.getLong(3),
            row.getLong(4)));
      });
      return recommendations;
    } finally {
      spark.stop();
    }
  }

  /** Runs {@code command} in the work directory; returns its stdout, or throws with its output when it fails. */
  private String command(List<String> command) throws IOException, InterruptedException {
    Path out = Files.createTempFile(work, "command", ".out");
    Process process = new ProcessBuilder(command).directory(work.toFile()).redirectErrorStream(true)
        .redirectOutput(out.toFile()).start();
    boolean finished = process.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES);
    if (!finished) {
      process.descendants().forEach(ProcessHandle::destroy);
      process.destroy();
    }
    String output = Files.readString(out, StandardCharsets.UTF_8);
    if (!finished || process.exitValue() != 0) {
      throw new IllegalStateException("Cannot run " + command + ": " + (finished ? "exit " + process.exitValue()
          : "timed out") + " (" + output + ")");
    }
    return output;
  }

  private static String lastLine(String output) {
    List<String> lines = output.lines().filter(line -> !line.isBlank()).toList();
    return lines.get(lines.size() - 1).strip();
  }

  /** The table the benchmark prints: one line per run. */
  public static String table(Result result) {
    StringBuilder out = new StringBuilder();
    result.recommendations().forEach((workload, r) -> out.append(String.format(
        "recommendation %-8s storage %,d B/executor, execution %,d B/executor, heap %,d B, rdd cache %,d B "
            + "(cluster); baseline peak cached %,d B/executor, recomputed %,d B%n",
        workload.id, r.storageBytes(), r.executionBytes(), r.heapBytes(), r.rddCacheBytes(),
        result.baselines().get(workload).peakCachedBytes(), result.baselines().get(workload).recomputedBytes())));
    out.append(String.format("%-8s %5s %14s %14s %9s %8s %16s %11s %14s %11s %14s %12s %14s%n", "workload", "share",
        "storage_B", "execution_B", "fraction", "storFrac", "recomputed_B", "recomp_blks", "evicted_B", "evict_blks",
        "mem_spilled_B", "disk_spill_B", "peak_cached_B"));
    for (Run run : result.runs()) {
      StorageSetting s = run.setting();
      CacheReplay.Measurement m = run.measured();
      out.append(String.format("%-8s %4d%% %,14d %,14d %9.6f %8.6f %,16d %11d %,14d %11d %,14d %,12d %,14d%n",
          run.workload().id, Math.round(s.share() * 100), s.storageBytes(), s.executionBytes(), s.memoryFraction(),
          s.storageFraction(), m.recomputedBytes(), m.recomputedBlocks(), m.evictedBytes(), m.evictedBlocks(),
          m.memorySpilledBytes(), m.diskSpilledBytes(), m.peakCachedBytes()));
    }
    return out.toString();
  }

  /** {@code bench/run memory-e2e [work-dir]}. */
  public static void main(String[] args) throws Exception {
    Path repository = Path.of("").toAbsolutePath();
    boolean temporary = args.length == 0;
    Path work = temporary ? Files.createTempDirectory("perflab-memory-e2e") : Files.createDirectories(Path.of(args[0]));
    try {
      System.out.print(table(new MemoryEndToEnd(repository, work.toAbsolutePath()).run()));
    } finally {
      if (temporary) {
        deleteTree(work);
      }
    }
  }

  static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(java.util.Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
    }
  }
}
