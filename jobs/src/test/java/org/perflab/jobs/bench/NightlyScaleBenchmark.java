package org.perflab.jobs.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The nightly pipeline over a growing archive: an archive of {@code base} logs (default 10,000; {@link ArchiveBuilder})
 * is ingested and analysed once by {@code submit/nightly} (night 0), then {@code nights} nights (default 3) each add
 * {@code growth} new logs (default 500) and run {@code submit/nightly} again on {@code local[2]}. For each night it
 * prints the archive's size, the new logs, the wall seconds of the night and of each step, and the seconds per new log;
 * then the ratio of the last night's time to the first incremental night's, next to the ratio of their archive sizes.
 * A pipeline whose nights grow with the new logs, not with the archive, keeps the first ratio near 1 while the second
 * grows. Last, a night with nothing new over the same archive; then the goals of issues 25 and 27 for these nights
 * (docs/benchmarks.md). Not a test: it prints figures. Run with {@code bench/run nightly-scale [base] [growth] [nights]}.
 */
public final class NightlyScaleBenchmark {
  private static final Pattern STEP = Pattern.compile("(?m)^ *([\\w-]+) +exit +(\\d+) +(\\d+)s");
  /** The summary's first line: the night's own seconds, from its first step's start to its last step's end. */
  private static final Pattern SUMMARY = Pattern.compile("nightly summary \\(output .*, run .*, (\\d+)s\\):");

  private NightlyScaleBenchmark() {}

  /** One night: archive logs, new logs, wall seconds, and seconds per step. */
  /**
   * One night: {@code seconds} of wall time from the submission to its end; {@code nightSeconds} the night's own, as
   * its summary says (its steps, without the driver's start), or -1 when it printed none.
   */
  record Night(int number, int archiveLogs, int newLogs, double seconds, int exitCode, Map<String, Integer> steps,
      int nightSeconds) {
    /**
     * The night's seconds outside {@code ingest}: its own seconds less ingest's (every other step waits for ingest,
     * and steps may run two at a time, so their seconds do not add up to the night's), or the sum of the other
     * steps' seconds when the summary gave no total.
     */
    int butIngest() {
      if (nightSeconds >= 0) {
        return nightSeconds - steps.getOrDefault("ingest", 0);
      }
      return steps.entrySet().stream().filter(e -> !e.getKey().equals("ingest")).mapToInt(Map.Entry::getValue).sum();
    }
  }

  public static void main(String[] args) throws IOException, InterruptedException {
    int base = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
    int growth = args.length > 1 ? Integer.parseInt(args[1]) : 500;
    int nights = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    if (base < 1 || growth < 1 || nights < 2) {
      throw new IllegalArgumentException(
          "Cannot run: base and growth must be >= 1 and nights >= 2 (" + base + ", " + growth + ", " + nights + ")");
    }
    Path repository = Path.of("").toAbsolutePath();
    Path work = Files.createTempDirectory("perflab-nightly-bench");
    Path archive = Files.createDirectories(work.resolve("archive"));
    ArchiveBuilder builder = ArchiveBuilder.of(archive);
    System.out.printf("nightly scale benchmark: %d logs, then %d nights of %d new logs, local[2], in %s%n", base,
        nights, growth, work);
    List<Night> results = new ArrayList<>();
    builder.add(0, base);
    results.add(night(repository, work, 0, base, base));
    for (int n = 1; n <= nights; n++) {
      int from = base + (n - 1) * growth;
      builder.add(from, from + growth);
      results.add(night(repository, work, n, from + growth, growth));
    }
    Night quiet = night(repository, work, nights + 1, base + nights * growth, 0);
    Night first = results.get(1);
    Night last = results.get(results.size() - 1);
    printGoals(results.subList(1, results.size()), quiet);
    System.out.printf("last ÷ first incremental night: time %.2f, archive size %.2f, new logs %.2f%n",
        last.seconds() / first.seconds(), (double) last.archiveLogs() / first.archiveLogs(),
        (double) last.newLogs() / first.newLogs());
    System.out.printf("first incremental night ÷ night 0: time %.3f, new logs %.3f%n",
        first.seconds() / results.get(0).seconds(), (double) first.newLogs() / results.get(0).newLogs());
  }

  private static Night night(Path repository, Path work, int number, int archiveLogs, int newLogs)
      throws IOException, InterruptedException {
    Path out = work.resolve("night-" + number + ".out");
    ProcessBuilder process = new ProcessBuilder(repository.resolve("submit/nightly").toString(), "--archive",
        work.resolve("archive").toString(), "--output", work.resolve("tables").toString(), "--master", "local[2]",
        "--conf", "spark.ui.enabled=false", "--conf", "spark.driver.memory=3g")
        .redirectOutput(out.toFile()).redirectError(work.resolve("night-" + number + ".err").toFile());
    process.environment().remove("SPARK_HOME");
    long start = System.nanoTime();
    int code = process.start().waitFor();
    double seconds = (System.nanoTime() - start) / 1e9;
    Map<String, Integer> steps = new LinkedHashMap<>();
    String printed = Files.readString(out, StandardCharsets.UTF_8);
    Matcher m = STEP.matcher(printed);
    while (m.find()) {
      steps.put(m.group(1), Integer.parseInt(m.group(3)));
    }
    Matcher summary = SUMMARY.matcher(printed);
    Night night = new Night(number, archiveLogs, newLogs, seconds, code, steps,
        summary.find() ? Integer.parseInt(summary.group(1)) : -1);
    System.out.printf("night %d: archive %d logs, %d new, exit %d, %.1f s (%s s per new log); steps (s): %s%n",
        number, archiveLogs, newLogs, code, seconds,
        newLogs == 0 ? "-" : String.format(java.util.Locale.ROOT, "%.3f", seconds / newLogs), steps);
    return night;
  }

  /** Issue 25's night with 500 new logs over 11,000, in seconds: the night, and its steps other than ingest. */
  static final double NEW_LOGS_NIGHT_GOAL_S = 180;
  static final double NEW_LOGS_STEPS_BUT_INGEST_GOAL_S = 120;
  /** Issue 25's night with no new logs over 11,000, in seconds. */
  static final double NOTHING_NEW_GOAL_S = 60;
  /** Issue 27's regressions step over 11,000 logs with 500 new, in seconds. */
  static final double REGRESSIONS_STEP_GOAL_S = 20;

  /**
   * The goals, as issues 25 and 27 set them for 500 new logs over 11,000 (and no new logs over 11,000): printed for
   * every incremental night and for the night with nothing new, with the archive each ran over.
   */
  private static void printGoals(List<Night> incremental, Night quiet) {
    for (Night n : incremental) {
      int butIngest = n.butIngest();
      Integer regressions = n.steps().get("regressions");
      System.out.printf("goals, night %d (%d logs, %d new): night %.1f s (goal <= %.0f: %s), the night after ingest %d s"
              + " (goal <= %.0f: %s), regressions %s s (goal <= %.0f: %s)%n", n.number(), n.archiveLogs(),
          n.newLogs(), n.seconds(), NEW_LOGS_NIGHT_GOAL_S, met(n.seconds() <= NEW_LOGS_NIGHT_GOAL_S), butIngest,
          NEW_LOGS_STEPS_BUT_INGEST_GOAL_S, met(butIngest <= NEW_LOGS_STEPS_BUT_INGEST_GOAL_S),
          regressions == null ? "-" : regressions, REGRESSIONS_STEP_GOAL_S,
          met(regressions != null && regressions <= REGRESSIONS_STEP_GOAL_S));
    }
    System.out.printf("goal, night %d (%d logs, nothing new): %.1f s (goal <= %.0f: %s)%n", quiet.number(),
        quiet.archiveLogs(), quiet.seconds(), NOTHING_NEW_GOAL_S, met(quiet.seconds() <= NOTHING_NEW_GOAL_S));
  }

  private static String met(boolean met) {
    return met ? "met" : "not met";
  }
}
