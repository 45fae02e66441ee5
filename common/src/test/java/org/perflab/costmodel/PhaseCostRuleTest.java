package org.perflab.costmodel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.perflab.errors.BadInputException;
import org.perflab.sim.Distribution;
import org.perflab.sim.Model;
import org.perflab.sim.Stage;
import org.perflab.sim.TaskChoice;
import org.perflab.sweep.GridPoint;

/** The phase-cost scaling rule on the §6.3 stages, under unified memory: factors from the cost model, slots. */
class PhaseCostRuleTest {
  private static final long GIB = 1L << 30;
  private static final CostConfig SOURCE = new CostConfig(4, 4, 1, 2 * GIB, MemoryModel.Unified.DEFAULT,
      ShuffleManager.SORT, 200, true, true, true, Codec.LZ4, SerializerKind.JAVA);
  private static final PhaseCostRule RULE = new PhaseCostRule(SOURCE, WorkedExample.STATS, WorkedExample.stages(),
      0);

  private static Model model() {
    return new Model(List.of(
        new Stage("map", 100, List.of(), List.of(), new Distribution.Deterministic(10)),
        new Stage("reduce", 50, List.of("map"), List.of(), new Distribution.Deterministic(4)),
        new Stage("other", 1, List.of("reduce"), List.of(), new Distribution.Deterministic(1))),
        1, 1, new Distribution.Deterministic(0), 3, 1.96, 1L, TaskChoice.FIFO);
  }

  private static double duration(Model m, int stage) {
    return ((Distribution.Deterministic) m.stages().get(stage).distribution()).val();
  }

  @Test
  void theSourceConfigurationKeepsEveryDuration() {
    Model m = RULE.apply(model(), new GridPoint(4, 4, 2.0), 1);
    assertThat(m.nodes()).isEqualTo(16);
    assertThat(duration(m, 0)).isCloseTo(10, within(1e-12));
    assertThat(duration(m, 1)).isCloseTo(4, within(1e-12));
  }

  @Test
  void moreCoresPerExecutorScaleDurationsByTheModelsTaskTimeRatio() {
    Model m = RULE.apply(model(), new GridPoint(4, 8, 2.0), 1);
    assertThat(m.nodes()).isEqualTo(32);
    double before = CostModel.estimate(SOURCE, WorkedExample.STATS, WorkedExample.stages()).get(0).task().taskNs();
    TaskEstimate after = CostModel.estimate(SOURCE.withCores(8), WorkedExample.STATS, WorkedExample.stages()).get(0)
        .task();
    // Half the memory per task: the map side now spills, and its tasks take longer.
    assertThat(after.shuffleWrite().spill().spills()).isPositive();
    assertThat(duration(m, 0)).isCloseTo(10 * after.taskNs() / before, within(1e-9)).isGreaterThan(10);
    assertThat(duration(m, 2)).isEqualTo(1);
  }

  @Test
  void halfAGibibyteMakesBothStagesSpillAndTheRuleIsSerializable() throws Exception {
    // 0.5 GiB: (512 − 300) MiB × 0.6 ÷ 4 tasks ≈ 33 MB per task, below both stages' buffered bytes.
    Model m = RULE.apply(model(), new GridPoint(4, 4, 0.5), 1);
    assertThat(duration(m, 0)).isGreaterThan(10);
    assertThat(duration(m, 1)).isGreaterThan(4);
    assertThat(duration(m, 2)).isEqualTo(1);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(RULE);
    }
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      assertThat(in.readObject()).isEqualTo(RULE);
    }
  }

  @Test
  void aCodecOnTheGridTakesTheTablesRatiosForTheShuffleStagesOnly() {
    Model lz4 = RULE.apply(model(), new GridPoint(4, 4, 2.0, 0L, Codec.LZ4, null), 1);
    Model zstd = RULE.apply(model(), new GridPoint(4, 4, 2.0, 0L, Codec.ZSTD, null), 1);

    // The source's own codec named on the grid changes nothing.
    assertThat(duration(lz4, 0)).isCloseTo(10, within(1e-12));
    assertThat(duration(lz4, 1)).isCloseTo(4, within(1e-12));
    List<StageEstimate> before = CostModel.estimate(SOURCE, WorkedExample.STATS, WorkedExample.stages());
    List<StageEstimate> after = CostModel.whatIf(SOURCE, WorkedExample.STATS, WorkedExample.stages(),
        WhatIf.NONE.withCodec(Codec.ZSTD), CodecCostTable.shipped());
    for (int i = 0; i < 2; i++) {
      double factor = after.get(i).task().taskNs() / before.get(i).task().taskNs();
      assertThat(factor).as("stage %d moves with zstd's measured costs", i).isNotCloseTo(1.0, within(1e-6));
      assertThat(duration(zstd, i)).isCloseTo((i == 0 ? 10 : 4) * factor, within(1e-9));
    }
    assertThat(duration(zstd, 2)).as("a stage the cost model does not know keeps its time").isEqualTo(1);
  }

  @Test
  void aSettingTheTableDidNotMeasureIsBadInputNotAGuess() {
    GridPoint zstdWithKryo = new GridPoint(4, 4, 2.0, 0L, Codec.ZSTD, SerializerKind.KRYO);
    // A table that measured zstd and Kryo, but not together.
    CodecCostTable partial = PartialCodecTable.of();
    PhaseCostRule rule = new PhaseCostRule(SOURCE, WorkedExample.STATS, WorkedExample.stages(), 0, partial);

    assertThatThrownBy(() -> rule.apply(model(), zstdWithKryo, 1)).isInstanceOf(BadInputException.class)
        .hasMessageStartingWith("Cannot predict codec zstd with serializer kryo: not in the codec cost table");
    assertThat(RULE.apply(model(), zstdWithKryo, 1).stages()).hasSameSizeAs(model().stages());
  }
}
