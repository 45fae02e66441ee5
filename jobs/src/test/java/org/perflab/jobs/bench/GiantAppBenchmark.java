package org.perflab.jobs.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The nightly over an archive holding one giant application: the bundled samples plus a {@link GiantLog} of N tasks
 * (default 1,000,000) expanded from the sample {@code local-1795305472854}, run by {@code submit/nightly} on
 * {@code local[2]} with a 2 GB driver. Prints each step's exit code and seconds (from the nightly's summary) and its
 * driver's live heap (after collection) and peak heap, which {@link DriverHeapPlugin} records. A step whose live heap
 * grows in proportion to N holds something per task. Not a test: run with {@code bench/run giant-app [N]...} (each N
 * in turn, in a fresh archive); needs {@code mvn -DskipTests package}. {@value #NIGHTLY_OPTIONS} in the environment adds
 * options of {@code submit/nightly} (e.g. {@code --concurrent-steps 1}).
 */
public final class GiantAppBenchmark {
  private static final Pattern STEP = Pattern.compile("(?m)^([\\w-]+) +exit +(\\d+) +(\\d+)s");
  private static final Pattern HEAP =
      Pattern.compile("live_bytes=(\\d+) peak_bytes=(\\d+) unmanaged_live_bytes=(\\d+)");
  /** The unmanaged live heap at a job group's first collection (absent from an application's own line). */
  private static final Pattern START = Pattern.compile("start_unmanaged_bytes=(-?\\d+)");
  /** The sampler's full collections and their seconds. */
  private static final Pattern COLLECTIONS = Pattern.compile("collections=(\\d+) collection_seconds=([\\d.]+)");
  /** Options for submit/nightly (space-separated), e.g. {@code --concurrent-steps 1}; the defaults without it. */
  static final String NIGHTLY_OPTIONS = "GIANT_NIGHTLY_OPTIONS";
  /** The driver's memory ({@code --driver-memory}), 2g unless set: a smaller one shows what the night needs. */
  static final String DRIVER_MEMORY = "GIANT_DRIVER_MEMORY";
  /** A heap line's job group: {@code perflab-nightly-<step>}, the step. */
  private static final Pattern GROUP = Pattern.compile("^group=perflab-nightly-([\\w-]+) ");
  private static final String APP_ID = "local-1900000000026";

  private GiantAppBenchmark() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    List<Long> sizes = new ArrayList<>();
    for (String a : args) {
      sizes.add(Long.parseLong(a));
    }
    if (sizes.isEmpty()) {
      sizes.add(1_000_000L);
    }
    Path repository = Path.of("").toAbsolutePath();
    System.out.printf(Locale.ROOT, "giant-app benchmark: load average %s%n", loadAverage());
    for (long n : sizes) {
      run(repository, n);
    }
  }

  private static void run(Path repository, long n) throws IOException, InterruptedException {
    Path work = Files.createTempDirectory("perflab-giant-" + n + "-");
    Path archive = work.resolve("archive");
    copy(repository.resolve("samples/spark-events"), archive);
    long start = System.nanoTime();
    Path log = GiantLog.template(repository.resolve("samples/spark-events/local-1795305472854"))
        .write(archive, APP_ID, n);
    System.out.printf(Locale.ROOT, "N=%d: generated %s (%.1f MB zstd) in %.0f s%n", n, log, Files.size(log) / 1e6,
        (System.nanoTime() - start) / 1e9);
    Path plugin = pluginClasses(repository, work);
    Path heaps = Files.createDirectories(work.resolve("heap"));
    Path out = work.resolve("nightly.out");
    List<String> command = new ArrayList<>(List.of(repository.resolve("submit/nightly").toString(), "--archive",
        archive.toString(), "--output", work.resolve("tables").toString(), "--master", "local[2]"));
    String more = System.getenv().getOrDefault(NIGHTLY_OPTIONS, "").trim();
    if (!more.isEmpty()) {
      command.addAll(List.of(more.split("\\s+")));
    }
    String driverMemory = System.getenv().getOrDefault(DRIVER_MEMORY, "2g");
    command.addAll(List.of("--", "--driver-memory", driverMemory, "--driver-class-path", plugin.toString(), "--conf",
        "spark.plugins=" + DriverHeapPlugin.class.getName(), "--conf", DriverHeapPlugin.DIRECTORY + "=" + heaps,
        "--conf", "spark.ui.enabled=false"));
    System.out.printf(Locale.ROOT, "N=%d: submit/nightly options %s, driver memory %s%n", n,
        more.isEmpty() ? "(defaults)" : more, driverMemory);
    ProcessBuilder process = new ProcessBuilder(command)
        .redirectOutput(out.toFile()).redirectError(work.resolve("nightly.err").toFile());
    process.environment().remove("SPARK_HOME");
    start = System.nanoTime();
    int code = process.start().waitFor();
    double seconds = (System.nanoTime() - start) / 1e9;
    Map<String, int[]> steps = new LinkedHashMap<>();
    Matcher m = STEP.matcher(Files.readString(out, StandardCharsets.UTF_8));
    while (m.find()) {
      steps.put(m.group(1), new int[] {Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3))});
    }
    Map<String, long[]> heap = heaps(heaps);
    System.out.printf(Locale.ROOT, "N=%d: nightly exit %d in %.0f s (work %s); load average %s%n", n, code, seconds,
        work, loadAverage());
    System.out.printf(Locale.ROOT, "%-12s %4s %7s %14s %14s %20s %20s%n", "step", "exit", "s", "live heap MB",
        "peak heap MB", "live unmanaged MB", "unmanaged at start");
    steps.forEach((step, v) -> {
      long[] h = heap.getOrDefault(step, new long[] {-1, -1, -1, -1});
      System.out.printf(Locale.ROOT, "%-12s %4d %7d %14.0f %14.0f %20.0f %20s%n", step, v[0], v[1], h[0] / 1e6,
          h[1] / 1e6, h[2] / 1e6, startMb(h[3]));
    });
    heap.forEach((name, h) -> {
      if (!steps.containsKey(name)) {
        System.out.printf(Locale.ROOT, "%-12s %4s %7s %14.0f %14.0f %20.0f %20s%n", name, "", "", h[0] / 1e6,
            h[1] / 1e6, h[2] / 1e6, startMb(h[3]));
      }
    });
    try (Stream<Path> files = Files.list(heaps)) {
      for (Path f : files.sorted().toList()) {
        Matcher c = COLLECTIONS.matcher(Files.readString(f, StandardCharsets.UTF_8));
        if (c.find()) {
          System.out.printf(Locale.ROOT, "N=%d: the sampler's full collections: %s, %s s of the night (%s)%n", n,
              c.group(1), c.group(2), f.getFileName());
        }
      }
    }
  }

  /** A start figure in MB, or "-" where there is none (a step in a submission of its own). */
  private static String startMb(long bytes) {
    return bytes < 0 ? "-" : String.format(Locale.ROOT, "%.0f", bytes / 1e6);
  }

  /**
   * The heap figures per step: a line {@code group=perflab-nightly-<step> ...} of {@link DriverHeapPlugin} is that
   * step's (the one-application night); a file's line without a group is its application's, named after the file
   * ("perflab model", "perflab-ingest": a night of submissions per step): {live, peak, unmanaged, unmanaged at the
   * step's start or -1}, each the largest when a step appears twice.
   */
  private static Map<String, long[]> heaps(Path dir) throws IOException {
    Map<String, long[]> out = new LinkedHashMap<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.sorted().toList()) {
        String application = f.getFileName().toString().replaceAll("-\\d+\\.heap$", "")
            .replaceFirst("^perflab[-_]", "");
        for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
          Matcher m = HEAP.matcher(line);
          if (!m.find()) {
            continue;
          }
          Matcher g = GROUP.matcher(line);
          String name = g.find() ? g.group(1) : application;
          Matcher s = START.matcher(line);
          long[] v = {Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), Long.parseLong(m.group(3)),
              s.find() ? Long.parseLong(s.group(1)) : -1};
          out.merge(name, v, (a, b) -> new long[] {Math.max(a[0], b[0]), Math.max(a[1], b[1]), Math.max(a[2], b[2]),
              Math.max(a[3], b[3])});
        }
      }
    }
    return out;
  }

  /** The sampler's classes alone in a directory (not the test classes and their resources). */
  private static Path pluginClasses(Path repository, Path work) throws IOException {
    Path from = repository.resolve("jobs/target/test-classes/org/perflab/jobs/bench");
    Path to = Files.createDirectories(work.resolve("plugin/org/perflab/jobs/bench"));
    try (Stream<Path> classes = Files.list(from)) {
      for (Path c : classes.filter(p -> p.getFileName().toString().startsWith("DriverHeapPlugin")).toList()) {
        Files.copy(c, to.resolve(c.getFileName()), StandardCopyOption.REPLACE_EXISTING);
      }
    }
    return work.resolve("plugin");
  }

  private static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path f : files.toList()) {
        Path target = to.resolve(from.relativize(f).toString());
        if (Files.isDirectory(f)) {
          Files.createDirectories(target);
        } else {
          Files.copy(f, target);
        }
      }
    }
  }

  private static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).trim();
    } catch (IOException e) {
      return "unknown";
    }
  }
}
