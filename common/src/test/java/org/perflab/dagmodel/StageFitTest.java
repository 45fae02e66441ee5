package org.perflab.dagmodel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.perflab.changes.StageRef;
import org.perflab.sim.Distribution;
import org.perflab.sim.Model;
import org.perflab.sim.Stage;
import org.perflab.sim.TaskChoice;

class StageFitTest {
  /**
   * An input stage of 8 tasks whose tasks each take {@code inputTaskS}, then a one-task driver stage of
   * {@code driverS}, on {@code slots} slots.
   */
  private static Model run(double inputTaskS, double driverS, int slots) {
    return new Model(List.of(
        new Stage("S0", 8, List.of(), List.of("S1"), new Distribution.Deterministic(inputTaskS), 8_000, 0),
        new Stage("S1", 1, List.of("S0"), List.of(), new Distribution.Deterministic(driverS))),
        slots, 1, new Distribution.Deterministic(0), 1, 1.96, 1L, TaskChoice.FIFO);
  }

  @Test
  void eachStageScalesByTheSlopeOfItsOwnWorkAgainstTheSlots() {
    // The input stage's tasks slow down as the square root of the slots (storage shared by more executors); the
    // driver stage takes 3 s whatever the slots.
    List<StageFit.Observation> runs = List.of(
        new StageFit.Observation(run(1.0, 3.0, 2), 2, 8_000),
        new StageFit.Observation(run(Math.sqrt(2), 3.0, 4), 4, 8_000),
        new StageFit.Observation(run(2.0, 3.0, 8), 8, 8_000));
    assertThat(StageFit.workLaw(runs, 0)).containsExactly(new double[] {0.5, 0}, within(1e-12));
    assertThat(StageFit.workLaw(runs, 1)).containsExactly(new double[] {0, 0}, within(1e-12));

    Model at16 = StageFit.at(run(Math.sqrt(2), 3.0, 4), 4, 8_000, runs, 16, 8_000);
    assertThat(at16.stages().get(0).distribution().mean()).isCloseTo(Math.sqrt(2) * 2, within(1e-9));
    assertThat(at16.stages().get(1).distribution().mean()).isCloseTo(3.0, within(1e-12));
    // Composed by the simulator on 16 slots: the 8 tasks run in one wave of 2·√2 s, then the driver's 3 s. A law
    // through the wall times would go on shrinking the input stage with more slots; 8 tasks have no wave to save.
    assertThat(ScaledPrediction.simulatedMean(at16, 8_000, 16, 8_000, 1, 1L))
        .isCloseTo(2 * Math.sqrt(2) + 3.0, within(1e-9));
  }

  /** A run of 8 input tasks of √(slots / 2) s, a driver gap of slots / 2 s, then a 3 s stage; its job {@code first}. */
  private static Model gapped(int slots, boolean extraJobFirst) {
    int base = extraJobFirst ? 1 : 0;
    List<Stage> stages = new java.util.ArrayList<>();
    if (extraJobFirst) {
      stages.add(new Stage("S0", 1, List.of(), List.of(), new Distribution.Deterministic(1.0)));
    }
    String input = "S" + base;
    String gap = "driver-J" + (base + 1);
    String last = "S" + (base + 1);
    stages.add(new Stage(input, 8, List.of(), List.of(), new Distribution.Deterministic(Math.sqrt(slots / 2.0)),
        8_000, 0));
    stages.add(new Stage(gap, 1, List.of(input), List.of(), new Distribution.Deterministic(slots / 2.0)));
    stages.add(new Stage(last, 1, List.of(gap), List.of(), new Distribution.Deterministic(3.0)));
    return new Model(stages, slots, 1, new Distribution.Deterministic(0), 1, 1.96, 1L, TaskChoice.FIFO);
  }

  private static List<StageRef> gappedRefs(boolean extraJobFirst) {
    return extraJobFirst
        ? List.of(new StageRef(0, 0, "collect at Extra.scala:5"), new StageRef(1, 1, "textFile at App.scala:11"),
            new StageRef(2, 2, "count at App.scala:14"))
        : List.of(new StageRef(0, 0, "textFile at App.scala:10"), new StageRef(1, 1, "count at App.scala:12"));
  }

  @Test
  void stagesAreMatchedAcrossRunsByTheMatcherOfCompareNotByPosition() {
    // The runs at 2 and 8 slots ran an extra job first: every stage id shifts by one, and their models have a stage
    // more. StageMatcher pairs the input stages and the last stages by call site (line numbers aside), and the driver
    // gap follows the stage after it.
    Model template = gapped(4, false);
    List<StageFit.Observation> runs = List.of(
        new StageFit.Observation(gapped(2, true), 2, 8_000, gappedRefs(true)),
        new StageFit.Observation(template, 4, 8_000, gappedRefs(false)),
        new StageFit.Observation(gapped(8, true), 8, 8_000, gappedRefs(true)));
    assertThat(StageFit.counterparts(template, gappedRefs(false), runs.get(0)))
        .extracting(s -> s == null ? null : s.name()).containsExactly("S1", "driver-J2", "S2");

    Model at16 = StageFit.at(template, gappedRefs(false), 4, 8_000, runs, 16, 8_000);
    // Input tasks grow as √slots (2·√2 s at 16), the gap as the slots (8 s), the last stage stays 3 s.
    assertThat(at16.stages().stream().map(x -> x.distribution().mean()).toList())
        .satisfiesExactly(m -> assertThat(m).isCloseTo(2 * Math.sqrt(2), within(1e-9)),
            m -> assertThat(m).isCloseTo(8.0, within(1e-9)), m -> assertThat(m).isCloseTo(3.0, within(1e-12)));

    // By position, the runs with an extra stage are not the template's: its laws see one slot count and keep it.
    Model byPosition = StageFit.at(template, 4, 8_000, runs, 16, 8_000);
    assertThat(byPosition.stages().get(0).distribution().mean()).isCloseTo(Math.sqrt(2), within(1e-12));
    assertThat(byPosition.stages().get(1).distribution().mean()).isCloseTo(2.0, within(1e-12));
  }

  /**
   * A sort: 25 map tasks of 4 s, then a reduce stage with one partition per executor (2 slots each) whose 180
   * task-seconds of work are shared among them, on {@code slots} slots.
   */
  private static Model sort(int slots) {
    int reducers = slots / 2;
    return new Model(List.of(
        new Stage("S0", 25, List.of(), List.of("S1"), new Distribution.Replay(filled(25, 4.0)), 25_000, 0),
        new Stage("S1", reducers, List.of("S0"), List.of(), new Distribution.Replay(filled(reducers,
            180.0 / reducers)), 0, 25_000)),
        slots, 1, new Distribution.Deterministic(0), 1, 1.96, 1L, TaskChoice.FIFO);
  }

  private static double[] filled(int n, double value) {
    double[] out = new double[n];
    java.util.Arrays.fill(out, value);
    return out;
  }

  @Test
  void aStageWhosePartitionsFollowTheExecutorsTakesTheTaskCountOfItsLawAtTheTarget() {
    List<StageFit.Observation> runs = List.of(new StageFit.Observation(sort(2), 2, 25_000),
        new StageFit.Observation(sort(4), 4, 25_000), new StageFit.Observation(sort(8), 8, 25_000));
    Model at32 = StageFit.at(sort(8), 8, 25_000, runs, 32, 25_000);
    // The map stage keeps its 25 splits; the reduce stage has 16 partitions on 16 executors, 180 / 16 s each.
    assertThat(at32.stages().get(0).tasks()).isEqualTo(25);
    assertThat(at32.stages().get(1).tasks()).isEqualTo(16);
    assertThat(at32.stages().get(1).distribution().mean()).isCloseTo(180.0 / 16, within(1e-9));
    // Simulated on 32 slots: one wave of maps (4 s), then one of reducers (11.25 s). Kept at 4 reducers, as the
    // template's model alone would have it, the reduce stage would still take 45 s.
    assertThat(ScaledPrediction.simulatedMean(at32, 25_000, 32, 25_000, 1, 1L)).isCloseTo(4 + 11.25, within(1e-9));
    assertThat(ScaledPrediction.simulatedMean(sort(8), 25_000, 32, 25_000, 1, 1L)).isCloseTo(4 + 45, within(1e-9));
  }

  @Test
  void aStageSeenAtOneSlotCountOrInAnotherShapeKeepsItsDurations() {
    Model template = run(1.0, 3.0, 2);
    List<StageFit.Observation> oneSlotCount = List.of(new StageFit.Observation(template, 2, 8_000),
        new StageFit.Observation(run(1.2, 3.0, 2), 2, 8_000));
    assertThat(StageFit.at(template, 2, 8_000, oneSlotCount, 8, 8_000)).isEqualTo(template);

    Model otherShape = new Model(List.of(
        new Stage("S0", 8, List.of(), List.of(), new Distribution.Deterministic(9.0), 8_000, 0)),
        8, 1, new Distribution.Deterministic(0), 1, 1.96, 1L, TaskChoice.FIFO);
    List<StageFit.Observation> mixed = List.of(new StageFit.Observation(template, 2, 8_000),
        new StageFit.Observation(otherShape, 8, 8_000));
    assertThat(StageFit.at(template, 2, 8_000, mixed, 8, 8_000)).isEqualTo(template);
  }

  @Test
  void aGapThatGrowsWithTheInputFollowsTheInputWhereSlotsAndInputVaryApart() {
    // The driver stage's gap grows as the square root of the input, whatever the slots; input and slots vary apart.
    List<StageFit.Observation> runs = new java.util.ArrayList<>();
    for (int slots : new int[] {2, 4}) {
      for (long bytes : new long[] {8_000, 32_000}) {
        runs.add(new StageFit.Observation(run(1.0, 3.0 * Math.sqrt(bytes / 8_000.0), slots), slots, bytes));
      }
    }
    assertThat(StageFit.workLaw(runs, 1)).containsExactly(new double[] {0, 0.5}, within(1e-9));
    Model larger = StageFit.at(run(1.0, 3.0, 2), 2, 8_000, runs, 2, 128_000);
    assertThat(larger.stages().get(1).distribution().mean()).isCloseTo(12.0, within(1e-9));
    // Where the input grew with the slots in every run (a weak-scaling sweep), the two cannot be told apart: the
    // slots alone carry the change.
    List<StageFit.Observation> sweep = List.of(
        new StageFit.Observation(run(1.0, 3.0, 2), 2, 8_000), new StageFit.Observation(run(1.0, 6.0, 4), 4, 16_000),
        new StageFit.Observation(run(1.0, 12.0, 8), 8, 32_000), new StageFit.Observation(run(1.0, 24.0, 16), 16,
        64_000));
    assertThat(StageFit.workLaw(sweep, 1)).containsExactly(new double[] {1.0, 0}, within(1e-9));
  }

  @Test
  void theSlopeIsBoundedAndWorkIsPerByteRead() {
    // Work per byte: a run on twice the bytes with tasks twice as long did the same work per byte.
    Stage small = new Stage("S0", 4, List.of(), List.of(), new Distribution.Deterministic(1.0), 400, 0);
    Stage large = new Stage("S0", 4, List.of(), List.of(), new Distribution.Deterministic(2.0), 0, 800);
    assertThat(StageFit.work(small)).isCloseTo(StageFit.work(large), within(1e-15));
    // Work that grows as the cube of the slots is held to the bound.
    List<StageFit.Observation> steep = List.of(new StageFit.Observation(run(1.0, 3.0, 2), 2, 8_000),
        new StageFit.Observation(run(8.0, 3.0, 4), 4, 8_000));
    assertThat(StageFit.workLaw(steep, 0)[0]).isEqualTo(StageFit.MAX_SLOPE);
  }
}
