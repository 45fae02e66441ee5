package org.perflab.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class EngineTest {
  static Model fig2() throws IOException {
    try (InputStream in = EngineTest.class.getResourceAsStream("/sim/fig2.json")) {
      return ModelReader.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), "fig2.json");
    }
  }

  static Stage stage(String name, int tasks, List<String> pre, Distribution d) {
    return new Stage(name, tasks, pre, List.of(), d);
  }

  static Model model(int nodes, int maxJobs, Stage... stages) {
    return new Model(
        List.of(stages), nodes, 1, new Distribution.Deterministic(0), maxJobs, 1.96, 7L, TaskChoice.FIFO);
  }

  @Test
  void tenExponentialTasksOnManyCoresTakeTheHarmonicMean() {
    double h10 = 0;
    for (int i = 1; i <= 10; i++) {
      h10 += 1.0 / i;
    }
    Model m = model(64, 20_000, stage("S", 10, List.of(), new Distribution.Exponential(1 / 500.0)));
    Result r = new Engine(m).run();
    double half = (r.execution().ciHigh() - r.execution().ciLow()) / 2;
    assertThat(500 * h10).isCloseTo(1464.5, within(0.05));
    assertThat(r.execution().mean()).isCloseTo(500 * h10, within(3 * half));
    assertThat(half).isLessThan(0.01 * 1464.5);
  }

  @Test
  void deterministicWavesAddUpExactly() {
    Model m = model(16, 5,
        stage("S0", 100, List.of(), new Distribution.Deterministic(10)),
        stage("S1", 7, List.of("S0"), new Distribution.Deterministic(3)));
    Result r = new Engine(m).run();
    assertThat(r.applications()).isEqualTo(5);
    assertThat(r.executionTimes()).containsOnly(73.0);
    assertThat(r.execution().mean()).isEqualTo(73.0);
    assertThat(r.execution().std()).isZero();
    assertThat(r.stages().get("S1").startOffset().mean()).isEqualTo(70.0);
    assertThat(r.tasks()).isEqualTo(5 * 107);
  }

  @Test
  void twoSinkDagEndsAtItsLastSinkAndCountsEachApplicationOnce() {
    Model m = model(4, 3,
        stage("S0", 1, List.of(), new Distribution.Deterministic(10)),
        stage("Short", 1, List.of("S0"), new Distribution.Deterministic(1)),
        stage("Long", 1, List.of("S0"), new Distribution.Deterministic(100)));
    Result r = new Engine(m).run();
    assertThat(r.applications()).isEqualTo(3);
    assertThat(r.executionTimes()).containsExactly(110.0, 110.0, 110.0);
    assertThat(r.stages().get("Short").endOffset().mean()).isEqualTo(11.0);
    assertThat(r.stages().get("Long").endOffset().mean()).isEqualTo(110.0);
  }

  @Test
  void parallelBranchesSharingSlotsAreGatedByAllPredecessors() {
    // S0 (4 × 10) and S1 (4 × 20) share 4 slots FIFO: S0 runs 0–10, S1 10–30; S2 needs both, runs 30–35.
    Model m = model(4, 2,
        stage("S0", 4, List.of(), new Distribution.Deterministic(10)),
        stage("S1", 4, List.of(), new Distribution.Deterministic(20)),
        stage("S2", 2, List.of("S0", "S1"), new Distribution.Deterministic(5)));
    Result r = new Engine(m).run();
    assertThat(r.executionTimes()).containsExactly(35.0, 35.0);
    assertThat(r.stages().get("S1").startOffset().mean()).isEqualTo(10.0);
    assertThat(r.stages().get("S2").startOffset().mean()).isEqualTo(30.0);
  }

  @Test
  void replayReproducesObservedStageMakespans() {
    Model m = model(10, 1,
        stage("S0", 4, List.of(), new Distribution.Replay(new double[] {1, 2, 3, 4})),
        stage("S1", 2, List.of("S0"), new Distribution.Replay(new double[] {5, 1})));
    Result r = new Engine(m).run();
    assertThat(r.executionTimes()).containsExactly(9.0);
    assertThat(r.stages().get("S0").duration().mean()).isEqualTo(4.0);
    assertThat(r.stages().get("S1").taskTime().mean()).isEqualTo(3.0);
  }

  @Test
  void fig2ModelOneUserMatchesDagSim() throws IOException {
    Result r = new Engine(fig2()).run();
    assertThat(r.applications()).isEqualTo(20_000);
    assertThat(r.tasks()).isGreaterThanOrEqualTo(20_000L * 510);
    // dagSim: 2,788–2,796 over three seeds, CI half-width about 9; our CI must overlap dagSim's.
    assertThat(r.execution().ciHigh()).isGreaterThan(2788 - 9);
    assertThat(r.execution().ciLow()).isLessThan(2796 + 9);
    assertThat(r.waiting().mean()).isZero();
    assertThat(r.stages().get("S4").taskTime().mean()).isCloseTo(500, within(10.0));
  }

  @Test
  void fig2StageMeansMatchDagSimWithItsRandomTaskChoice() throws IOException {
    // Per-stage durations depend on which ready task starts first, so they are compared with dagSim's own choice.
    Result r = new Engine(fig2().withTaskChoice(TaskChoice.RANDOM)).run();
    assertThat(r.execution().ciHigh()).isGreaterThan(2788 - 9);
    assertThat(r.execution().ciLow()).isLessThan(2796 + 9);
    double[] dagSimStageMeans = {1167.0, 676.6, 354.9, 106.1, 1470.3};
    for (int s = 0; s < 5; s++) {
      Measure d = r.stages().get("S" + s).duration();
      double half = (d.ciHigh() - d.ciLow()) / 2;
      assertThat(d.mean()).as("S%d duration", s).isCloseTo(dagSimStageMeans[s], within(2 * half + 1.0));
    }
  }

  @Test
  void fig2ModelTenUsersMatchesDagSim() throws IOException {
    Model m = fig2();
    Model tenUsers = new Model(m.stages(), 64, 10, m.thinkTime(), 20_000, 1.96, 3L, TaskChoice.FIFO);
    Result r = new Engine(tenUsers).run();
    // dagSim: job execution about 2,837 s, wait about 10,308 s, total about 13,145 s.
    assertThat(r.execution().mean()).isCloseTo(2837, within(0.015 * 2837));
    assertThat(r.waiting().mean()).isCloseTo(10308, within(0.015 * 10308));
    assertThat(r.total().mean()).isCloseTo(13145, within(0.015 * 13145));
  }

  @Test
  void sameSeedSameResultOtherSeedOtherResult() throws IOException {
    Model m = fig2().withMaxJobs(500);
    Engine engine = new Engine(m);
    Result a = engine.run(42);
    Result b = engine.run(42);
    Result c = engine.run(43);
    assertThat(ResultWriter.toJson(a)).isEqualTo(ResultWriter.toJson(b));
    assertThat(a.executionTimes()).isEqualTo(b.executionTimes());
    assertThat(c.execution().mean()).isNotEqualTo(a.execution().mean());
  }

  @Test
  void targetRelativeHalfWidthStopsEarly() throws IOException {
    Result r = new Engine(fig2()).run(5, 0.02);
    assertThat(r.applications()).isLessThan(20_000).isGreaterThanOrEqualTo(Engine.MIN_APPS_FOR_TARGET);
    assertThat(r.execution().relativeHalfWidth()).isLessThanOrEqualTo(0.02);
  }

  @Test
  void waitingApplicationsTakeTheCoreLockInTurn() {
    // One stage of 8 × 10 s on 8 slots; 3 users think exactly 20 s. All submit at 20: A runs 20–30, B waits until 30
    // (its lock comes at A's task end), C until 40. Then A resubmits at 50, B at 60, C at 70: no more waiting.
    // Over 30 applications: waiting = (0 + 10 + 20) / 30 = 1 s, total = 11 s, and every execution takes 10 s.
    Model m = new Model(
        List.of(stage("S", 8, List.of(), new Distribution.Deterministic(10))), 8, 3,
        new Distribution.Deterministic(20), 30, 1.96, 1L, TaskChoice.FIFO);
    Result r = new Engine(m).run();
    assertThat(r.executionTimes()).hasSize(30).containsOnly(10.0);
    assertThat(r.waiting().mean()).isCloseTo(1.0, within(1e-9));
    assertThat(r.total().mean()).isCloseTo(11.0, within(1e-9));
  }
}
