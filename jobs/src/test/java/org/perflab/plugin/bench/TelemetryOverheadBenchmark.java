package org.perflab.plugin.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;
import org.perflab.memory.gc.Telemetry;
import org.perflab.memory.gc.TelemetryReader;
import org.perflab.plugin.MemoryTelemetryPlugin;

/**
 * The memory telemetry plugin's overhead (issue 12; reference 004 §4.4 test 13): a cached iterative job (KMeans-like:
 * {@code points} cached 16-dimensional points (default 400,000), {@code passes} passes (default 20) that each allocate a little garbage per point and reduce)
 * on a fresh {@code local[2]} context per run, the event log on in every run, the plugin off and on. One warm-up run
 * of each, then three timed runs of each, alternating (off, on, off, on, off, on), so that the load of a shared machine
 * falls on both. It prints each run's job wall time (context start excluded), the medians, the ratio on / off, and
 * what the plugin recorded. Not a test: it prints figures. Run with {@code bench/run telemetry [points] [passes]}.
 */
public final class TelemetryOverheadBenchmark {
  private static final int RUNS = 3;

  private TelemetryOverheadBenchmark() {}

  public static void main(String[] args) throws Exception {
    int points = args.length > 0 ? Integer.parseInt(args[0]) : 400_000;
    int passes = args.length > 1 ? Integer.parseInt(args[1]) : 20;
    Path events = Files.createTempDirectory("perflab-telemetry-bench");
    System.out.printf(Locale.ROOT, "Telemetry overhead: %d points x %d passes, local[2], event log on%n", points,
        passes);
    run(events, points, passes, false);
    run(events, points, passes, true);
    List<Double> off = new ArrayList<>();
    List<Double> on = new ArrayList<>();
    for (int i = 0; i < RUNS; i++) {
      off.add(report("off", run(events, points, passes, false)));
      on.add(report("on", run(events, points, passes, true)));
    }
    double medianOff = median(off);
    double medianOn = median(on);
    System.out.printf(Locale.ROOT, "median off %.2f s, on %.2f s, ratio on/off %.3f (min %.2f/%.2f s); "
            + "load average %.1f%n", medianOff, medianOn, medianOn / medianOff,
        off.stream().mapToDouble(d -> d).min().orElseThrow(), on.stream().mapToDouble(d -> d).min().orElseThrow(),
        java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
  }

  /** The seconds of one run, and what the plugin recorded (null when off). */
  private record Run(double seconds, Telemetry telemetry) {}

  private static double report(String mode, Run run) {
    String recorded = run.telemetry() == null ? "" : String.format(Locale.ROOT,
        "  (%d GC records, %d block events, %d task records, problems %s)",
        run.telemetry().gcRuns().values().stream().mapToInt(r -> r.collections().size()).sum(),
        run.telemetry().blocks().size(), run.telemetry().tasks().size(), run.telemetry().problems());
    System.out.printf(Locale.ROOT, "plugin %-3s %7.2f s%s%n", mode, run.seconds(), recorded);
    return run.seconds();
  }

  private static Run run(Path events, int points, int passes, boolean plugin) throws Exception {
    SparkSession.Builder builder = SparkSession.builder().master("local[2]").appName("TelemetryOverheadBenchmark")
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
        .config("spark.eventLog.enabled", "true").config("spark.eventLog.dir", events.toUri().toString());
    if (plugin) {
      builder.config("spark.plugins", MemoryTelemetryPlugin.class.getName());
    }
    SparkSession spark = builder.getOrCreate();
    String appId = spark.sparkContext().applicationId();
    double seconds;
    try {
      long start = System.nanoTime();
      workload(JavaSparkContext.fromSparkContext(spark.sparkContext()), points, passes);
      seconds = (System.nanoTime() - start) / 1e9;
    } finally {
      spark.stop();
    }
    Telemetry telemetry = plugin ? TelemetryReader.read(FileSystem.getLocal(new Configuration()).getRaw(),
        TelemetryReader.directoryFor(new org.apache.hadoop.fs.Path(events.resolve(appId).toUri()))) : null;
    return new Run(seconds, telemetry);
  }

  /** KMeans-like: cache the points, then passes that compute each point's distance to a moving centre and sum. */
  private static void workload(JavaSparkContext sc, int points, int passes) {
    JavaRDD<double[]> cached = sc.parallelize(IntStream.range(0, points).boxed().toList(), 8)
        .map(i -> {
          double[] p = new double[16];
          for (int d = 0; d < p.length; d++) {
            p[d] = (i * 31 + d * 17) % 1000 / 1000.0;
          }
          return p;
        })
        .persist(StorageLevel.MEMORY_ONLY());
    cached.count();
    double centre = 0.5;
    for (int pass = 0; pass < passes; pass++) {
      double c = centre;
      double sum = cached.map(p -> {
        double[] shifted = Arrays.copyOf(p, p.length);
        double distance = 0;
        for (double v : shifted) {
          distance += (v - c) * (v - c);
        }
        return distance;
      }).reduce(Double::sum);
      centre = 0.5 + sum / points / 100;
    }
    cached.unpersist(true);
  }

  private static double median(List<Double> values) {
    double[] sorted = values.stream().mapToDouble(d -> d).sorted().toArray();
    return sorted[sorted.length / 2];
  }
}
