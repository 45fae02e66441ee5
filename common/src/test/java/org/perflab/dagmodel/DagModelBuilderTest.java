package org.perflab.dagmodel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.perflab.dagmodel.AppTrace.JobTrace;
import org.perflab.dagmodel.AppTrace.StageTrace;
import org.perflab.dagmodel.AppTrace.TaskTrace;
import org.perflab.errors.BadInputException;
import org.perflab.sim.Distribution;
import org.perflab.sim.Engine;
import org.perflab.sim.Model;
import org.perflab.sim.Result;
import org.perflab.sim.Stage;

class DagModelBuilderTest {
  /** Tasks of {@code n} × {@code ms} on {@code slots} slots from {@code startMs}, in waves; returns the end. */
  private static long waves(List<TaskTrace> tasks, int stage, int n, long ms, int slots, long startMs) {
    for (int i = 0; i < n; i++) {
      long launch = startMs + (i / slots) * ms;
      tasks.add(new TaskTrace(stage, 0, launch, launch + ms, true));
    }
    return startMs + ((n + slots - 1) / slots) * ms;
  }

  /**
   * Job 0 (stages 0 → 1) from 1,000 ms; job 1 submitted 500 ms after job 0 ends, listing skipped stage 2 (its output
   * reused) and stage 3, whose parents are 1 and 2. One failed attempt in stage 0. Application ends 300 ms later.
   */
  static AppTrace twoJobs() {
    List<TaskTrace> tasks = new ArrayList<>();
    long t = waves(tasks, 0, 4, 1000, 2, 1000);
    tasks.add(new TaskTrace(0, 0, 1000, 1400, false));
    long job0End = waves(tasks, 1, 2, 500, 2, t);
    long job1Start = job0End + 500;
    long job1End = waves(tasks, 3, 3, 200, 2, job1Start);
    return new AppTrace("app-1", "w", 0, job1End + 300, 2,
        List.of(new JobTrace(0, 1000, job0End, List.of(0, 1)), new JobTrace(1, job1Start, job1End, List.of(2, 3))),
        List.of(new StageTrace(0, 0, List.of(), 4, false), new StageTrace(1, 0, List.of(0), 2, false),
            new StageTrace(2, 0, List.of(), 4, true), new StageTrace(3, 0, List.of(1, 2), 3, false)),
        tasks);
  }

  private static Map<String, Stage> byName(Model m) {
    Map<String, Stage> map = new java.util.HashMap<>();
    m.stages().forEach(s -> map.put(s.name(), s));
    return map;
  }

  @Test
  void chainsJobsDropsSkippedStagesAndModelsDriverTime() {
    Model m = DagModelBuilder.build(twoJobs(), SampleMode.REPLAY, 1);
    Map<String, Stage> s = byName(m);
    assertThat(m.stages()).extracting(Stage::name)
        .containsExactly("driver-J0", "S0", "S1", "driver-J1", "S3", "driver-end");
    assertThat(m.nodes()).isEqualTo(2);
    assertThat(s.get("driver-J0").distribution()).isEqualTo(new Distribution.Deterministic(1.0));
    assertThat(s.get("S0").pre()).containsExactly("driver-J0");
    assertThat(s.get("S1").pre()).containsExactly("S0");
    assertThat(s.get("driver-J1").pre()).containsExactly("S1");
    assertThat(s.get("driver-J1").distribution()).isEqualTo(new Distribution.Deterministic(0.5));
    assertThat(s.get("S3").pre()).containsExactly("S1", "driver-J1");
    assertThat(s.get("driver-end").distribution()).isEqualTo(new Distribution.Deterministic(0.3));
    assertThat(s.get("S0").tasks()).isEqualTo(4);
    assertThat(((Distribution.Replay) s.get("S0").distribution()).samples()).containsExactly(1, 1, 1, 1);
    assertThat(((Distribution.Replay) s.get("S3").distribution()).samples()).containsExactly(0.2, 0.2, 0.2);
  }

  @Test
  void replayOnTheRunsOwnSlotsReproducesItsDuration() {
    AppTrace trace = twoJobs();
    Result r = new Engine(DagModelBuilder.build(trace, SampleMode.REPLAY, 1)).run();
    // 1 s driver, 2 waves of 1 s, 1 wave of 0.5 s, 0.5 s driver, 2 waves of 0.2 s, 0.3 s driver.
    assertThat(trace.durationS()).isCloseTo(4.7, within(1e-9));
    assertThat(r.execution().mean()).isCloseTo(trace.durationS(), within(1e-9));
  }

  @Test
  void predictsAnotherSlotCountByWaves() {
    Model on4 = DagModelBuilder.build(twoJobs(), SampleMode.REPLAY, 1).withNodes(4);
    // Stage 0 now runs in one wave (1 s), stage 3 in one wave (0.2 s): 4.7 − 1 − 0.2 = 3.5 s.
    assertThat(new Engine(on4).run().execution().mean()).isCloseTo(3.5, within(1e-9));
  }

  @Test
  void overlappingJobsBecomeParallelBranches() {
    List<TaskTrace> tasks = new ArrayList<>();
    waves(tasks, 0, 2, 1000, 4, 0);
    waves(tasks, 1, 2, 3000, 4, 500);
    waves(tasks, 2, 1, 100, 4, 3600);
    AppTrace trace = new AppTrace("app-2", "w", 0, 3700, 4,
        List.of(new JobTrace(0, 0, 1000, List.of(0)), new JobTrace(1, 500, 3500, List.of(1)),
            new JobTrace(2, 3600, 3700, List.of(2))),
        List.of(new StageTrace(0, 0, List.of(), 2, false), new StageTrace(1, 0, List.of(), 2, false),
            new StageTrace(2, 0, List.of(), 1, false)),
        tasks);
    Map<String, Stage> s = byName(DagModelBuilder.build(trace, SampleMode.EMPIRICAL, 10));
    assertThat(s.get("S0").pre()).isEmpty();
    assertThat(s.get("driver-J1").pre()).isEmpty();
    assertThat(s.get("driver-J1").distribution()).isEqualTo(new Distribution.Deterministic(0.5));
    assertThat(s.get("S1").pre()).containsExactly("driver-J1");
    assertThat(s.get("driver-J2").pre()).containsExactlyInAnyOrder("S0", "S1");
    assertThat(s.get("driver-J2").distribution()).isEqualTo(new Distribution.Deterministic(0.1));
    assertThat(s.get("S2").distribution()).isInstanceOf(Distribution.Empirical.class);
  }

  @Test
  void mergesSamplesAcrossRuns() {
    Model a = DagModelBuilder.build(twoJobs(), SampleMode.REPLAY, 1);
    AppTrace slower = twoJobs();
    List<TaskTrace> doubled = slower.tasks().stream()
        .map(t -> new TaskTrace(t.stageId(), t.stageAttempt(), t.launchMs(), t.finishMs() + (t.finishMs() - t.launchMs()),
            t.successful()))
        .toList();
    Model b = DagModelBuilder.build(new AppTrace("app-1b", "w", slower.startMs(), slower.endMs() + 1000, 2,
        slower.jobs(), slower.stages(), doubled), SampleMode.REPLAY, 1);
    Map<String, Stage> merged = byName(DagModelBuilder.mergeSamples(a, List.of(b)));
    assertThat(((Distribution.Empirical) merged.get("S3").distribution()).samples())
        .containsExactly(0.2, 0.2, 0.2, 0.4, 0.4, 0.4);
    assertThat(merged.get("driver-end").distribution()).isEqualTo(new Distribution.Deterministic(0.8));
  }

  @Test
  void refusesTracesWithNothingToModel() {
    AppTrace empty = new AppTrace("app-0", "w", 0, 10, 2, List.of(new JobTrace(0, 0, 10, List.of(0))),
        List.of(new StageTrace(0, 0, List.of(), 2, true)), List.of());
    assertThatThrownBy(() -> DagModelBuilder.build(empty, SampleMode.REPLAY, 1))
        .isInstanceOf(BadInputException.class).hasMessageContaining("no executed stage");
    AppTrace noTasks = new AppTrace("app-0", "w", 0, 10, 2, List.of(new JobTrace(0, 0, 10, List.of(0))),
        List.of(new StageTrace(0, 0, List.of(), 2, false)), List.of());
    assertThatThrownBy(() -> DagModelBuilder.build(noTasks, SampleMode.REPLAY, 1))
        .hasMessageContaining("stage 0 ran but has no successful task");
  }

  @Test
  void crossSlotPredictionsOfPerfectWavesHaveNoSimulatorError() {
    List<ModelledRun> runs = new ArrayList<>();
    for (int slots : new int[] {1, 2, 4}) {
      List<TaskTrace> tasks = new ArrayList<>();
      long end = waves(tasks, 0, 8, 1000, slots, 0);
      end = waves(tasks, 1, 4, 500, slots, end);
      AppTrace trace = new AppTrace("run-" + slots, "sleep", 0, end, slots,
          List.of(new JobTrace(0, 0, end, List.of(0, 1))),
          List.of(new StageTrace(0, 0, List.of(), 8, false), new StageTrace(1, 0, List.of(0), 4, false)), tasks);
      runs.add(new ModelledRun(trace.appId(), "sleep", slots, trace.durationS(),
          DagModelBuilder.build(trace, SampleMode.REPLAY, 1)));
    }
    List<Prediction> predictions = CrossSlotPredictor.predict(runs, 1, 1L);
    assertThat(predictions).hasSize(6);
    assertThat(CrossSlotPredictor.mape(predictions, Prediction::simulatedErrorPct)).isCloseTo(0.0, within(1e-9));
    Prediction oneToFour = predictions.stream()
        .filter(p -> p.fromSlots() == 1 && p.toSlots() == 4).findFirst().orElseThrow();
    assertThat(oneToFour.actualS()).isEqualTo(2.5);
    assertThat(oneToFour.simulatedS()).isCloseTo(2.5, within(1e-9));
    // Fork-join: two phases, work 8 s and 2 s on 4 cores, times H_4 = 25/12; overestimates.
    assertThat(oneToFour.forkJoinS()).isCloseTo((2.0 + 0.5) * 25 / 12, within(1e-9));
    assertThat(oneToFour.forkJoinErrorPct()).isNegative();
    // AMVA (averageCalc, series): ceil(8/4)·1 + ceil(4/4)·0.5 = 2.5.
    assertThat(oneToFour.taskPrecedenceS()).isCloseTo(2.5, within(1e-9));
  }

  @Test
  void schedulingTimeInsideAJobBecomesADelayBeforeTheStage() {
    List<TaskTrace> tasks = new ArrayList<>();
    long end0 = waves(tasks, 0, 2, 1000, 2, 100);
    long end1 = waves(tasks, 1, 2, 500, 2, end0 + 40);
    AppTrace trace = new AppTrace("app-3", "w", 0, end1, 2, List.of(new JobTrace(0, 0, end1, List.of(0, 1))),
        List.of(new StageTrace(0, 0, List.of(), 2, false, 100, end0),
            new StageTrace(1, 0, List.of(0), 2, false, end0 + 40, end1)),
        tasks);
    Model m = DagModelBuilder.build(trace, SampleMode.REPLAY, 1);
    Map<String, Stage> s = byName(m);
    assertThat(m.stages()).extracting(Stage::name).containsExactly("sched-S0", "S0", "sched-S1", "S1");
    assertThat(s.get("sched-S0").distribution()).isEqualTo(new Distribution.Deterministic(0.1));
    assertThat(s.get("sched-S1").pre()).containsExactly("S0");
    assertThat(s.get("S1").pre()).containsExactly("sched-S1");
    assertThat(new Engine(m).run().execution().mean()).isCloseTo(trace.durationS(), within(1e-9));
  }

  @Test
  void stagesCarryTheBytesOfTheirSuccessfulTasksAndStartUpIsADelayBeforeEverything() {
    // Stage 0 submitted at 100 ms, its first task launched at 1,100 ms (executors registering): 1 s of start-up.
    List<TaskTrace> tasks = new ArrayList<>(List.of(
        new TaskTrace(0, 0, 1100, 2100, true, 1000, 0),
        new TaskTrace(0, 0, 1100, 2100, true, 1000, 0),
        new TaskTrace(0, 0, 1100, 1500, false, 700, 0),
        new TaskTrace(1, 0, 2100, 2600, true, 0, 300),
        new TaskTrace(1, 0, 2100, 2600, true, 0, 200)));
    AppTrace trace = new AppTrace("app-4", "w", 0, 2600, 2, List.of(new JobTrace(0, 100, 2600, List.of(0, 1))),
        List.of(new StageTrace(0, 0, List.of(), 2, false, 100, 2100),
            new StageTrace(1, 0, List.of(0), 2, false, 2100, 2600)),
        tasks, 2700);
    Model m = DagModelBuilder.build(trace, SampleMode.REPLAY, 1);
    Map<String, Stage> s = byName(m);
    assertThat(m.stages()).extracting(Stage::name).containsExactly("startup", "driver-J0", "S0", "S1");
    assertThat(s.get("startup").distribution()).isEqualTo(new Distribution.Deterministic(1.0));
    assertThat(s.get("startup").pre()).isEmpty();
    assertThat(s.get("driver-J0").pre()).containsExactly("startup");
    assertThat(s.get("S0").inputBytes()).as("the failed attempt's 700 bytes left out").isEqualTo(2000);
    assertThat(s.get("S0").shuffleReadBytes()).isZero();
    assertThat(s.get("S1").shuffleReadBytes()).isEqualTo(500);
    assertThat(s.get("startup").readsData()).isFalse();
    // 0.1 s driver + 1 s start-up + 1 s + 0.5 s: the run's duration.
    assertThat(new Engine(m).run().execution().mean()).isCloseTo(trace.durationS(), within(1e-9));
    assertThat(DagModelBuilder.mergeSamples(m, List.of(m)).stages()).extracting(Stage::inputBytes)
        .containsExactly(0L, 0L, 2000L, 0L);
  }
}
