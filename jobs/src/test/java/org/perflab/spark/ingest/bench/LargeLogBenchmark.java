package org.perflab.spark.ingest.bench;

import java.io.BufferedWriter;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;
import org.perflab.eventlog.redact.Redactor;
import org.perflab.eventlog.source.EventLogLines;
import org.perflab.eventlog.source.EventLogSource;
import org.perflab.eventlog.source.LogDiscovery;
import org.perflab.spark.ingest.Ingest;
import org.perflab.spark.ingest.IngestOptions;
import org.perflab.spark.ingest.IngestSummary;

/**
 * Memory of ingesting one large log: builds a plain event log of the given size from the bundled sample with the
 * most tasks (its task events repeated under new task ids), ingests it on local[2] inside this JVM, and prints the
 * peak heap in use. Run with a small heap to check that parsing streams: {@code BENCH_HEAP=1g bench/run large-log
 * 1024}. Not a test.
 */
public final class LargeLogBenchmark {
  private static final Pattern TASK_ID = Pattern.compile("\"Task ID\":(\\d+)");

  private LargeLogBenchmark() {}

  public static void main(String[] args) throws IOException {
    long targetBytes = (args.length > 0 ? Long.parseLong(args[0]) : 1024) * 1024 * 1024;
    Path dir = args.length > 1 ? Paths.get(args[1]) : Files.createTempDirectory("perflab-large-log");
    Path log = dir.resolve("logs").resolve("local-1900000000000");
    Files.createDirectories(log.getParent());
    long written = write(log, sample(), targetBytes);
    System.out.printf(Locale.ROOT, "log: %s, %.0f MB plain%n", log, written / 1e6);
    System.out.printf(Locale.ROOT, "max heap: %.0f MB%n", Runtime.getRuntime().maxMemory() / 1e6);

    SparkSession spark = org.perflab.spark.storage.DeltaSessions.builder("perflab-tests").master("local[2]").appName("LargeLogBenchmark")
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "2").getOrCreate();
    resetPeaks();
    long start = System.nanoTime();
    IngestSummary summary = new Ingest(spark, new IngestOptions(List.of(log.getParent().toString()),
        dir.resolve("tables").toString(), false, Redactor.DEFAULT_PATTERN, 0), Clock.systemUTC()).run();
    double seconds = (System.nanoTime() - start) / 1e9;
    long tasks = spark.read().format("delta").load(dir.resolve("tables/tasks").toString()).count();
    System.out.println(summary);
    System.out.printf(Locale.ROOT, "ingested %d task rows from %.0f MB in %.1f s (%.1f MB/s); peak heap used %.0f MB"
        + " of %.0f MB%n", tasks, written / 1e6, seconds, written / 1e6 / seconds, peakHeap() / 1e6,
        Runtime.getRuntime().maxMemory() / 1e6);
    spark.stop();
  }

  /** The lines of the bundled sample log with the most task events. */
  private static List<String> sample() throws IOException {
    Configuration conf = new Configuration();
    List<String> best = List.of();
    long bestTasks = -1;
    for (EventLogSource source : LogDiscovery.discover(List.of("samples/spark-events"), conf).logs()) {
      List<String> lines = new ArrayList<>();
      try (EventLogLines reader = EventLogLines.open(source, conf)) {
        for (String line = reader.nextLine(); line != null; line = reader.nextLine()) {
          lines.add(line);
        }
      }
      long tasks = lines.stream().filter(LargeLogBenchmark::isTaskEvent).count();
      if (tasks > bestTasks) {
        best = lines;
        bestTasks = tasks;
      }
    }
    return best;
  }

  private static boolean isTaskEvent(String line) {
    return line.startsWith("{\"Event\":\"SparkListenerTask");
  }

  /** Writes the sample with its task events repeated until the file reaches {@code targetBytes}. */
  private static long write(Path log, List<String> lines, long targetBytes) throws IOException {
    int firstTask = indexOf(lines, true, 0);
    int afterTasks = lastTask(lines) + 1;
    long bytes = 0;
    try (BufferedWriter out = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
      for (String line : lines.subList(0, firstTask)) {
        bytes += writeLine(out, line);
      }
      for (long copy = 0; bytes < targetBytes; copy++) {
        long offset = copy * 100_000_000L;
        for (String line : lines.subList(firstTask, afterTasks)) {
          bytes += writeLine(out, isTaskEvent(line) ? shift(line, offset) : line);
        }
      }
      for (String line : lines.subList(afterTasks, lines.size())) {
        bytes += writeLine(out, line);
      }
    }
    return bytes;
  }

  private static String shift(String line, long offset) {
    Matcher matcher = TASK_ID.matcher(line);
    return matcher.find() ? matcher.replaceFirst("\"Task ID\":" + (Long.parseLong(matcher.group(1)) + offset)) : line;
  }

  private static int writeLine(BufferedWriter out, String line) throws IOException {
    out.write(line);
    out.write('\n');
    return line.getBytes(StandardCharsets.UTF_8).length + 1;
  }

  private static int indexOf(List<String> lines, boolean task, int from) {
    for (int i = from; i < lines.size(); i++) {
      if (isTaskEvent(lines.get(i)) == task) {
        return i;
      }
    }
    return lines.size();
  }

  private static int lastTask(List<String> lines) {
    for (int i = lines.size() - 1; i >= 0; i--) {
      if (isTaskEvent(lines.get(i))) {
        return i;
      }
    }
    return -1;
  }

  private static void resetPeaks() {
    System.gc();
    ManagementFactory.getMemoryPoolMXBeans().forEach(MemoryPoolMXBean::resetPeakUsage);
  }

  private static long peakHeap() {
    return ManagementFactory.getMemoryPoolMXBeans().stream()
        .filter(pool -> pool.getType() == MemoryType.HEAP)
        .mapToLong(pool -> pool.getPeakUsage().getUsed())
        .sum();
  }
}
