package org.perflab.jobs.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobEnd;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.StageInfo;
import org.apache.spark.sql.SparkSession;
import org.perflab.eventlog.redact.Redactor;
import org.perflab.spark.ingest.Ingest;
import org.perflab.spark.ingest.IngestOptions;
import org.perflab.spark.ingest.IngestSummary;
import org.perflab.spark.storage.DeltaSessions;
import org.perflab.spark.storage.Maintenance;
import org.perflab.spark.storage.TableStore;
import org.perflab.spark.storage.TestPause;
import org.perflab.table.Table;

/**
 * Archive-scale ingest and query on {@code local[2]}. Builds an archive of {@code logs} event logs (default 10,000;
 * {@link ArchiveBuilder}) in a temporary directory, in {@link #RUNS} batches, and after each batch runs
 * {@code ingest --incremental} over the whole archive into Delta tables, so that each run parses only the new batch.
 * After each run it prints logs parsed, wall seconds, logs/s, MB/s of the new logs' on-disk (compressed) and
 * decompressed bytes, the peak heap in use (MB; local mode runs driver and executors in this one JVM), the Spark
 * jobs and tasks, and each table's data files and MB in its current Delta version (not files removed and waiting for
 * {@code VACUUM}). Then the most files of any table against the goal, the query of {@link QueryBenchmark} over the
 * tables against a compacted copy, and the same after {@code maintain}'s OPTIMIZE. Not a test: it prints figures.
 * Run with {@code bench/run archive [logs]}.
 */
public final class ArchiveBenchmark {
  /** Incremental ingest runs, each over one more batch of {@code logs / RUNS} logs. */
  static final int RUNS = 10;
  /** The goal: at most this many data files per table after the runs. */
  static final int FILES_GOAL = 16;
  static final double MB = 1024.0 * 1024.0;
  private static final List<String> TABLES = Stream.of(Table.values()).map(Table::tableName).toList();

  private ArchiveBenchmark() {}

  public static void main(String[] args) throws IOException, InterruptedException, TimeoutException {
    int logs = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
    if (logs < RUNS) {
      throw new IllegalArgumentException("Cannot run: logs must be at least " + RUNS + " (" + logs + ")");
    }
    Path work = Files.createTempDirectory("perflab-archive-bench");
    SparkSession spark = DeltaSessions.builder("ArchiveBenchmark").master("local[2]")
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1").getOrCreate();
    try {
      run(spark, logs, work);
    } finally {
      spark.stop();
      deleteRecursively(work);
    }
  }

  private static void run(SparkSession spark, int logs, Path work)
      throws IOException, InterruptedException, TimeoutException {
    ArchiveBuilder archive = ArchiveBuilder.of(work.resolve("archive"));
    Path output = work.resolve("out");
    System.out.printf("Archive benchmark: %d logs (%d bases) ingested in %d incremental runs on local[2];"
            + " max heap %.0f MB; available processors %d; load average %.1f%n", logs, archive.bases(), RUNS,
        Runtime.getRuntime().maxMemory() / MB, Runtime.getRuntime().availableProcessors(), loadAverage());
    System.out.printf("Target file size (DeltaSessions.TARGET_FILE_BYTES) %d MiB; auto compaction at %d files"
        + " smaller than that (DeltaSessions.AUTO_COMPACT_MIN_FILES)%n", DeltaSessions.TARGET_FILE_BYTES >> 20,
        DeltaSessions.AUTO_COMPACT_MIN_FILES);
    warmUp(spark, archive.into(work.resolve("warm-up/archive")), work.resolve("warm-up/out"));

    JobCounter jobs = new JobCounter();
    spark.sparkContext().addSparkListener(jobs);
    Maintenance maintenance = new Maintenance(spark, new TableStore(spark, output.toString()));
    System.out.printf("%3s %6s %6s %8s %7s %9s %9s %8s %5s %6s  %s%n", "run", "logs", "parsed", "wall s", "logs/s",
        "MB/s disk", "MB/s dec.", "heap MB", "jobs", "tasks", "status");
    long lastFiles = 0;
    long maxFiles = 0;
    List<String> lastRunJobs = List.of();
    for (int run = 1; run <= RUNS; run++) {
      ArchiveBuilder.Batch batch = archive.add((int) ((long) logs * (run - 1) / RUNS),
          (int) ((long) logs * run / RUNS));
      jobs.reset();
      HeapSampler heap = HeapSampler.start();
      long start = System.nanoTime();
      IngestSummary summary = ingest(spark, archive.directory(), output, true);
      double seconds = (System.nanoTime() - start) / 1e9;
      heap.stop();
      spark.sparkContext().listenerBus().waitUntilEmpty();
      System.out.printf("%3d %6d %6d %8.1f %7.1f %9.2f %9.2f %8.0f %5d %6d  %s%n", run, batch.logs(),
          summary.logsParsed(), seconds, summary.logsParsed() / seconds, batch.diskBytes() / MB / seconds,
          batch.decompressedBytes() / MB / seconds, heap.peakUsed() / MB, jobs.jobs(), jobs.tasks.get(),
          summary.statusCounts());
      lastRunJobs = List.copyOf(jobs.lines);
      lastFiles = printFiles("current files", maintenance);
      maxFiles = Math.max(maxFiles, lastFiles);
    }
    System.out.printf("Most data files in a table's current version after %d runs: %d (goal <= %d: %s); after any"
            + " run: %d; Parquet files on disk, removed ones waiting for VACUUM included: %d; load average %.1f%n",
        RUNS, lastFiles, FILES_GOAL, lastFiles <= FILES_GOAL ? "met" : "not met", maxFiles, parquetFiles(output),
        loadAverage());
    System.out.println("Spark jobs of the last run (wall seconds, tasks, call site of the last stage):");
    lastRunJobs.forEach(line -> System.out.println("  " + line));

    System.out.printf("Query: %s; %d alternating repetitions per layout after one warm-up each%n",
        QueryBenchmark.QUERY, QueryBenchmark.REPETITIONS);
    QueryBenchmark query = QueryBenchmark.withCompactedCopy(spark, output, work.resolve("compacted"));
    query.compare("after " + RUNS + " runs");

    long start = System.nanoTime();
    maintenance.maintainAll(null, TestPause.fromEnvironment());
    System.out.printf("maintain (OPTIMIZE, no VACUUM) in %.1f s%n", (System.nanoTime() - start) / 1e9);
    long maxAfter = printFiles("files after maintain", maintenance);
    System.out.printf("Most data files in a table's current version after maintain: %d (goal <= %d: %s)%n",
        maxAfter, FILES_GOAL, maxAfter <= FILES_GOAL ? "met" : "not met");
    query.compare("after maintain");
  }

  private static IngestSummary ingest(SparkSession spark, Path archive, Path output, boolean incremental)
      throws IOException {
    return new Ingest(spark, new IngestOptions(List.of(archive.toString()), output.toString(), incremental,
        Redactor.DEFAULT_PATTERN, 0), Clock.systemUTC()).run();
  }

  /** Two small ingests first (a full and an incremental one), so that class loading and JIT stay out of the figures. */
  private static void warmUp(SparkSession spark, ArchiveBuilder archive, Path output) throws IOException {
    for (int run = 0; run < 2; run++) {
      archive.add(run * 8, run * 8 + 8);
      ingest(spark, archive.directory(), output, run > 0);
    }
  }

  /** Prints every table's data files and MB in its current Delta version; returns the most files of a table. */
  private static long printFiles(String label, Maintenance maintenance) {
    long max = 0;
    StringBuilder line = new StringBuilder("    " + label + " (MB):");
    for (String table : TABLES) {
      Maintenance.FileStats stats = maintenance.fileStats(table);
      line.append(String.format(" %s %d (%.2f)", table, stats.files(), stats.bytes() / MB));
      max = Math.max(max, stats.files());
    }
    System.out.println(line);
    return max;
  }

  /** Parquet files under {@code dir}, whatever version reads them. */
  static long parquetFiles(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(f -> f.getFileName().toString().endsWith(".parquet")).count();
    }
  }

  private static double loadAverage() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }

  private static void deleteRecursively(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  /** Spark jobs and tasks since the last {@link #reset}, with each job's wall time, tasks and call site. */
  private static final class JobCounter extends SparkListener {
    final List<String> lines = Collections.synchronizedList(new ArrayList<>());
    final AtomicLong tasks = new AtomicLong();
    private final Map<Integer, long[]> started = new ConcurrentHashMap<>();
    private final Map<Integer, String> sites = new ConcurrentHashMap<>();

    void reset() {
      lines.clear();
      tasks.set(0);
    }

    int jobs() {
      return lines.size();
    }

    @Override
    public void onJobStart(SparkListenerJobStart jobStart) {
      int tasksInJob = 0;
      for (StageInfo stage : scala.jdk.javaapi.CollectionConverters.asJava(jobStart.stageInfos())) {
        tasksInJob += stage.numTasks();
      }
      started.put(jobStart.jobId(), new long[] {jobStart.time(), tasksInJob});
      sites.put(jobStart.jobId(),
          jobStart.stageInfos().isEmpty() ? "(no stages)" : jobStart.stageInfos().last().name());
    }

    @Override
    public void onJobEnd(SparkListenerJobEnd jobEnd) {
      long[] start = started.remove(jobEnd.jobId());
      if (start != null) {
        lines.add(String.format("%8.1f %6d  %s", (jobEnd.time() - start[0]) / 1e3, start[1],
            sites.remove(jobEnd.jobId())));
      }
    }

    @Override
    public void onTaskEnd(SparkListenerTaskEnd taskEnd) {
      tasks.incrementAndGet();
    }
  }

  /**
   * The most heap in use (bytes) seen by a 20 ms sampler during a run: live data plus garbage not yet collected.
   */
  private static final class HeapSampler {
    private final Thread thread;
    private final AtomicLong peak = new AtomicLong();
    private volatile boolean running = true;

    private HeapSampler() {
      thread = new Thread(() -> {
        while (running) {
          peak.accumulateAndGet(ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed(), Math::max);
          try {
            Thread.sleep(20);
          } catch (InterruptedException e) {
            return;
          }
        }
      }, "heap-sampler");
      thread.setDaemon(true);
    }

    static HeapSampler start() {
      System.gc();
      HeapSampler sampler = new HeapSampler();
      sampler.thread.start();
      return sampler;
    }

    void stop() throws InterruptedException {
      running = false;
      thread.join();
    }

    long peakUsed() {
      return peak.get();
    }
  }
}
