package org.perflab.costmodel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.perflab.costmodel.WorkedExample.CONFIG;
import static org.perflab.costmodel.WorkedExample.STATS;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Reference 000 §6.3: the hand-computed two-stage example and its variants, every intermediate the reference gives
 * (to the reference's printed precision: 1e-9 relative for whole numbers, ±0.005 for numbers printed to 2 decimals).
 */
class WorkedExampleTest {
  private static final double CENT = 0.005;

  private static List<StageEstimate> run(CostConfig config, List<StageSpec> stages) {
    return CostModel.estimate(config, STATS, stages);
  }

  private static void exact(double actual, double expected) {
    assertThat(actual).isCloseTo(expected, within(Math.abs(expected) * 1e-12 + 1e-9));
  }

  @Test
  void compositeCostsAndBuffer() {
    Composite c = Composite.of(CONFIG, STATS);
    exact(c.shuffleScwNsPerByte(), 5.5);
    exact(c.spillScwNsPerByte(), 5.5);
    exact(c.shuffleRcsNsPerByte(), 11);
    exact(c.spillRcsNsPerByte(), 11);
    Composite off = Composite.of(CONFIG.withShuffleCompress(false), STATS);
    exact(off.shuffleScwNsPerByte(), 7);
    exact(off.shuffleRcsNsPerByte(), 7);
    exact(CONFIG.spillBufferBytes(), 4.0e7);
  }

  @Test
  void stageOneReadComputeAndSortShuffleWrite() {
    TaskEstimate t = run(CONFIG, WorkedExample.stages()).get(0).task();
    exact(t.compute().inRecords(), 1.28e6);
    exact(t.readNs(), 7.68e8);
    exact(t.compute().outRecords(), 2.56e6);
    exact(t.compute().outBytes(), 1.92e8);
    exact(t.compute().outPairWidth(), 75);
    exact(t.compute().ns(), 2.56e8);
    SpillEstimate s = t.shuffleWrite().spill();
    exact(s.perSpillRecords(), 250_000);
    exact(s.combinedRecords(), 1.28e6);
    assertThat(s.spills()).isEqualTo(5);
    exact(s.inMemoryRecords(), 30_000);
    exact(s.spillFileBytes(), 8.0e6);
    assertThat(s.spillNs()).isCloseTo(1_232_461_802.46, within(CENT));
    assertThat(s.mergeNs()).isCloseTo(1_412_607_520.01, within(CENT));
    assertThat(t.ns(Phase.SHUFFLE_WRITE)).isCloseTo(2_645_069_322.47, within(CENT));
    assertThat(t.shuffleWrite().bypass()).isFalse();
  }

  @Test
  void stageOneShuffleWriteVariants() {
    ShuffleWriteEstimate hash = run(CONFIG.withShuffleManager(ShuffleManager.HASH), WorkedExample.stages()).get(0)
        .task().shuffleWrite();
    assertThat(hash.spill().spillNs()).isCloseTo(1_456_606_409.58, within(CENT));
    assertThat(hash.spill().mergeNs()).isCloseTo(1_433_087_520.01, within(CENT));
    assertThat(hash.ns()).isCloseTo(2_889_693_929.59, within(CENT));

    List<StageSpec> noCombine = List.of(WorkedExample.map(false), WorkedExample.reduce(50));
    exact(run(CONFIG.withShuffleManager(ShuffleManager.HASH), noCombine).get(0).task().ns(Phase.SHUFFLE_WRITE),
        1_107_200_000);
    ShuffleWriteEstimate bypass = run(CONFIG, noCombine).get(0).task().shuffleWrite();
    assertThat(bypass.bypass()).isTrue();
    exact(bypass.ns(), 6_144_000_000.0);

    ShuffleWriteEstimate sort500 = run(CONFIG, List.of(WorkedExample.map(false), WorkedExample.reduce(500))).get(0)
        .task().shuffleWrite();
    assertThat(sort500.bypass()).isFalse();
    assertThat(sort500.spill().spills()).isEqualTo(10);
    exact(sort500.spill().inMemoryRecords(), 60_000);
    assertThat(sort500.spill().spillNs()).isCloseTo(2_209_523_604.93, within(CENT));
    assertThat(sort500.spill().mergeNs()).isCloseTo(3_221_361_449.44, within(CENT));
    assertThat(sort500.ns()).isCloseTo(5_430_885_054.37, within(CENT));
  }

  @Test
  void stageOneOutputFeedsStageTwoShuffleRead() {
    List<StageEstimate> e = run(CONFIG, WorkedExample.stages());
    ShuffleWriteEstimate w = e.get(0).task().shuffleWrite();
    exact(w.writeBytes() * 100, 1.536e9);
    exact(w.writeRecords() * 100, 1.024e8);
    ShuffleReadEstimate r = e.get(1).task().shuffleRead();
    exact(r.bytes(), 3.072e7);
    exact(r.records(), 2.048e6);
    exact(r.localBytes(), 7.68e6);
    exact(r.remoteBytes(), 2.304e7);
    exact(r.fetchNs(), 4.0704e8);
    SpillEstimate s = r.spill();
    exact(s.perSpillRecords(), 400_000);
    exact(s.combinedRecords(), 512_000);
    assertThat(s.spills()).isEqualTo(1);
    exact(s.inMemoryRecords(), 112_000);
    exact(s.spillFileBytes(), 8.0e6);
    assertThat(s.spillNs()).isCloseTo(341_185_915.91, within(CENT));
    exact(s.mergeNs(), 1.0848e8);
    assertThat(r.ns()).isCloseTo(856_705_915.91, within(CENT));
  }

  @Test
  void stageTwoComputeFuncAndVariants() {
    TaskEstimate t = run(CONFIG, WorkedExample.stages()).get(1).task();
    exact(t.compute().inRecords(), 256_000);
    exact(t.compute().inBytes(), 2.56e7);
    exact(t.compute().outRecords(), 25_600);
    exact(t.compute().outBytes(), 2.56e6);
    exact(t.compute().ns(), 5.12e7);
    exact(t.funcNs(), 2.048e7);

    SpillEstimate noSpill = run(CONFIG.withSpill(false), WorkedExample.stages()).get(1).task().shuffleRead().spill();
    assertThat(noSpill.spills()).isZero();
    assertThat(noSpill.spillNs()).isCloseTo(199_504_815.54, within(CENT));
    assertThat(noSpill.mergeNs()).isZero();

    List<StageEstimate> raw = run(CONFIG.withShuffleCompress(false), WorkedExample.stages());
    exact(raw.get(0).task().shuffleWrite().writeBytes() * 100, 3.84e9);
    exact(raw.get(1).task().shuffleRead().bytes(), 7.68e7);
    exact(raw.get(1).task().shuffleRead().fetchNs(), 7.104e8);
  }

  @Test
  void taskTimesWavesAndJob() {
    List<StageEstimate> e = run(CONFIG, WorkedExample.stages());
    assertThat(e.get(0).task().taskNs()).isCloseTo(3_729_069_322.47, within(CENT));
    assertThat(e.get(1).task().taskNs()).isCloseTo(988_385_915.91, within(CENT));
    assertThat(CONFIG.slots()).isEqualTo(16);
    assertThat(e.get(0).waves()).isEqualTo(7);
    assertThat(e.get(1).waves()).isEqualTo(4);
    assertThat(CostModel.totalNs(e)).isCloseTo(30_057_028_920.96, within(CENT));
  }
}
