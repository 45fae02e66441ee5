package org.perflab.eventlog.bench;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.SparkFirehoseListener;
import org.apache.spark.scheduler.ReplayListenerBus;
import org.apache.spark.scheduler.ReplayListenerBus$;
import org.apache.spark.scheduler.SparkListenerEvent;
import org.perflab.eventlog.EventLogReader;
import org.perflab.eventlog.parse.EventLogParser;
import org.perflab.eventlog.redact.Redactor;
import org.perflab.eventlog.source.EventLogLines;
import org.perflab.eventlog.source.EventLogSource;
import org.perflab.eventlog.source.LogDiscovery;
import org.perflab.testing.SharedData;

/**
 * Parse throughput per core (MB of uncompressed log per CPU second of the parsing thread): PerfLab's parser (every table row built and redacted) against Spark's own
 * {@code ReplayListenerBus} replaying the same decompressed bytes, in the same JVM, into a listener that counts
 * events. Prints MB/s of uncompressed log per core for each and the ratio. Not a test.
 *
 * <p>Usage: {@code bench/run parse [seconds-per-measurement] [task-copies] [log paths...]}; by default the bundled
 * sample logs and, when present, Spark's reference logs under {@code PERFLAB_SHARED}. Real archives are dominated by
 * task events, while these small logs are dominated by their environment; so every task start and end is repeated
 * {@code task-copies} times (default 50) under new task ids, which gives the task-heavy shape of production logs.
 */
public final class ParseBenchmark {
  private static final int ROUNDS = 5;

  private ParseBenchmark() {}

  public static void main(String[] args) throws IOException {
    double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 20;
    int taskCopies = args.length > 1 ? Integer.parseInt(args[1]) : 50;
    List<String> inputs = new ArrayList<>();
    for (int i = 2; i < args.length; i++) {
      inputs.add(args[i]);
    }
    if (inputs.isEmpty()) {
      inputs.add(Paths.get("samples/spark-events").toAbsolutePath().toString());
      Path reference = SharedData.root().resolve("data/spark-events");
      if (Files.isDirectory(reference)) {
        inputs.add(reference.toString());
      }
    }
    List<byte[]> logs = decompress(inputs, taskCopies);
    long bytes = logs.stream().mapToLong(log -> log.length).sum();
    if (System.getenv("PARSE_BENCH_DEBUG") != null) {
      for (byte[] log : logs) {
        System.out.println(new String(log, StandardCharsets.UTF_8).split("\n").length + " lines, spark events "
            + replayWithSpark(log) + ", perflab rows " + parseWithPerfLab(log));
      }
    }
    System.out.printf(Locale.ROOT, "corpus: %d logs, %.1f MB uncompressed, task events x%d, from %s%n", logs.size(),
        bytes / 1e6, taskCopies, inputs);
    Engine perflab = ParseBenchmark::parseWithPerfLab;
    Engine spark = ParseBenchmark::replayWithSpark;
    measure("warm-up PerfLab", perflab, logs, bytes, seconds / 2);
    measure("warm-up Spark", spark, logs, bytes, seconds / 2);
    if (Boolean.getBoolean("perflab.bench.oursOnly")) {
      measure("PerfLab EventLogParser", perflab, logs, bytes, seconds);
      return;
    }
    List<Double> ratios = new ArrayList<>();
    for (int round = 1; round <= ROUNDS; round++) {
      double ours = measure("PerfLab EventLogParser", perflab, logs, bytes, seconds / ROUNDS);
      double theirs = measure("Spark ReplayListenerBus", spark, logs, bytes, seconds / ROUNDS);
      ratios.add(ours / theirs);
    }
    ratios.sort(null);
    System.out.printf(Locale.ROOT, "ratio PerfLab / Spark, median of %d rounds: %.2fx (min %.2fx, max %.2fx; goal 3x)%n",
        ROUNDS, ratios.get(ROUNDS / 2), ratios.get(0), ratios.get(ROUNDS - 1));
  }

  /** Parses every log once; returns the events or rows seen, so the work cannot be optimised away. */
  private interface Engine {
    long run(byte[] log);
  }

  /**
   * Runs the engine over the corpus for about {@code seconds} of this thread's CPU time and returns MB per CPU
   * second: CPU time, not wall time, so that other processes on a shared machine do not skew the figure.
   */
  private static double measure(String name, Engine engine, List<byte[]> logs, long bytes, double seconds) {
    java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
    long start = threads.getCurrentThreadCpuTime();
    long wallStart = System.nanoTime();
    long passes = 0;
    long items = 0;
    while (threads.getCurrentThreadCpuTime() - start < seconds * 1e9) {
      for (byte[] log : logs) {
        items += engine.run(log);
      }
      passes++;
    }
    double cpu = (threads.getCurrentThreadCpuTime() - start) / 1e9;
    double wall = (System.nanoTime() - wallStart) / 1e9;
    double megabytesPerSecond = passes * bytes / 1e6 / cpu;
    System.out.printf(Locale.ROOT, "%-26s %8.1f MB per CPU second  (%d passes, %d items, %.1f s CPU, %.1f s wall)%n",
        name, megabytesPerSecond, passes, items, cpu, wall);
    return megabytesPerSecond;
  }

  private static long parseWithPerfLab(byte[] log) {
    // The production path: EventLogLines splits the decompressed bytes into lines, the parser scans them as bytes.
    EventLogLines lines = EventLogLines.of(new ByteArrayInputStream(log), "benchmark");
    EventLogParser parser = new EventLogParser(
        EventLogReader.identity(Benchmarks.PLAIN_SOURCE), EventLogReader.utf8(lines), REDACTOR, Clock.systemUTC());
    long rows = 0;
    while (parser.hasNext()) {
      parser.next();
      rows++;
    }
    return rows;
  }

  private static final Redactor REDACTOR = Redactor.defaults();

  private static long replayWithSpark(byte[] log) {
    long[] events = new long[1];
    ReplayListenerBus bus = new ReplayListenerBus();
    bus.addListener(new SparkFirehoseListener() {
      @Override
      public void onEvent(SparkListenerEvent event) {
        events[0]++;
      }
    });
    bus.replay(new ByteArrayInputStream(log), "benchmark", false, ReplayListenerBus$.MODULE$.SELECT_ALL_FILTER());
    return events[0];
  }

  private static final java.util.regex.Pattern TASK_ID = java.util.regex.Pattern.compile("\"Task ID\":(\\d+)");

  private static List<byte[]> decompress(List<String> inputs, int taskCopies) throws IOException {
    Configuration conf = new Configuration();
    List<byte[]> logs = new ArrayList<>();
    for (EventLogSource source : LogDiscovery.discover(inputs, conf).logs()) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      try (EventLogLines lines = EventLogLines.open(source, conf)) {
        for (String line = lines.nextLine(); line != null; line = lines.nextLine()) {
          boolean task = line.startsWith("{\"Event\":\"SparkListenerTask");
          for (int copy = 0; copy < (task ? taskCopies : 1); copy++) {
            long offset = copy * 10_000_000L;
            String text = copy == 0 ? line : TASK_ID.matcher(line)
                .replaceFirst(m -> "\"Task ID\":" + (Long.parseLong(m.group(1)) + offset));
            out.write(text.getBytes(StandardCharsets.UTF_8));
            out.write('\n');
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      logs.add(out.toByteArray());
    }
    return logs;
  }

  /** A stand-in source for in-memory logs. */
  private static final class Benchmarks {
    static final EventLogSource PLAIN_SOURCE = new EventLogSource("file:/benchmark/local-0",
        org.perflab.eventlog.source.LogLayout.SINGLE_FILE, List.of("file:/benchmark/local-0"), 0, 0,
        org.perflab.eventlog.source.LogCompression.NONE, false, null);
  }
}
