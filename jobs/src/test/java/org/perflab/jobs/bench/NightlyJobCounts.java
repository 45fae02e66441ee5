package org.perflab.jobs.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructField;
import org.perflab.jobs.PerfLab;
import org.perflab.jobs.nightly.Pipeline;
import org.perflab.jobs.nightly.SessionSteps;
import org.perflab.spark.nightly.NightlyRuns;
import org.perflab.spark.storage.DeltaCommits;
import org.perflab.spark.storage.DeltaSessions;

/**
 * The README's first command, {@code perflab nightly --archive samples/spark-events --output ROOT}, in this JVM on
 * {@code local[2]}, counted rather than timed: the Spark jobs each step launched (a listener counts job starts per
 * job group; every step runs under its own, {@link SessionSteps#jobGroup}) and the Delta commits each step made (the
 * {@code commitInfo} timestamps of every table's log, placed in the steps' windows from {@code nightly_runs}). Job
 * counts do not depend on the machine's load; seconds do. Not a test: it prints figures. Run with
 * {@code bench/run nightly-jobs [DUMP-DIR]}; with DUMP-DIR it also writes every table the night left (but
 * {@code nightly_runs}) as sorted JSON lines, less the columns that differ between two runs by design, and the report's
 * files, so that two builds' nights can be compared with {@code diff -r}. With {@code -Dperflab.bench.callSites=true}
 * (through {@code JAVA_TOOL_OPTIONS}) it also prints each step's jobs by call site.
 */
public final class NightlyJobCounts {
  /** Columns that differ between two nights over the same logs by design (run ids and clocks). */
  private static final List<String> PER_RUN = List.of("run_id", "ingested_at_ms", "last_run_id", "computed_at",
      "generated_at", "started_at", "written_at", "judged_at_ms", "recorded_at_ms");

  private NightlyJobCounts() {}

  public static void main(String[] args) throws Exception {
    Path repository = Path.of("").toAbsolutePath();
    boolean verbose = Boolean.getBoolean("perflab.bench.callSites");
    Path root = Files.createTempDirectory("perflab-nightly-jobs").resolve("out");
    System.out.printf("nightly job counts: perflab nightly over samples/spark-events on local[2], in %s; load average"
        + " %.2f%n", root, load());
    SparkSession spark = DeltaSessions.builder("perflab-nightly-jobs").master("local[2]")
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1").getOrCreate();
    Map<String, AtomicLong> jobs = new ConcurrentHashMap<>();
    Map<String, Map<String, AtomicLong>> sites = new ConcurrentHashMap<>();
    spark.sparkContext().addSparkListener(new SparkListener() {
      @Override
      public void onJobStart(SparkListenerJobStart job) {
        String group = String.valueOf(job.properties().getProperty("spark.jobGroup.id"));
        jobs.computeIfAbsent(group, g -> new AtomicLong()).incrementAndGet();
        sites.computeIfAbsent(group, g -> new ConcurrentHashMap<>())
            .computeIfAbsent(callSite(job), s -> new AtomicLong())
            .incrementAndGet();
      }
    });
    long started = System.nanoTime();
    int code = PerfLab.run("nightly", "--archive", repository.resolve("samples/spark-events").toString(), "--output",
        root.toString());
    double seconds = (System.nanoTime() - started) / 1e9;
    spark.sparkContext().listenerBus().waitUntilEmpty();
    Map<String, Long> commits = commitsPerStep(spark, root);
    List<Row> runs = spark.read().format("delta").load(root.resolve(NightlyRuns.TABLE).toString())
        .orderBy("started_at").collectAsList();
    System.out.printf("%-12s %6s %8s %10s%n", "step", "jobs", "commits", "seconds");
    long total = 0;
    for (Row run : runs) {
      String step = run.getAs("step");
      long count = jobs.getOrDefault(SessionSteps.jobGroup(step), new AtomicLong()).get();
      total += count;
      System.out.printf("%-12s %6d %8d %10.1f%n", step, count, commits.getOrDefault(step, 0L),
          run.<Double>getAs("seconds"));
    }
    jobs.forEach((group, count) -> {
      if (Pipeline.jobs().stream().map(SessionSteps::jobGroup).noneMatch(group::equals)) {
        System.out.printf("(outside the steps) group %s: %d jobs%n", group, count.get());
      }
    });
    if (verbose) {
      sites.forEach((group, counts) -> counts.forEach((site, count) ->
          System.out.printf("  %s: %d at %s%n", group, count.get(), site)));
    }
    System.out.printf("night: exit %d, %d Spark jobs in the steps, %.1f s wall; load average %.2f%n", code, total,
        seconds, load());
    if (args.length > 0) {
      dump(spark, root, Path.of(args[0]));
      System.out.println("tables and report written to " + args[0]);
    }
    spark.stop();
  }

  /** Delta commits per step: every table's commits, placed by their {@code commitInfo} timestamp in a step's window. */
  private static Map<String, Long> commitsPerStep(SparkSession spark, Path root) throws IOException {
    List<Row> runs = spark.read().format("delta").load(root.resolve(NightlyRuns.TABLE).toString())
        .orderBy("started_at").collectAsList();
    Map<String, Long> perStep = new TreeMap<>();
    for (long at : commitTimes(root)) {
      for (Row run : runs) {
        long from = run.<java.sql.Timestamp>getAs("started_at").getTime();
        long to = from + Math.round(run.<Double>getAs("seconds") * 1000) + 1;
        if (at >= from && at <= to) {
          perStep.merge(run.getAs("step"), 1L, Long::sum);
        }
      }
    }
    return perStep;
  }

  private static List<Long> commitTimes(Path root) throws IOException {
    List<Long> times = new ArrayList<>();
    FileSystem fs = FileSystem.getLocal(new Configuration());
    try (Stream<Path> logs = Files.walk(root)) {
      for (Path table : logs.filter(p -> Files.isDirectory(p.resolve("_delta_log"))).toList()) {
        org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(table.toUri());
        for (long version : DeltaCommits.versions(fs, path)) {
          DeltaCommits.commitInfo(fs, DeltaCommits.commitFile(path, version))
              .ifPresent(info -> times.add(info.path("timestamp").asLong()));
        }
      }
    }
    return times;
  }

  /** Writes every Delta table under {@code root} but nightly_runs as sorted JSON lines, and copies the report. */
  private static void dump(SparkSession spark, Path root, Path to) throws IOException {
    Files.createDirectories(to);
    try (Stream<Path> entries = Files.walk(root)) {
      for (Path path : entries.sorted().toList()) {
        Path relative = root.relativize(path);
        if (Files.isDirectory(path.resolve("_delta_log"))) {
          if (!path.getFileName().toString().equals(NightlyRuns.TABLE)) {
            List<String> lines = comparable(spark.read().format("delta").load(path.toString())).toJSON()
                .collectAsList().stream().sorted().toList();
            Path file = to.resolve(relative + ".jsonl");
            Files.createDirectories(file.getParent());
            Files.write(file, lines, StandardCharsets.UTF_8);
          }
        } else if (Files.isRegularFile(path) && !relative.toString().contains("_delta_log")
            && !relative.toString().endsWith(".parquet") && !relative.toString().endsWith(".crc")) {
          Path file = to.resolve("files").resolve(relative);
          Files.createDirectories(file.getParent());
          Files.copy(path, file);
        }
      }
    }
  }

  private static Dataset<Row> comparable(Dataset<Row> rows) {
    Dataset<Row> kept = rows.drop(PER_RUN.toArray(String[]::new));
    for (StructField field : kept.schema().fields()) {
      if (field.dataType() instanceof MapType) {
        Column entries = functions.array_sort(functions.map_entries(functions.col(field.name())));
        kept = kept.withColumn(field.name(), entries);
      }
    }
    return kept;
  }

  /**
   * The job's call site: the user call site of its SQL query when it has one (an adaptive query's stage jobs run on
   * another thread but carry it), else the name of its result stage (the stage with the highest id), e.g. "count at
   * X.java:87"; with Delta Lake's own description of the job when it set one (not the night's step description).
   */
  private static String callSite(SparkListenerJobStart job) {
    String site = job.properties().getProperty("callSite.short");
    if (site == null) {
      site = scala.jdk.javaapi.CollectionConverters.asJava(job.stageInfos()).stream()
          .max(java.util.Comparator.comparingInt(org.apache.spark.scheduler.StageInfo::stageId))
          .map(org.apache.spark.scheduler.StageInfo::name).orElse("?");
    }
    String description = job.properties().getProperty("spark.job.description");
    return description == null || description.startsWith("nightly ") ? site : site + " [" + description + "]";
  }

  private static double load() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }
}
