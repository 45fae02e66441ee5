package org.perflab.jobs.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.sql.SparkSession;
import org.perflab.spark.storage.DeltaCommits;
import org.perflab.spark.storage.DeltaSessions;
import org.perflab.spark.storage.Maintenance;
import org.perflab.spark.storage.TableStore;
import org.perflab.spark.storage.TestPause;
import org.perflab.table.Table;

/**
 * Archive-scale ingest and query on {@code local[2]}, as a user runs it. Builds an archive of {@code logs} event logs
 * (default 10,000; {@link ArchiveBuilder}) in a temporary directory, in {@code runs} batches (default 10), and after
 * each batch runs {@code submit/perflab --master local[2] ingest --incremental} over the whole archive, each run its
 * own process, so that each run parses only the new batch. After each run it prints the run's wall time, the CPU
 * seconds of its processes (bash's {@code times}), the seconds after its Spark session started (the sum of the summary's {@code time:} phases: what the run costs inside
 * {@code perflab nightly}, whose session is already up), the phases, each table's data files and MB in its current
 * Delta version, and what the run's Delta commits did (operations, files and MB added and removed, from each commit's
 * {@code commitInfo.operationMetrics}). Then the most files of any table against the goal, the query of
 * {@link QueryBenchmark} over the tables against a compacted copy, and the same after {@code maintain}'s OPTIMIZE.
 * Not a test: it prints figures. Run with {@code bench/run archive [logs] [runs]} after
 * {@code mvn -o -DskipTests package} (the runs need the packaged jar).
 */
public final class ArchiveBenchmark {
  /** Incremental ingest runs by default, each over one more batch of {@code logs / runs} logs. */
  static final int RUNS = 10;
  /** The goal: at most this many data files per table after the runs. */
  static final int FILES_GOAL = 16;
  /** The goals per run, in seconds: wall time, and time after the session started. */
  static final double WALL_GOAL_S = 30;
  static final double SESSION_GOAL_S = 20;
  /** The goal: the last run within this factor of the first. */
  static final double LAST_OVER_FIRST_GOAL = 1.15;
  static final double MB = 1024.0 * 1024.0;
  private static final List<String> TABLES = Stream.of(Table.values()).map(Table::tableName).toList();
  private static final Pattern PHASE = Pattern.compile("([a-z ]+) ([0-9.]+) s");
  private static final Pattern CPU_TIMES = Pattern.compile("(?m)^(\\d+)m([0-9.]+)s (\\d+)m([0-9.]+)s$");
  /**
   * Environment variable: JVM options for each run's driver, {@code %r} replaced by the run's name, e.g.
   * {@code -XX:StartFlightRecording=filename=/tmp/%r.jfr} to profile every run.
   */
  static final String DRIVER_OPTIONS = "ARCHIVE_BENCH_DRIVER_OPTIONS";
  /**
   * Environment variable: an empty directory in which to build the archive and the tables and keep them afterwards
   * (to query or profile them again), instead of a temporary directory deleted at the end.
   */
  static final String KEEP = "ARCHIVE_BENCH_KEEP";

  private ArchiveBenchmark() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    int logs = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : RUNS;
    if (runs < 1 || logs < runs) {
      throw new IllegalArgumentException("Cannot run: need 1 <= runs <= logs (" + runs + ", " + logs + ")");
    }
    String keep = System.getenv(KEEP);
    if (keep != null && !keep.isBlank()) {
      Path work = Files.createDirectories(Path.of(keep));
      try (Stream<Path> entries = Files.list(work)) {
        if (entries.findAny().isPresent()) {
          throw new IllegalArgumentException("Cannot keep the benchmark's files in " + KEEP + ": the directory is not"
              + " empty (" + work + ")");
        }
      }
      run(logs, runs, work);
      System.out.println("Kept the archive, the tables (out/) and the compacted copy in " + work);
      return;
    }
    Path work = Files.createTempDirectory("perflab-archive-bench");
    try {
      run(logs, runs, work);
    } finally {
      deleteRecursively(work);
    }
  }

  private static void run(int logs, int runs, Path work) throws IOException, InterruptedException {
    Path repository = Path.of("").toAbsolutePath();
    ArchiveBuilder archive = ArchiveBuilder.of(work.resolve("archive"));
    Path output = work.resolve("out");
    System.out.printf("Archive benchmark: %d logs (%d bases) ingested in %d incremental runs, each its own"
            + " `submit/perflab --master local[2] ingest --incremental` process; available processors %d; load"
            + " average %.1f%n", logs, archive.bases(), runs, Runtime.getRuntime().availableProcessors(),
        loadAverage());
    System.out.printf("%3s %6s %8s %9s %7s %7s %14s  %s%n", "run", "logs", "wall s", "session s", "CPU s",
        "MB disk", "parse MB/CPU-s", "phases");
    List<double[]> times = new ArrayList<>();
    List<Double> parseRates = new ArrayList<>();
    Map<String, Long> versions = new HashMap<>();
    for (int run = 1; run <= runs; run++) {
      ArchiveBuilder.Batch batch = archive.add((int) ((long) logs * (run - 1) / runs),
          (int) ((long) logs * run / runs));
      Path out = work.resolve("run-" + run + ".out");
      long start = System.nanoTime();
      int code = ingest(repository, archive.directory(), output, out, work.resolve("run-" + run + ".err"));
      double wall = (System.nanoTime() - start) / 1e9;
      String printed = Files.readString(out, StandardCharsets.UTF_8);
      Map<String, Double> phases = phases(printed);
      double session = phases.values().stream().mapToDouble(Double::doubleValue).sum();
      times.add(new double[] {wall, session});
      double cpu = cpuSeconds(Files.readString(work.resolve("run-" + run + ".err"), StandardCharsets.UTF_8));
      parseRates.add(parseMbPerCpuSecond(batch.diskBytes(), phases));
      System.out.printf("%3d %6d %8.1f %9.1f %7.1f %7.1f %14.1f  %s%s%n", run, batch.logs(), wall, session, cpu,
          batch.diskBytes() / MB, parseMbPerCpuSecond(batch.diskBytes(), phases), phases,
          code == 0 ? "" : " EXIT " + code + ": " + printed);
      System.out.println("    commits: " + commits(output, versions));
    }
    printGoals(times);
    double[] rates = parseRates.stream().mapToDouble(Double::doubleValue).filter(Double::isFinite).sorted().toArray();
    if (rates.length > 0) {
      System.out.printf("Ingest's parse phase: median %.1f MB per CPU second over %d runs (min %.1f, max %.1f; the"
              + " batch's MB over the phase's seconds times %d slots, a lower bound; bench/run parse measures the"
              + " parser alone)%n", rates[rates.length / 2], rates.length, rates[0], rates[rates.length - 1], SLOTS);
    }
    SparkSession spark = DeltaSessions.builder("ArchiveBenchmark").master("local[2]")
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1").getOrCreate();
    try {
      afterRuns(spark, output, work, runs);
    } finally {
      spark.stop();
    }
  }

  /** Files per table, the query against the compacted copy, then maintain and both again. */
  private static void afterRuns(SparkSession spark, Path output, Path work, int runs) throws IOException {
    Maintenance maintenance = new Maintenance(spark, new TableStore(spark, output.toString()));
    long lastFiles = printFiles("current files", maintenance);
    System.out.printf("Most data files in a table's current version after %d runs: %d (goal <= %d: %s); Parquet"
            + " files on disk, removed ones waiting for VACUUM included: %d; load average %.1f%n",
        runs, lastFiles, FILES_GOAL, lastFiles <= FILES_GOAL ? "met" : "not met", parquetFiles(output),
        loadAverage());
    System.out.printf("Query: %s; %d alternating repetitions per layout after one warm-up each%n",
        QueryBenchmark.QUERY, QueryBenchmark.REPETITIONS);
    QueryBenchmark query = QueryBenchmark.withCompactedCopy(spark, output, work.resolve("compacted"));
    query.compare("after " + runs + " runs");
    long start = System.nanoTime();
    maintenance.maintainAll(null, TestPause.fromEnvironment());
    System.out.printf("maintain (OPTIMIZE, no VACUUM) in %.1f s%n", (System.nanoTime() - start) / 1e9);
    long maxAfter = printFiles("files after maintain", maintenance);
    System.out.printf("Most data files in a table's current version after maintain: %d (goal <= %d: %s)%n",
        maxAfter, FILES_GOAL, maxAfter <= FILES_GOAL ? "met" : "not met");
    query.compare("after maintain");
  }

  private static int ingest(Path repository, Path archive, Path output, Path out, Path err)
      throws IOException, InterruptedException {
    // bash's `times` prints the CPU seconds of the run's processes after it (second line: children's user, system)
    List<String> command = new ArrayList<>(List.of("bash", "-c", "\"$@\"; code=$?; times >&2; exit $code", "bash",
        repository.resolve("submit/perflab").toString(), "--master", "local[2]"));
    String driverOptions = System.getenv(DRIVER_OPTIONS);
    if (driverOptions != null && !driverOptions.isBlank()) {
      command.addAll(List.of("--driver-java-options", driverOptions.replace("%r", out.getFileName().toString())));
    }
    command.addAll(List.of("ingest", "--incremental", "--input", archive.toString(), "--output", output.toString()));
    ProcessBuilder process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
    process.environment().remove("SPARK_HOME");
    return process.start().waitFor();
  }

  /**
   * The ingest's parse phase in MB of logs per CPU second, as issue 26 measured it: the batch's MB over the phase's
   * wall seconds times the {@value #SLOTS} task slots of {@code local[2]}. The slots cannot do more CPU seconds than
   * that, so this is a lower bound of the parser's rate; compare it with {@code bench/run parse}'s MB per CPU second of
   * the parser alone. NaN without a parse phase.
   */
  static double parseMbPerCpuSecond(long batchBytes, Map<String, Double> phases) {
    Double parse = phases.get("parse");
    return parse == null || parse <= 0 ? Double.NaN : batchBytes / MB / (parse * SLOTS);
  }

  /** The task slots of each run's {@code local[2]}. */
  static final int SLOTS = 2;

  /** The phases of the summary's {@code time:} line, in seconds, in order. */
  static Map<String, Double> phases(String printed) {
    Map<String, Double> phases = new java.util.LinkedHashMap<>();
    for (String line : printed.split("\n")) {
      String trimmed = line.trim();
      if (trimmed.startsWith("time: ")) {
        Matcher m = PHASE.matcher(trimmed.substring("time: ".length()));
        while (m.find()) {
          phases.put(m.group(1).trim(), Double.parseDouble(m.group(2)));
        }
      }
    }
    return phases;
  }

  /**
   * The CPU seconds (user and system) of a run's processes, from the last line of bash's {@code times} in its error
   * output ({@code 1m2.345s 0m1.000s}); NaN when absent. On a shared machine these stay put while wall times stretch.
   */
  static double cpuSeconds(String err) {
    Matcher m = CPU_TIMES.matcher(err);
    double seconds = Double.NaN;
    while (m.find()) {
      seconds = Integer.parseInt(m.group(1)) * 60 + Double.parseDouble(m.group(2))
          + Integer.parseInt(m.group(3)) * 60 + Double.parseDouble(m.group(4));
    }
    return seconds;
  }

  /** Prints the wall and session times of the first and last runs against the goals. */
  private static void printGoals(List<double[]> times) {
    double maxWall = times.stream().mapToDouble(t -> t[0]).max().orElse(0);
    double maxSession = times.stream().mapToDouble(t -> t[1]).max().orElse(0);
    double ratio = times.get(times.size() - 1)[0] / times.get(0)[0];
    System.out.printf("Slowest run: %.1f s wall (goal <= %.0f: %s), %.1f s after the session started (goal <= %.0f:"
            + " %s); last / first run wall %.2f (goal <= %.2f: %s); load average %.1f%n", maxWall, WALL_GOAL_S,
        maxWall <= WALL_GOAL_S ? "met" : "not met", maxSession, SESSION_GOAL_S,
        maxSession <= SESSION_GOAL_S ? "met" : "not met", ratio, LAST_OVER_FIRST_GOAL,
        ratio <= LAST_OVER_FIRST_GOAL ? "met" : "not met", loadAverage());
  }

  /**
   * What the Delta commits since the last call did, over all tables: per operation, the commits, data files added and
   * removed, and MB added and removed ({@code commitInfo.operationMetrics}).
   */
  static String commits(Path output, Map<String, Long> seen) throws IOException {
    Map<String, long[]> byOperation = new TreeMap<>();
    FileSystem fs = FileSystem.getLocal(new Configuration());
    for (String table : TABLES) {
      org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(output.resolve(table).toUri());
      long last = seen.getOrDefault(table, -1L);
      for (long version : DeltaCommits.versions(fs, path)) {
        if (version <= last) {
          continue;
        }
        seen.put(table, version);
        DeltaCommits.commitInfo(fs, DeltaCommits.commitFile(path, version))
            .ifPresent(info -> addCommit(byOperation, table, info));
      }
    }
    StringBuilder text = new StringBuilder();
    byOperation.forEach((op, v) -> text.append(String.format("%s%s x%d +%d files (%.1f MB) -%d files (%.1f MB)",
        text.length() == 0 ? "" : "; ", op, v[0], v[1], v[2] / MB, v[3], v[4] / MB)));
    return text.toString();
  }

  private static void addCommit(Map<String, long[]> byOperation, String table, JsonNode info) {
    JsonNode metrics = info.path("operationMetrics");
    String operation = info.path("operation").asText();
    if (info.path("operationParameters").path("auto").asBoolean(false)) {
      operation += " (auto) of " + table;
    }
    long[] sums = byOperation.computeIfAbsent(operation, k -> new long[5]);
    sums[0]++;
    sums[1] += metrics.path("numAddedFiles").asLong(metrics.path("numFiles").asLong(0));
    sums[2] += metrics.path("numAddedBytes").asLong(metrics.path("numOutputBytes").asLong(0));
    sums[3] += metrics.path("numRemovedFiles").asLong(0);
    sums[4] += metrics.path("numRemovedBytes").asLong(0);
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
}
