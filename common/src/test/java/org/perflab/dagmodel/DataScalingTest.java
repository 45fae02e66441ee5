package org.perflab.dagmodel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.perflab.dagmodel.DataScaling.Role;
import org.perflab.errors.BadInputException;
import org.perflab.sim.Distribution;
import org.perflab.sim.Engine;
import org.perflab.sim.Model;
import org.perflab.sim.Stage;
import org.perflab.sim.TaskChoice;

/** The input-size rule on hand-built models whose scaled times can be worked out by hand. */
class DataScalingTest {
  private static final Distribution.Deterministic NO_TIME = new Distribution.Deterministic(0);

  private static Stage delay(String name, double seconds, String... pre) {
    return new Stage(name, 1, List.of(pre), List.of(), new Distribution.Deterministic(seconds));
  }

  private static Stage input(String name, int tasks, long bytes, Distribution d, String... pre) {
    return new Stage(name, tasks, List.of(pre), List.of(), d, bytes, 0);
  }

  private static Stage shuffle(String name, int tasks, long bytes, Distribution d, String... pre) {
    return new Stage(name, tasks, List.of(pre), List.of(), d, 0, bytes);
  }

  private static Model model(int slots, Stage... stages) {
    return new Model(List.of(stages), slots, 1, NO_TIME, 1, 1.96, 1L, TaskChoice.FIFO);
  }

  /** 2 s of start-up and driver time, 8 map tasks of 1 s reading 8 × 64 MB, 0.5 s at the end. */
  static Model mapOnly() {
    return model(4,
        delay("startup", 0.5),
        delay("driver-J0", 1.5, "startup"),
        input("S0", 8, 8L << 26, new Distribution.Replay(new double[] {1, 1, 1, 1, 1, 1, 1, 1}), "driver-J0"),
        delay("driver-end", 0.5, "S0"));
  }

  private static Map<String, Stage> byName(Model m) {
    Map<String, Stage> map = new java.util.HashMap<>();
    m.stages().forEach(s -> map.put(s.name(), s));
    return map;
  }

  private static double simulate(Model m) {
    return new Engine(m).run().execution().mean();
  }

  @Test
  void ratioOneIsTheIdentity() {
    Model m = mapOnly();
    assertThat(DataScaling.scale(m, 1.0)).isSameAs(m);
    assertThat(DataScaling.ratio(1000, 1000)).isEqualTo(1.0);
  }

  @Test
  void twiceTheInputOfAMapOnlyModelDoublesItsTasksAndKeepsDriverTime() {
    Model m = mapOnly();
    Model doubled = DataScaling.scale(m, 2.0);
    Map<String, Stage> s = byName(doubled);
    assertThat(s.get("S0").tasks()).isEqualTo(16);
    assertThat(s.get("S0").inputBytes()).isEqualTo(16L << 26);
    assertThat(((Distribution.Replay) s.get("S0").distribution()).samples()).hasSize(16).containsOnly(1.0);
    for (String fixed : List.of("startup", "driver-J0", "driver-end")) {
      assertThat(s.get(fixed)).isEqualTo(byName(m).get(fixed));
    }
    // On 4 slots: 2.5 s fixed, 2 waves of 1 s at S and 4 at 2S.
    assertThat(simulate(m)).isCloseTo(4.5, within(1e-9));
    assertThat(simulate(doubled)).isCloseTo(6.5, within(1e-9));
    assertThat(DataScaling.inputBytes(doubled)).isEqualTo(2 * DataScaling.inputBytes(m));
  }

  @Test
  void replayedSamplesKeepTheFirstWaveAndRepeatTheLaterOnes() {
    // On 2 slots, samples 1 and 2 are the first wave (the application's warm-up); 3 and 4 the steady state.
    double[] samples = {1, 2, 3, 4};
    assertThat(DataScaling.resample(samples, 4, 2)).containsExactly(1, 2, 3, 4);
    assertThat(DataScaling.resample(samples, 8, 2)).containsExactly(1, 2, 3, 4, 3, 4, 3, 4);
    assertThat(DataScaling.resample(samples, 7, 2)).containsExactly(1, 2, 3, 4, 3, 4, 3);
    assertThat(DataScaling.resample(samples, 2, 2)).containsExactly(1, 2);
    // One wave only: every sample is repeated.
    assertThat(DataScaling.resample(samples, 6, 4)).containsExactly(1, 2, 3, 4, 1, 2);
    Model m = model(2, input("S0", 4, 400, new Distribution.Replay(samples)));
    Stage halved = DataScaling.scale(m, 0.5).stages().get(0);
    assertThat(halved.tasks()).isEqualTo(2);
    assertThat(((Distribution.Replay) halved.distribution()).samples()).containsExactly(1, 2);
    Stage doubled = DataScaling.scale(m, 2.0).stages().get(0);
    assertThat(((Distribution.Replay) doubled.distribution()).samples()).containsExactly(1, 2, 3, 4, 3, 4, 3, 4);
    // Deterministic: the same model scales to the same samples.
    assertThat(((Distribution.Replay) DataScaling.scale(m, 2.0).stages().get(0).distribution()).samples())
        .containsExactly(((Distribution.Replay) doubled.distribution()).samples());
  }

  @Test
  void aShuffleWithItsParentsPartitionCountFollowsIt() {
    // RDD default partitioning: reduceByKey without a count takes the parent's 8 partitions.
    Model m = model(4,
        input("S0", 8, 800, new Distribution.Deterministic(1)),
        delay("sched-S1", 0.1, "S0"),
        shuffle("S1", 8, 80, new Distribution.Deterministic(0.5), "sched-S1"));
    assertThat(DataScaling.roles(m)).containsExactly(Map.entry("S0", Role.INPUT),
        Map.entry("sched-S1", Role.UNCHANGED), Map.entry("S1", Role.FOLLOWING_SHUFFLE));
    Map<String, Stage> s = byName(DataScaling.scale(m, 2.0));
    assertThat(s.get("S1").tasks()).isEqualTo(16);
    assertThat(s.get("S1").distribution()).isEqualTo(new Distribution.Deterministic(0.5));
    assertThat(s.get("S1").shuffleReadBytes()).isEqualTo(160);
    assertThat(s.get("sched-S1")).isEqualTo(byName(m).get("sched-S1"));
  }

  @Test
  void aShuffleWithAFixedPartitionCountKeepsItAndItsTasksReadMore() {
    // spark.sql.shuffle.partitions = 200 after an 8-split scan, then a stage keeping the 200 partitions.
    Model m = model(8,
        input("S0", 8, 800, new Distribution.Deterministic(1)),
        shuffle("S1", 200, 2000, new Distribution.Exponential(10), "S0"),
        shuffle("S2", 200, 100, new Distribution.Replay(new double[] {0.1, 0.3}), "S1"));
    assertThat(DataScaling.roles(m)).containsEntry("S1", Role.FIXED_SHUFFLE).containsEntry("S2", Role.FIXED_SHUFFLE);
    Map<String, Stage> s = byName(DataScaling.scale(m, 3.0));
    assertThat(s.get("S0").tasks()).isEqualTo(24);
    assertThat(s.get("S1").tasks()).isEqualTo(200);
    assertThat(s.get("S1").distribution().mean()).isCloseTo(0.3, within(1e-12));
    assertThat(((Distribution.Replay) s.get("S2").distribution()).samples())
        .containsExactly(new double[] {0.3, 0.9}, within(1e-12));
    assertThat(s.get("S2").shuffleReadBytes()).isEqualTo(300);
  }

  @Test
  void aStageReadingNothingAndStagesAfterIt() {
    // A stage computing from a parallelized collection, then a shuffle of its 4 partitions: nothing scales there.
    Model m = model(4,
        input("S0", 4, 400, new Distribution.Deterministic(1)),
        new Stage("S1", 4, List.of("S0"), List.of(), new Distribution.Deterministic(2)),
        shuffle("S2", 4, 40, new Distribution.Deterministic(1), "S1"));
    assertThat(DataScaling.roles(m)).containsEntry("S1", Role.UNCHANGED).containsEntry("S2", Role.FIXED_SHUFFLE);
  }

  @Test
  void perTaskTimeFollowsBytesPerTaskWhenTheTaskCountCannotFollow() {
    // One split read by one task: a quarter of the input is still one task, reading a quarter of the bytes.
    Model m = model(1, input("S0", 1, 100, new Distribution.Deterministic(4)));
    Stage quarter = DataScaling.scale(m, 0.25).stages().get(0);
    assertThat(quarter.tasks()).isEqualTo(1);
    assertThat(quarter.distribution().mean()).isCloseTo(1.0, within(1e-12));
    // 3 splits × 1.5 = 4.5 splits → 5 tasks of 0.9 of the bytes per task each: the work stays 4.5 × the old task.
    Stage more = DataScaling.scale(model(1, input("S0", 3, 300, new Distribution.Deterministic(1))), 1.5)
        .stages().get(0);
    assertThat(more.tasks()).isEqualTo(5);
    assertThat(more.distribution().mean() * more.tasks()).isCloseTo(4.5, within(1e-12));
  }

  @Test
  void aModelWithoutInputBytesCannotBeScaledButRatioOneStillWorks() {
    Model noBytes = model(2, new Stage("S0", 4, List.of(), List.of(), new Distribution.Deterministic(1)));
    assertThat(DataScaling.scale(noBytes, 1.0)).isSameAs(noBytes);
    assertThatThrownBy(() -> DataScaling.scale(noBytes, 2.0)).isInstanceOf(BadInputException.class)
        .hasMessage("Cannot scale model to another input size: no stage records bytes read from storage "
            + "(inputBytes); rebuild the model with perflab model (1 stages)");
    assertThatThrownBy(() -> DataScaling.scale(mapOnly(), 0)).isInstanceOf(BadInputException.class)
        .hasMessage("Cannot scale model to another input size: the ratio must be > 0 (0.0)");
    assertThatThrownBy(() -> DataScaling.ratio(0, 10)).isInstanceOf(BadInputException.class)
        .hasMessageContaining("the source run's input size is unknown or 0 (0 bytes)");
  }
}
