package org.perflab.jobs.nightly;

import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.perflab.errors.Futures;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the steps of one night: in pipeline order, one or more at a time ({@link #run}). A step that fails (exit 1, or
 * any code but 0 and 2) is reported and the steps that depend on it, directly or through another step, are skipped;
 * the others run on the last committed tables. A step that exits 2 wrote what it could: its dependents run. Progress
 * goes to {@code progress} as it happens ({@code nightly: step i of n: X started ...},
 * {@code ... ended: exit c after Ns; <summary>}); a step that ran has its record go to the {@link Recorder} when it
 * ends; the records of steps that did not run (not rerun, or skipped for a failed dependency) go together, in one
 * call, before the next step runs or when the night ends (each call is a commit of {@code nightly_runs}: a night with
 * nothing new makes 4, not 15). The recorder runs in a thread of its own, one call at a time in the order the records
 * were kept, while the next steps run: a step that reads or writes every table ({@code maintain}, {@code report})
 * starts only once every record kept before it is written, and the night returns only once all are. The recorder
 * {@linkplain Recorder#prepare prepares} while the first step runs, unless that step reads or writes every table (a
 * night of {@code maintain} alone must find the root as it was). The night's summary is returned.
 *
 * <p>A night that runs every step of the pipeline, each exiting 0, is remembered ({@link NightMemory}): the build, each
 * step's options and the version of every table it left. In a later night without {@code --full}, a step that
 * {@link Step.WhenUnchanged#SKIPS} does not run when the build and its options are the same and every table of the
 * output root still holds the rows that night left (its latest commit that changed rows is the same; {@code maintain}'s
 * compactions change files, not rows): run again, it would read the same rows and write the same ones. It is recorded with exit 0 and says so ({@code unchanged since night R}). A night with new logs changes
 * ingest's tables, and every step runs.
 */
public final class Night {
  private static final Logger LOG = LoggerFactory.getLogger(Night.class);

  /** Keeps steps' records, in order (the {@code nightly_runs} table); a failure to keep them must only warn. */
  @FunctionalInterface
  public interface Recorder {
    void record(List<StepRecord> records);

    /**
     * Called once, before the first {@link #record}, in the recorder's thread while the first step runs: creates what
     * recording needs (the table, on a first night). A failure must only warn; {@link #record} then tries again.
     */
    default void prepare() {}
  }

  /**
   * What a night did.
   *
   * @param runId the night's run id
   * @param steps one record per step, in order
   * @param seconds the night's wall time, in seconds
   */
  public record Summary(String runId, List<StepRecord> steps, double seconds) {
    /** 0 when every step exited 0 or 2; 1 when a step failed or was skipped because one it depends on failed. */
    public int exitCode() {
      return steps.stream().allMatch(StepRecord::usable) ? 0 : 1;
    }

    /** Whether step {@code job} ran and may be read (exit 0 or 2). */
    public boolean usable(String job) {
      return steps.stream().anyMatch(s -> s.step().equals(job) && s.usable());
    }
  }

  private final NightOptions options;
  private final StepRunner runner;
  private final TableWrites writes;
  private final Recorder recorder;
  private final NightMemory memory;
  private final String build;
  private final PrintStream progress;
  private final Clock clock;
  /**
   * The root's {@link TableWrites#contentVersions()} as read before the last step that was not rerun; null until read,
   * and again once a step runs (it may commit). A step that is not rerun commits nothing, so the next one reuses them.
   */
  private Map<String, Long> contentVersions;
  /** The recorder's thread while a night runs; records are written there one call at a time, in order. */
  private ExecutorService recording;
  /** Calls of the recorder not yet known to have returned, in the order they were made. */
  private final List<java.util.concurrent.Future<?>> recordsPending = new ArrayList<>();

  /**
   * A night of {@code options}, whose steps {@code runner} runs, whose table versions {@code writes} reads, whose
   * records go to {@code recorder}, and which remembers its last complete night in {@code memory}, made by build
   * {@code build} (a new build reruns every step).
   */
  public Night(NightOptions options, StepRunner runner, TableWrites writes, Recorder recorder, NightMemory memory,
      String build, PrintStream progress, Clock clock) {
    this.options = options;
    this.runner = runner;
    this.writes = writes;
    this.recorder = recorder;
    this.memory = memory;
    this.build = build;
    this.progress = progress;
    this.clock = clock;
  }

  /**
   * Runs the night's steps under run id {@code runId}: one at a time in pipeline order, or, with
   * {@link NightOptions#concurrentSteps} above 1, up to that many at once, each in a thread of its own, a step starting
   * once every step it must run after ({@link Pipeline#runsAfter}) has ended; among the steps ready, the earliest in
   * pipeline order starts first. An {@link Error} in a step (a driver out of memory) ends the night: it is thrown here.
   */
  public Summary run(String runId) {
    List<Step> steps = Pipeline.steps(options);
    Map<String, List<String>> runsAfter = Pipeline.runsAfter(steps);
    int atOnce = Math.min(options.concurrentSteps(), Math.max(1, steps.size()));
    ExecutorService threads = atOnce == 1 ? null : Executors.newFixedThreadPool(atOnce, Night::stepThread);
    recording = Executors.newSingleThreadExecutor(work -> daemon(work, "perflab-night-record"));
    try {
      if (!steps.isEmpty() && !touchesEveryTable(steps.get(0))) { // else the step would find the table prepared
        recordsPending.add(recording.submit(this::prepareRecorder));
      }
      return run(runId, steps, runsAfter, atOnce, threads);
    } finally {
      if (threads != null) {
        threads.shutdownNow();
      }
      recording.shutdown(); // records kept before an Error in a step are still written
    }
  }

  private Summary run(String runId, List<Step> steps, Map<String, List<String>> runsAfter, int atOnce,
      ExecutorService threads) {
    Map<String, StepRecord> done = new HashMap<>();
    StepRecord[] records = new StepRecord[steps.size()];
    boolean[] started = new boolean[steps.size()];
    Instant nightStarted = clock.instant();
    Optional<NightState> last = options.full() ? Optional.empty() : memory.read();
    // Records of steps that did not run, kept together before the next step runs (which may read nightly_runs, as
    // report does) or at the night's end.
    List<StepRecord> notRun = new ArrayList<>();
    CompletionService<Ran> ended = threads == null ? null : new ExecutorCompletionService<>(threads);
    int running = 0;
    while (done.size() < steps.size()) {
      boolean decided = false;
      for (int i = 0; i < steps.size() && running < atOnce; i++) {
        Step step = steps.get(i);
        if (started[i] || !done.keySet().containsAll(runsAfter.get(step.job()))) {
          continue;
        }
        started[i] = true;
        String position = String.format("nightly: step %d of %d: %s", i + 1, steps.size(), step.job());
        Optional<String> failed = Pipeline.prerequisites(step.job()).stream()
            .filter(job -> done.containsKey(job) && !done.get(job).usable()).findFirst();
        if (failed.isPresent() || unchanged(step, last, running > 0)) {
          StepRecord record = failed.isPresent() ? skip(runId, step, failed.get(), position)
              : unchangedSince(runId, step, last.orElseThrow(), position);
          notRun.add(record);
          done.put(step.job(), record);
          records[i] = record;
          decided = true;
          break; // a step decided may make others ready: look again from the first
        }
        keep(notRun);
        notRun.clear();
        if (touchesEveryTable(step)) {
          awaitRecords();
        }
        contentVersions = null;
        double into = seconds(nightStarted, clock.instant());
        if (ended == null) {
          Ran ran = run(runId, step, i, position, into);
          finish(ran, done, records);
        } else {
          final int index = i;
          ended.submit(() -> run(runId, step, index, position, into));
          running++;
        }
        decided = true;
        break;
      }
      if (decided) {
        continue;
      }
      if (running == 0) {
        throw new IllegalStateException("Cannot run the night: no step can start (" + runsAfter + ")");
      }
      finish(next(ended), done, records);
      running--;
      contentVersions = null;
    }
    keep(notRun);
    awaitRecords();
    List<StepRecord> inOrder = List.of(records);
    Summary summary = new Summary(runId, inOrder, seconds(nightStarted, clock.instant()));
    remember(summary, steps);
    return summary;
  }

  /** A step that ran: its position in the night and its record. */
  private record Ran(int index, StepRecord record) {}

  private void finish(Ran ran, Map<String, StepRecord> done, StepRecord[] records) {
    keep(List.of(ran.record()));
    done.put(ran.record().step(), ran.record());
    records[ran.index()] = ran.record();
  }

  /** The next step to end; an {@link Error} it threw (out of memory) is thrown here and ends the night. */
  private static Ran next(CompletionService<Ran> ended) {
    return Futures.await(() -> ended.take().get(), "run the night's steps");
  }

  private static Thread stepThread(Runnable work) {
    return daemon(work, "perflab-night-step");
  }

  private static Thread daemon(Runnable work, String name) {
    Thread thread = new Thread(work, name);
    thread.setDaemon(true);
    return thread;
  }

  /** Whether {@code step} reads or writes every table, {@code nightly_runs} among them. */
  private static boolean touchesEveryTable(Step step) {
    return step.reads().contains(Step.EVERY_TABLE) || step.writes().contains(Step.EVERY_TABLE);
  }

  /** Waits until every record kept so far is written (or its failure warned about). */
  private void awaitRecords() {
    recordsPending.forEach(call -> Futures.await(call::get, "record the night's steps"));
    recordsPending.clear();
  }

  private void prepareRecorder() {
    try {
      recorder.prepare();
    } catch (Exception e) { // the first record tries again, and warns if it cannot either
      LOG.warn("Cannot prepare nightly_runs (the first step's record tries again): {}", e.getMessage());
    }
  }

  /** Whether {@code step} may skip: it skips when unchanged, and nothing it could read changed since {@code last}. */
  private boolean unchanged(Step step, Optional<NightState> last, boolean othersRunning) {
    if (step.whenUnchanged() != Step.WhenUnchanged.SKIPS || last.isEmpty()) {
      return false;
    }
    if (contentVersions == null || othersRunning) { // a step running beside may commit at any time
      try {
        contentVersions = writes.contentVersions();
      } catch (Exception e) {
        LOG.warn("Cannot read the tables' versions; {} runs: {}", step.job(), e.getMessage());
        return false;
      }
    }
    Map<String, Long> now = contentVersions;
    String why = last.get().whyRun(step.job(), step.arguments(options), build, now);
    if (why != null) {
      LOG.info("nightly: {} runs: {}", step.job(), why);
    }
    return why == null;
  }

  private StepRecord unchangedSince(String runId, Step step, NightState last, String position) {
    String message = "unchanged since night " + last.runId() + ": every table it reads is at that night's version";
    progress.println(position + " not rerun: " + message);
    return new StepRecord(runId, step.job(), clock.instant(), 0, Optional.of(0), Map.of(), message,
        Optional.empty());
  }

  /**
   * Remembers the night when it ran every step of the pipeline and each exited 0; a night that did not leaves the
   * previous state, which no longer matches the tables it changed. A failure to write it only warns.
   */
  private void remember(Summary summary, List<Step> steps) {
    boolean complete = steps.size() == Pipeline.STEPS.size()
        && summary.steps().stream().allMatch(s -> s.exitCode().equals(Optional.of(0)));
    if (!complete) {
      return;
    }
    try {
      Map<String, List<String>> arguments = new HashMap<>();
      steps.forEach(step -> arguments.put(step.job(), step.arguments(options)));
      memory.write(new NightState(summary.runId(), build, arguments, NightState.inputs(writes.contentVersions())));
    } catch (Exception e) {
      LOG.warn("Cannot remember the night (the next night reruns every step): {}", e.getMessage(), e);
    }
  }

  private StepRecord skip(String runId, Step step, String failed, String position) {
    String reason = "it reads what " + failed + " writes, and " + failed + " failed";
    progress.println(position + " skipped: " + reason);
    return new StepRecord(runId, step.job(), clock.instant(), 0, Optional.empty(), Map.of(), "", Optional.of(reason));
  }

  private Ran run(String runId, Step step, int index, String position, double intoTheNight) {
    Instant started = clock.instant();
    progress.printf(Locale.ROOT, "%s started at %s (%.0fs into the night)%n", position, started, intoTheNight);
    Map<String, Long> before = versions();
    StepResult result = runner.run(step, step.arguments(options), runId);
    double seconds = seconds(started, clock.instant());
    Map<String, Long> rows = before == null ? Map.of() : rowsSince(before, step);
    progress.printf(Locale.ROOT, "%s ended: exit %d after %.0fs; %s%s%n", position, result.exitCode(), seconds,
        result.message().isEmpty() ? "no summary" : result.message(), rows.isEmpty() ? "" : " (rows written: "
            + rows + ")");
    runner.wrote(step, rows).ifPresent(progress::println);
    return new Ran(index, new StepRecord(runId, step.job(), started, seconds, Optional.of(result.exitCode()), rows,
        result.message(), Optional.empty()));
  }

  private Map<String, Long> versions() {
    try {
      return writes.versions();
    } catch (Exception e) {
      LOG.warn("Cannot read the tables' versions before a step; its rows written are not counted: {}", e.getMessage());
      return null;
    }
  }

  /**
   * Rows written since {@code before} in the tables {@code step} may write: a step running beside it commits to others
   * (and the night to {@code nightly_runs}).
   */
  private Map<String, Long> rowsSince(Map<String, Long> before, Step step) {
    try {
      Map<String, Long> rows = new java.util.TreeMap<>(writes.since(before));
      rows.keySet().removeIf(table -> !step.mayWrite(table));
      return rows;
    } catch (Exception e) {
      LOG.warn("Cannot count the rows a step wrote: {}", e.getMessage());
      return Map.of();
    }
  }

  /**
   * Gives {@code records} to the recorder in one call, in the recorder's thread after the calls made before; nothing
   * when there are none.
   */
  private void keep(List<StepRecord> records) {
    if (records.isEmpty()) {
      return;
    }
    List<StepRecord> copy = List.copyOf(records);
    recordsPending.add(recording.submit(() -> write(copy)));
  }

  private void write(List<StepRecord> records) {
    try {
      recorder.record(records);
    } catch (Exception e) { // Hadoop and Delta throw checked IOExceptions undeclared (HDFS down)
      String steps = records.stream().map(StepRecord::step).collect(java.util.stream.Collectors.joining(", "));
      LOG.warn("Cannot append the steps' rows to nightly_runs (the night goes on): {}", e.getMessage(), e);
      progress.println("nightly: warning: cannot append " + steps + (records.size() == 1 ? "'s row" : "'s rows")
          + " to nightly_runs: " + e.getMessage());
    }
  }

  /**
   * The night's summary, as printed at its end: {@code first} (what regressed, the lines a reader needs first), then
   * one line per step.
   */
  public static String describe(Summary summary, String output, List<String> first) {
    StringBuilder text = new StringBuilder(String.format(Locale.ROOT, "nightly summary (output %s, run %s, %.0fs):%n",
        output, summary.runId(), summary.seconds()));
    first.forEach(line -> text.append(line).append(System.lineSeparator()));
    for (StepRecord step : summary.steps()) {
      if (step.skippedReason().isPresent()) {
        text.append(String.format("%-12s skipped   (%s)%n", step.step(), step.skippedReason().get()));
      } else {
        text.append(String.format(Locale.ROOT, "%-12s exit %3d  %6.0fs  %s%n", step.step(),
            step.exitCode().orElse(-1), step.seconds(), step.message()));
      }
    }
    return text.toString();
  }

  private static double seconds(Instant from, Instant to) {
    return Duration.between(from, to).toMillis() / 1000.0;
  }
}
