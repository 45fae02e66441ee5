package org.perflab.jobs.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.sql.SparkSession;
import org.perflab.eventlog.fixture.LogFixtures;
import org.perflab.eventlog.redact.Redactor;
import org.perflab.eventlog.source.EventLogSource;
import org.perflab.eventlog.source.LogLayout;
import org.perflab.ingest.Ingest;
import org.perflab.ingest.IngestOptions;
import org.perflab.ingest.IngestSummary;
import org.perflab.testing.SampleLogs;
import org.perflab.testing.SharedData;

/**
 * Ingest of an archive of {@code logs} event logs (default 1,000) on {@code local[2]}: logs/s, MB/s of compressed
 * (on-disk) and uncompressed bytes, wall time, peak heap, Spark jobs and tasks. The archive is built in a temporary
 * directory from the bundled samples and, when present, Spark's reference logs, copied under new application ids in
 * their own layout and codec (rolling directories stay rolling). Local mode runs driver and executors in this one JVM,
 * so the heap figures cover both. Not a test: it prints figures. Run with {@code bench/run archive [logs]}.
 */
public final class ArchiveBenchmark {
  private ArchiveBenchmark() {}

  /** A log to copy: its decompressed lines and how it is stored. */
  private record Base(String appId, List<String> lines, LogLayout layout, org.perflab.eventlog.source.Codec codec) {}

  /** The archive built: where, how many logs, and their bytes on disk and decompressed. */
  private record Archive(Path dir, int logs, long compressedBytes, long uncompressedBytes) {}

  public static void main(String[] args) throws IOException, InterruptedException {
    int logs = args.length > 0 ? Integer.parseInt(args[0]) : 1_000;
    Path work = Files.createTempDirectory("perflab-archive-bench");
    try {
      long buildStart = System.nanoTime();
      Archive archive = build(work.resolve("archive"), logs, bases());
      double buildSeconds = (System.nanoTime() - buildStart) / 1e9;
      run(archive, work.resolve("out"), buildSeconds);
    } finally {
      deleteRecursively(work);
    }
  }

  private static void run(Archive archive, Path output, double buildSeconds) throws IOException, InterruptedException {
    SparkSession spark = org.perflab.storage.DeltaSessions.builder("perflab-tests").master("local[2]").appName("ArchiveBenchmark")
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1").getOrCreate();
    try {
      warmUp(spark, output.resolveSibling("warm-up"));
      JobTimes jobs = new JobTimes();
      spark.sparkContext().addSparkListener(jobs);
      HeapSampler heap = HeapSampler.start();
      long start = System.nanoTime();
      IngestSummary summary = new Ingest(spark,
          new IngestOptions(List.of(archive.dir().toString()), output.toString(), false, Redactor.DEFAULT_PATTERN, 0),
          Clock.systemUTC()).run();
      double seconds = (System.nanoTime() - start) / 1e9;
      heap.stop();
      report(archive, summary, seconds, buildSeconds, heap, jobs, countFiles(output));
    } finally {
      spark.stop();
    }
  }

  private static void report(Archive archive, IngestSummary summary, double seconds, double buildSeconds,
      HeapSampler heap, JobTimes jobs, long parquetFiles) {
    double mb = 1024.0 * 1024.0;
    System.out.printf("Archive benchmark: %d logs, %.1f MB on disk (compressed), %.1f MB uncompressed;"
        + " built in %.1f s%n", archive.logs(), archive.compressedBytes() / mb, archive.uncompressedBytes() / mb,
        buildSeconds);
    System.out.println(summary);
    System.out.printf("%-36s %12.1f%n", "wall time, s", seconds);
    System.out.printf("%-36s %12.1f%n", "logs/s", archive.logs() / seconds);
    System.out.printf("%-36s %12.2f%n", "MB/s compressed (on disk)", archive.compressedBytes() / mb / seconds);
    System.out.printf("%-36s %12.2f%n", "MB/s uncompressed", archive.uncompressedBytes() / mb / seconds);
    System.out.printf("%-36s %12.0f%n", "peak heap used, sampled, MB", heap.peakUsed() / mb);
    System.out.printf("%-36s %12.0f%n", "peak heap, sum of pool peaks, MB", heap.poolPeaks() / mb);
    System.out.printf("%-36s %12.0f%n", "max heap (-Xmx), MB", Runtime.getRuntime().maxMemory() / mb);
    System.out.printf("%-36s %12d%n", "Spark jobs", jobs.lines.size());
    System.out.printf("%-36s %12d%n", "Spark tasks", jobs.tasks.get());
    System.out.printf("%-36s %12d%n", "Parquet files written", parquetFiles);
    System.out.printf("master local[2]; available processors: %d; load average: %.1f%n",
        Runtime.getRuntime().availableProcessors(),
        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    System.out.println("Spark jobs of the timed run (wall seconds, tasks, call site):");
    jobs.lines.forEach(line -> System.out.println("  " + line));
  }

  /** Wall time and task count of every Spark job, with the call site of its last stage. */
  private static final class JobTimes extends SparkListener {
    final List<String> lines = java.util.Collections.synchronizedList(new ArrayList<>());
    final AtomicLong tasks = new AtomicLong();
    private final java.util.Map<Integer, long[]> started = new java.util.concurrent.ConcurrentHashMap<>();
    private final java.util.Map<Integer, String> sites = new java.util.concurrent.ConcurrentHashMap<>();

    @Override
    public void onJobStart(SparkListenerJobStart jobStart) {
      int tasksInJob = 0;
      for (org.apache.spark.scheduler.StageInfo stage
          : scala.jdk.javaapi.CollectionConverters.asJava(jobStart.stageInfos())) {
        tasksInJob += stage.numTasks();
      }
      started.put(jobStart.jobId(), new long[] {jobStart.time(), tasksInJob});
      sites.put(jobStart.jobId(), jobStart.stageInfos().last().name());
    }

    @Override
    public void onJobEnd(org.apache.spark.scheduler.SparkListenerJobEnd jobEnd) {
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

  /** One small ingest first, so that class loading and JIT warm-up stay out of the figures. */
  private static void warmUp(SparkSession spark, Path dir) throws IOException {
    Archive small = build(dir.resolve("archive"), 8, bases());
    new Ingest(spark, new IngestOptions(List.of(small.dir().toString()), dir.resolve("out").toString(), false,
        Redactor.DEFAULT_PATTERN, 0), Clock.systemUTC()).run();
  }

  private static List<Base> bases() throws IOException {
    List<Base> bases = new ArrayList<>();
    for (EventLogSource sample : SampleLogs.discover()) {
      List<String> lines = SampleLogs.lines(sample);
      bases.add(new Base(LogFixtures.appIdOf(lines), lines, sample.layout(), sample.codec()));
    }
    Path reference = SharedData.root().resolve("data/spark-events");
    if (Files.isDirectory(reference)) {
      try (Stream<Path> files = Files.list(reference)) {
        for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
          List<String> lines = LogFixtures.readLines(file);
          bases.add(new Base(LogFixtures.appIdOf(lines), lines, LogLayout.SINGLE_FILE,
              org.perflab.eventlog.source.Codec.NONE));
        }
      }
    }
    return bases;
  }

  /** Copies the bases in turn under new application ids until there are {@code logs} logs. */
  private static Archive build(Path dir, int logs, List<Base> bases) throws IOException {
    long uncompressed = 0;
    for (int i = 0; i < logs; i++) {
      Base base = bases.get(i % bases.size());
      String appId = base.appId() + "-copy" + String.format("%05d", i);
      List<String> lines = LogFixtures.withAppId(base.lines(), appId);
      if (base.layout() == LogLayout.ROLLING_DIRECTORY) {
        LogFixtures.rollingDirectory(dir, appId, lines, base.codec(), Math.max(1, lines.size() / 2 + 1), false);
      } else {
        LogFixtures.singleFile(dir, appId, lines, base.codec(), false);
      }
      for (String line : lines) {
        uncompressed += line.getBytes(StandardCharsets.UTF_8).length + 1;
      }
    }
    long compressed;
    try (Stream<Path> files = Files.walk(dir)) {
      compressed = files.filter(Files::isRegularFile).mapToLong(ArchiveBenchmark::size).sum();
    }
    return new Archive(dir, logs, compressed, uncompressed);
  }

  private static long countFiles(Path output) throws IOException {
    try (Stream<Path> files = Files.walk(output)) {
      return files.filter(f -> f.getFileName().toString().endsWith(".parquet")).count();
    }
  }

  private static long size(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static void deleteRecursively(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  /**
   * Peak heap during the timed run: the most heap in use seen by a 20 ms sampler (live data plus garbage not yet
   * collected), and the sum of the heap pools' own peaks since the start (an upper bound: pools peak at different
   * times).
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
      ManagementFactory.getMemoryPoolMXBeans().forEach(MemoryPoolMXBean::resetPeakUsage);
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

    long poolPeaks() {
      return ManagementFactory.getMemoryPoolMXBeans().stream().filter(p -> p.getType() == MemoryType.HEAP)
          .mapToLong(p -> p.getPeakUsage().getUsed()).sum();
    }
  }
}
