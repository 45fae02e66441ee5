package org.perflab.jobs.nightly;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The night's printed summary, and which steps a night skips because nothing they read changed, without Spark: each
 * step's "job" commits to its own table as a Delta commit file, which is all {@link TableWrites} reads.
 */
class NightTest {
  private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-01T02:00:00Z"), ZoneOffset.UTC);
  private static final NightOptions EVERY_STEP = new NightOptions(List.of("/archive"), "/out", false, Set.of());

  @TempDir Path root;
  /** The steps that ran, in order, across the nights of a test. */
  private final List<String> ran = new ArrayList<>();
  /** What the nights did, in order: "run JOB" when a step runs, "record JOB,JOB" for each call of the recorder. */
  private final List<String> events = java.util.Collections.synchronizedList(new ArrayList<>());
  /** The exit code each step returns; 0 for a step not named. */
  private final Map<String, Integer> exits = new HashMap<>();

  @Test
  void aNightWhoseTablesAreAsTheLastCompleteNightLeftThemRerunsOnlyTheStepsThatReadOutsideThem() throws IOException {
    Night.Summary first = night(EVERY_STEP, "b1").run("R1");
    assertThat(first.exitCode()).isZero();
    assertThat(ran).containsExactlyElementsOf(Pipeline.jobs());

    ran.clear();
    ByteArrayOutputStream progress = new ByteArrayOutputStream();
    Night.Summary second = night(EVERY_STEP, "b1", progress).run("R2");

    assertThat(second.exitCode()).isZero();
    assertThat(ran).containsExactly("ingest", "maintain", "report");
    assertThat(second.steps()).filteredOn(s -> !ran.contains(s.step())).hasSize(Pipeline.jobs().size() - 3)
        .allSatisfy(s -> {
          assertThat(s.exitCode()).contains(0);
          assertThat(s.message()).isEqualTo("unchanged since night R1: every table it reads is at that night's version");
        });
    assertThat(progress.toString(StandardCharsets.UTF_8))
        .contains("nightly: step 3 of " + Pipeline.jobs().size() + ": features not rerun: unchanged since night R1");
    // A step that ran is recorded when it ends; the steps not rerun all at once, before the next step runs (report
    // reads nightly_runs): four commits of nightly_runs, not one per step.
    List<String> notRerun = Pipeline.jobs().subList(2, Pipeline.jobs().size() - 1);
    assertThat(events.subList(events.lastIndexOf("run ingest"), events.size())).containsExactly("run ingest",
        "record ingest", "run maintain", "record maintain", "record " + String.join(",", notRerun), "run report",
        "record report");
  }

  @Test
  void aTableChangedSinceTheLastCompleteNightRerunsEveryStep() throws IOException {
    night(EVERY_STEP, "b1").run("R1");
    commit("applications", "WRITE"); // a new log ingested outside the night, or a table rewritten by hand

    ran.clear();
    night(EVERY_STEP, "b1").run("R2");
    assertThat(ran).containsExactlyElementsOf(Pipeline.jobs());
  }

  @Test
  void aFullNightOrAnotherBuildRerunsEveryStep() throws IOException {
    night(EVERY_STEP, "b1").run("R1");

    ran.clear();
    night(new NightOptions(List.of("/archive"), "/out", true, Set.of()), "b1").run("R2");
    assertThat(ran).as("--full").containsExactlyElementsOf(Pipeline.jobs());

    ran.clear();
    night(EVERY_STEP, "b2").run("R3");
    assertThat(ran).as("another build").containsExactlyElementsOf(Pipeline.jobs());
  }

  @Test
  void onlyACompleteNightWhoseStepsAllExitedZeroIsRemembered() throws IOException {
    exits.put("cluster", 2);
    night(EVERY_STEP, "b1").run("R1");
    exits.clear();
    night(new NightOptions(List.of("/archive"), "/out", false, Set.of("ingest", "features")), "b1").run("R2");
    assertThat(memory().read()).as("a night with a step exiting 2, then a night of two steps").isEmpty();

    night(EVERY_STEP, "b1").run("R3");
    assertThat(memory().read()).map(NightState::runId).contains("R3");
    ran.clear();
    exits.put("scaling", 1);
    night(EVERY_STEP, "b1").run("R4"); // nothing changed: scaling does not run, so cannot fail
    assertThat(ran).containsExactly("ingest", "maintain", "report");
    assertThat(memory().read()).map(NightState::runId).contains("R4");
  }

  /**
   * Two steps at a time: no two steps that conflict (one writes what the other reads or writes) or depend on each other
   * ever run together, some do, every step runs once, and the summary keeps pipeline order.
   */
  @Test
  void stepsRunTwoAtATimeOnlyWhenNeitherWritesWhatTheOtherTouches() throws IOException {
    Set<String> running = java.util.concurrent.ConcurrentHashMap.newKeySet();
    List<String> together = java.util.Collections.synchronizedList(new ArrayList<>());
    List<String> violations = java.util.Collections.synchronizedList(new ArrayList<>());
    List<String> order = java.util.Collections.synchronizedList(new ArrayList<>());
    StepRunner runner = (step, arguments, runId) -> {
      besides(step, running, together, violations);
      running.add(step.job());
      order.add(step.job());
      try {
        Thread.sleep(step.job().equals("features") || step.job().equals("stage-costs") ? 150 : 30);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      // Again at the end: a step that started during this one's sleep, or just before it, is running now.
      besides(step, running, together, violations);
      running.remove(step.job());
      return new StepResult(0, step.job() + ": done");
    };
    NightOptions twoAtOnce = new NightOptions(List.of("/archive"), "/out", false, Set.of(), 2);

    Night.Summary summary = night(twoAtOnce, "b1", runner, new ByteArrayOutputStream()).run("R1");

    assertThat(summary.exitCode()).isZero();
    assertThat(summary.steps()).extracting(StepRecord::step).containsExactlyElementsOf(Pipeline.jobs());
    assertThat(order).containsExactlyInAnyOrderElementsOf(Pipeline.jobs());
    assertThat(violations).isEmpty();
    assertThat(together).as("pairs that ran at the same time").contains("features+stage-costs");
    assertThat(order.indexOf("report")).isEqualTo(order.size() - 1);
  }

  /** Records each step running beside {@code step} (the pair in name order) and each that must not run beside it. */
  private static void besides(Step step, Set<String> running, List<String> together, List<String> violations) {
    for (String other : running) {
      if (other.equals(step.job())) {
        continue;
      }
      Step beside = Pipeline.step(other).orElseThrow();
      String pair = other.compareTo(step.job()) < 0 ? other + "+" + step.job() : step.job() + "+" + other;
      together.add(pair);
      if (beside.conflictsWith(step) || Pipeline.prerequisites(step.job()).contains(other)) {
        violations.add(other + " with " + step.job());
      }
    }
  }

  /**
   * A step's record is written in the recorder's thread while the next steps run; the records keep their order, a step
   * that reads every table (report, which shows nightly_runs) starts only once every earlier record is written, and
   * the night returns only once its last record is. The recorder prepares (creates its table) before any record.
   */
  @Test
  void recordsAreWrittenBesideTheNextStepsAndAllBeforeReportAndTheNightsEnd() throws Exception {
    java.util.concurrent.CountDownLatch featuresRan = new java.util.concurrent.CountDownLatch(1);
    StepRunner runner = (step, arguments, runId) -> {
      events.add("run " + step.job());
      if (step.job().equals("features")) {
        featuresRan.countDown();
      }
      return new StepResult(0, "done");
    };
    Night.Recorder recorder = new Night.Recorder() {
      @Override
      public void record(List<StepRecord> records) {
        String steps = String.join(",", records.stream().map(StepRecord::step).toList());
        try { // ingest's record is written only once the step after it has run: only a recorder beside the steps can
          if (steps.equals("ingest") && !featuresRan.await(60, java.util.concurrent.TimeUnit.SECONDS)) {
            events.add("features did not run while ingest's record was written");
          }
          Thread.sleep(50); // a commit takes time: report must still wait for it
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        events.add("record " + steps);
      }

      @Override
      public void prepare() {
        events.add("prepare");
      }
    };
    FileSystem fs = FileSystem.getLocal(new Configuration());
    org.apache.hadoop.fs.Path out = new org.apache.hadoop.fs.Path(root.toUri());
    NightOptions three = new NightOptions(List.of("/archive"), "/out", false, Set.of("ingest", "features", "report"));
    Night.Summary summary = new Night(three, runner, new TableWrites(fs, out), recorder, new NightMemory(fs, out), "b1",
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), CLOCK).run("R1");

    assertThat(summary.exitCode()).isZero();
    assertThat(events).filteredOn(e -> !e.equals("prepare")).containsExactly("run ingest", "run features",
        "record ingest", "record features", "run report", "record report");
    assertThat(events.indexOf("prepare")).as("prepared once, before the first record").isNotNegative()
        .isEqualTo(events.lastIndexOf("prepare")).isLessThan(events.indexOf("record ingest"));

    // a night whose first step reads every table (maintain alone) finds the root as it was: nothing prepared
    events.clear();
    NightOptions maintainFirst = new NightOptions(List.of("/archive"), "/out", false, Set.of("maintain", "report"));
    new Night(maintainFirst, runner, new TableWrites(fs, out), recorder, new NightMemory(fs, out), "b1",
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), CLOCK).run("R2");
    assertThat(events).containsExactly("run maintain", "record maintain", "run report", "record report");
  }

  /** Two at a time, a failed step still skips its dependents, and an Error in a step (out of memory) ends the night. */
  @Test
  void twoAtATimeAFailureSkipsItsDependentsAndAnErrorEndsTheNight() throws IOException {
    NightOptions twoAtOnce = new NightOptions(List.of("/archive"), "/out", false, Set.of(), 2);
    StepRunner failing = (step, arguments, runId) -> new StepResult(step.job().equals("model") ? 1 : 0, "done");
    Night.Summary summary = night(twoAtOnce, "b1", failing, new ByteArrayOutputStream()).run("R1");
    assertThat(summary.exitCode()).isEqualTo(1);
    assertThat(summary.steps()).filteredOn(s -> s.step().equals("sweep")).singleElement()
        .satisfies(s -> assertThat(s.skippedReason()).contains("it reads what model writes, and model failed"));
    assertThat(summary.steps()).filteredOn(s -> s.step().equals("report")).singleElement()
        .satisfies(s -> assertThat(s.exitCode()).contains(0));

    StepRunner dying = (step, arguments, runId) -> {
      if (step.job().equals("cluster")) {
        throw new OutOfMemoryError("Java heap space");
      }
      return new StepResult(0, "done");
    };
    org.assertj.core.api.Assertions.assertThatThrownBy(
        () -> night(twoAtOnce, "b1", dying, new ByteArrayOutputStream()).run("R2"))
        .isInstanceOf(OutOfMemoryError.class);
  }

  private Night night(NightOptions options, String build, StepRunner runner, ByteArrayOutputStream progress)
      throws IOException {
    FileSystem fs = FileSystem.getLocal(new Configuration());
    org.apache.hadoop.fs.Path out = new org.apache.hadoop.fs.Path(root.toUri());
    return new Night(options, runner, new TableWrites(fs, out), records -> events.add("record "
        + String.join(",", records.stream().map(StepRecord::step).toList())), new NightMemory(fs, out), build,
        new PrintStream(progress, true, StandardCharsets.UTF_8), CLOCK);
  }

  private Night night(NightOptions options, String build) throws IOException {
    return night(options, build, new ByteArrayOutputStream());
  }

  private Night night(NightOptions options, String build, ByteArrayOutputStream progress) throws IOException {
    FileSystem fs = FileSystem.getLocal(new Configuration());
    org.apache.hadoop.fs.Path out = new org.apache.hadoop.fs.Path(root.toUri());
    StepRunner runner = (step, arguments, runId) -> {
      ran.add(step.job());
      events.add("run " + step.job());
      int exit = exits.getOrDefault(step.job(), 0);
      // Ingest commits only when it finds new logs (none here); maintain compacts what sweep wrote, which changes
      // files, not rows; report writes workload_history every night.
      if (step.job().equals("maintain")) {
        commit("sweep", "OPTIMIZE");
      } else if (!step.job().equals("ingest") && exit != 1) {
        commit(step.job().replace('-', '_'), "WRITE");
      }
      return new StepResult(exit, step.job() + ": done");
    };
    return new Night(options, runner, new TableWrites(fs, out), records -> events.add("record "
        + String.join(",", records.stream().map(StepRecord::step).toList())), new NightMemory(fs, out), build,
        new PrintStream(progress, true, StandardCharsets.UTF_8), CLOCK);
  }

  private NightMemory memory() throws IOException {
    return new NightMemory(FileSystem.getLocal(new Configuration()), new org.apache.hadoop.fs.Path(root.toUri()));
  }

  /** One more Delta commit file in {@code table}'s log, of {@code operation}. */
  private void commit(String table, String operation) {
    commit(table, operation, "{}");
  }

  /** One more Delta commit file in {@code table}'s log, of {@code operation} with {@code metrics} (a JSON object). */
  private void commit(String table, String operation, String metrics) {
    try {
      Path log = Files.createDirectories(root.resolve(table).resolve("_delta_log"));
      long next;
      try (var files = Files.list(log)) {
        next = files.filter(f -> f.toString().endsWith(".json")).count();
      }
      Files.writeString(log.resolve(String.format("%020d.json", next)),
          "{\"commitInfo\":{\"operation\":\"" + operation + "\",\"operationMetrics\":" + metrics + "}}\n");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The runner is told each step's rows written as soon as it ends, before the steps after it start: what lets a
   * night compile its SQL after a large ingest ({@link CompiledSql}); its line goes to the night's progress.
   */
  @Test
  void theRunnerIsToldTheRowsAStepWroteBeforeTheStepsAfterItStart() throws IOException {
    List<String> told = java.util.Collections.synchronizedList(new ArrayList<>());
    StepRunner runner = new StepRunner() {
      @Override
      public StepResult run(Step step, List<String> arguments, String runId) {
        told.add("run " + step.job());
        if (step.job().equals("ingest")) {
          commit("tasks", "WRITE", "{\"numOutputRows\":\"1500000\"}");
        }
        return new StepResult(0, step.job() + ": done");
      }

      @Override
      public Optional<String> wrote(Step step, Map<String, Long> rows) {
        told.add("wrote " + step.job() + " " + rows);
        return step.job().equals("ingest") ? Optional.of("told ingest " + rows.get("tasks")) : Optional.empty();
      }
    };
    ByteArrayOutputStream progress = new ByteArrayOutputStream();
    night(new NightOptions(List.of("/archive"), "/out", false, Set.of("ingest", "features")), "b1", runner, progress)
        .run("R1");

    assertThat(told).containsExactly("run ingest", "wrote ingest {tasks=1500000}", "run features",
        "wrote features {}");
    String printed = progress.toString(StandardCharsets.UTF_8);
    assertThat(printed).contains("(rows written: {tasks=1500000})" + System.lineSeparator() + "told ingest 1500000"
        + System.lineSeparator());
  }

  @Test
  void theSummaryOpensWithWhatRegressedThenOneLinePerStep() {
    Instant at = Instant.parse("2026-12-01T02:00:00Z");
    Night.Summary summary = new Night.Summary("R1", List.of(
        new StepRecord("R1", "features", at, 12, Optional.of(0), Map.of(), "features: full run", Optional.empty()),
        new StepRecord("R1", "regressions", at, 3, Optional.of(0), Map.of("regressions", 8L),
            "regressions: incremental run (1 logs changed since R0): 8 applications judged, 1 regressions",
            Optional.empty())), 15);
    String regressed = "regressed: wordcount (app-6) wall time 1.22x (+4.4 s): ENVIRONMENT: every stage slower";

    List<String> lines = Night.describe(summary, "/out", List.of(regressed)).lines().toList();

    assertThat(lines).hasSize(4);
    assertThat(lines.get(0)).isEqualTo("nightly summary (output /out, run R1, 15s):");
    assertThat(lines.get(1)).isEqualTo(regressed);
    assertThat(lines.get(2)).startsWith("features     exit   0      12s  features: full run");
    assertThat(lines.get(3)).startsWith("regressions  exit   0       3s");
  }
}
