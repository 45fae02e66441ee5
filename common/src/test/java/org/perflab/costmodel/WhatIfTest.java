package org.perflab.costmodel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The what-if on the §6.3 stages under Spark's unified memory manager: directions and magnitudes from the equations. */
class WhatIfTest {
  private static final ClusterStats STATS = WorkedExample.STATS
      .withCodec(Codec.ZSTD, new CodecCosts(0.25, 6, 2))
      .withSerializer(SerializerKind.KRYO, new SerializerCosts(0.3, 1));
  private static final CostConfig UNIFIED = new CostConfig(4, 4, 1, 8L << 30, MemoryModel.Unified.DEFAULT,
      ShuffleManager.SORT, 200, true, true, true, Codec.LZ4, SerializerKind.JAVA);
  private static final List<StageSpec> STAGES = WorkedExample.stages();

  private static List<StageEstimate> at(WhatIf change) {
    return CostModel.whatIf(UNIFIED, STATS, STAGES, change);
  }

  /** The heap at which one task's unified execution share holds exactly {@code bufferBytes}. */
  private static long heapFor(double bufferBytes) {
    return (long) (bufferBytes * UNIFIED.slotsPerExecutor() / 0.6) + MemoryModel.Unified.RESERVED_BYTES;
  }

  @Test
  void noChangeIsTheEstimate() {
    assertThat(at(WhatIf.NONE)).isEqualTo(CostModel.estimate(UNIFIED, STATS, STAGES));
  }

  @Test
  void lessMemorySpillsExactlyBelowTheCorrectedCondition() {
    SpillEstimate base = at(WhatIf.NONE).get(0).task().shuffleWrite().spill();
    assertThat(base.spills()).isZero();
    // Corrected (23): spills ≥ 1 iff combined records ≥ buffer ÷ width, i.e. buffer ≤ combined × width.
    double needed = base.combinedRecords() * WorkedExample.MAP_DATA.writeSpillPairWidth();
    TaskEstimate above = at(WhatIf.NONE.withExecutorMemoryBytes(heapFor(needed) + 64)).get(0).task();
    TaskEstimate below = at(WhatIf.NONE.withExecutorMemoryBytes(heapFor(needed) - 64)).get(0).task();
    assertThat(above.shuffleWrite().spill().spills()).isZero();
    assertThat(below.shuffleWrite().spill().spills()).isEqualTo(1);
    assertThat(below.spilledBytes()).isGreaterThan(0);
    // The spill adds at least one serialize-compress-write of a full buffer and one read back of its file.
    Composite c = Composite.of(UNIFIED, STATS);
    SpillEstimate s = below.shuffleWrite().spill();
    assertThat(below.ns(Phase.SHUFFLE_WRITE) - above.ns(Phase.SHUFFLE_WRITE))
        .isGreaterThan(s.bufferBytes() * c.shuffleScwNsPerByte() * 0.99 + s.spillFileBytes() * c.shuffleRcsNsPerByte()
            - nLogNDelta(above, below));
  }

  @Test
  void aSpreadOfTaskSizesAveragesTheTaskTimesAcrossTheSpillThreshold() {
    // A heap at which the mean map task just fits its buffer: the larger tasks of a spread spill, the others do not.
    SpillEstimate base = at(WhatIf.NONE).get(0).task().shuffleWrite().spill();
    double needed = base.combinedRecords() * WorkedExample.MAP_DATA.writeSpillPairWidth();
    WhatIf justFits = WhatIf.NONE.withExecutorMemoryBytes(heapFor(needed) + 64);
    List<Double> ratios = List.of(0.6, 0.8, 1.0, 1.2, 1.4);
    StageEstimate flat = CostModel.whatIf(UNIFIED, STATS, STAGES, justFits).get(0);
    StageEstimate uniform = CostModel.whatIf(UNIFIED, STATS, withMapSizes(List.of(1.0, 1.0, 1.0)), justFits).get(0);
    StageEstimate spread = CostModel.whatIf(UNIFIED, STATS, withMapSizes(ratios), justFits).get(0);
    assertThat(flat.task().shuffleWrite().spill().spills()).isZero();
    assertThat(uniform.stageNs()).isCloseTo(flat.stageNs(), within(1e-9 * flat.stageNs()));
    assertThat(spread.task()).as("the average task itself").isEqualTo(flat.task());
    double expected = 0;
    for (double r : ratios) {
      TaskEstimate task = CostModel.whatIf(UNIFIED, STATS, List.of(WorkedExample.map(true).scaled(r),
          WorkedExample.reduce(50)), justFits).get(0).task();
      assertThat(task.shuffleWrite().spill().spills()).as("ratio " + r).isEqualTo(r > 1 ? 1 : 0);
      expected += task.taskNs() / ratios.size();
    }
    assertThat(spread.meanTaskNs()).isCloseTo(expected, within(1e-9 * expected)).isGreaterThan(flat.meanTaskNs());
    assertThat(spread.stageNs()).isCloseTo(spread.waves() * expected, within(1e-6 * expected));
  }

  /** The §6.3 stages with the map stage's tasks spread over {@code ratios} of the mean size. */
  private static List<StageSpec> withMapSizes(List<Double> ratios) {
    StageSpec m = WorkedExample.map(true);
    return List.of(new StageSpec(m.name(), m.tasks(), m.splitBytes(), m.parents(), m.readSide(), m.shuffleWrite(),
        m.mapSideCombine(), m.partitionsFromConf(), m.data(), ratios), WorkedExample.reduce(50));
  }

  private static double nLogNDelta(TaskEstimate above, TaskEstimate below) {
    return (PhaseModel.nLogN(above.shuffleWrite().spill().inMemoryRecords())
        - PhaseModel.nLogN(below.shuffleWrite().spill().inMemoryRecords())) * WorkedExample.COSTS.sortNsPerRecord();
  }

  @Test
  void morePartitionsShrinkEachReduceTaskInProportion() {
    StageEstimate p50 = at(WhatIf.NONE).get(1);
    StageEstimate p100 = at(WhatIf.NONE.withShufflePartitions(100)).get(1);
    assertThat(p100.spec().tasks()).isEqualTo(100);
    assertThat(p100.task().shuffleRead().bytes()).isCloseTo(p50.task().shuffleRead().bytes() / 2, within(1e-6));
    assertThat(p100.task().shuffleRead().fetchNs()).isCloseTo(p50.task().shuffleRead().fetchNs() / 2, within(1e-3));
    assertThat(p100.task().compute().ns()).isCloseTo(p50.task().compute().ns() / 2, within(1e-3));
    assertThat(p100.waves()).isEqualTo((100 + 15) / 16);
    // Map stage tasks do not change with shuffle partitions.
    assertThat(at(WhatIf.NONE.withShufflePartitions(100)).get(0).spec().tasks()).isEqualTo(100);
  }

  @Test
  void aBetterCompressingCodecShrinksShuffleBytesByTheRatioOfRatios() {
    double lz4 = at(WhatIf.NONE).get(1).task().shuffleRead().bytes();
    double zstd = at(WhatIf.NONE.withCodec(Codec.ZSTD)).get(1).task().shuffleRead().bytes();
    assertThat(zstd / lz4).isCloseTo(0.25 / 0.4, within(1e-12));
  }

  @Test
  void theSerializerChangesSerializedBytesAndSerdeCost() {
    StageEstimate java = at(WhatIf.NONE).get(1);
    StageEstimate kryo = at(WhatIf.NONE.withSerializer(SerializerKind.KRYO)).get(1);
    assertThat(kryo.task().shuffleRead().bytes() / java.task().shuffleRead().bytes()).isCloseTo(0.3 / 0.5,
        within(1e-12));
    assertThat(kryo.task().shuffleRead().fetchNs()).isLessThan(java.task().shuffleRead().fetchNs());
  }

  @Test
  void moreCoresPerExecutorMeanFewerWavesAndSmallerBuffers() {
    List<StageEstimate> four = at(WhatIf.NONE);
    List<StageEstimate> eight = at(WhatIf.NONE.withCoresPerExecutor(8));
    assertThat(eight.get(0).waves()).isEqualTo((100 + 31) / 32);
    assertThat(eight.get(0).task().shuffleWrite().spill().bufferBytes())
        .isCloseTo(four.get(0).task().shuffleWrite().spill().bufferBytes() / 2, within(1e-3));
    assertThat(CostModel.totalNs(eight)).isLessThan(CostModel.totalNs(four));
  }
}
