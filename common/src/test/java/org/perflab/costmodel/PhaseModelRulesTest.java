package org.perflab.costmodel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.perflab.costmodel.WorkedExample.CONFIG;
import static org.perflab.costmodel.WorkedExample.STATS;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.perflab.errors.BadInputException;

/** Reference 000 §6.2: switches, bypass boundaries, conservation, no-spill edge cases, monotonicity; unified memory. */
class PhaseModelRulesTest {
  private static final long MIB = 1024L * 1024;

  @Test
  void compressionSwitchesOffGiveRatioOneAndNoCpu() {
    Composite c = Composite.of(CONFIG.withShuffleCompress(false), STATS);
    assertThat(c.shuffle()).isEqualTo(CodecCosts.NONE);
    assertThat(c.spill()).isEqualTo(STATS.codec(Codec.LZ4));
    CostConfig noSpillCompress = new CostConfig(4, 4, 1, 1_000_000_000L, MemoryModel.Legacy.DEFAULT,
        ShuffleManager.SORT, 200, true, true, false, Codec.LZ4, SerializerKind.JAVA);
    assertThat(Composite.of(noSpillCompress, STATS).spill()).isEqualTo(CodecCosts.NONE);
  }

  @Test
  void codecAndSerializerSelectTheirEntries() {
    ClusterStats two = STATS.withCodec(Codec.ZSTD, new CodecCosts(0.25, 6, 2))
        .withSerializer(SerializerKind.KRYO, new SerializerCosts(0.3, 1));
    Composite c = Composite.of(CONFIG.withCodec(Codec.ZSTD).withSerializer(SerializerKind.KRYO), two);
    // SCW = 1 + 0.3 × (6 + 0.25 × 10); RCS = 5 + 2 + 1 / 0.25.
    assertThat(c.shuffleScwNsPerByte()).isCloseTo(1 + 0.3 * 8.5, within(1e-12));
    assertThat(c.shuffleRcsNsPerByte()).isCloseTo(11, within(1e-12));
    assertThatThrownBy(() -> Composite.of(CONFIG.withCodec(Codec.SNAPPY), STATS))
        .isInstanceOf(BadInputException.class).hasMessageContaining("Cannot model codec SNAPPY");
  }

  @Test
  void bypassPredicateBoundaries() {
    PhaseModel m = new PhaseModel(CONFIG, STATS);
    assertThat(m.bypass(false, 200)).isTrue();
    assertThat(m.bypass(false, 201)).isFalse();
    assertThat(m.bypass(true, 1)).isFalse();
    assertThat(new PhaseModel(CONFIG.withShuffleManager(ShuffleManager.HASH), STATS).bypass(false, 1)).isFalse();
  }

  @Test
  void shuffleBytesAreConserved() {
    List<StageEstimate> e = CostModel.estimate(CONFIG, STATS, WorkedExample.stages());
    ShuffleReadEstimate r = e.get(1).task().shuffleRead();
    assertThat(r.localBytes() + r.remoteBytes()).isCloseTo(r.bytes(), within(1e-6));
    assertThat(r.bytes() * 50).isCloseTo(e.get(0).task().shuffleWrite().writeBytes() * 100, within(1e-3));
    ShuffleReadEstimate single = CostModel.estimate(CONFIG.withExecutors(1), STATS, WorkedExample.stages()).get(1)
        .task().shuffleRead();
    assertThat(single.remoteBytes()).isZero();
    assertThat(single.localBytes()).isEqualTo(single.bytes());
  }

  @Test
  void withoutSpillsTheMergeCostsNothingAndTheWriteIsOneSerializedPass() {
    CostConfig big = CONFIG.withExecutorMemoryBytes(1_000_000_000_000L);
    List<StageEstimate> e = CostModel.estimate(big, STATS, WorkedExample.stages());
    SpillEstimate read = e.get(1).task().shuffleRead().spill();
    assertThat(read.spills()).isZero();
    assertThat(read.mergeNs()).isZero();
    SpillEstimate write = e.get(0).task().shuffleWrite().spill();
    assertThat(write.spills()).isZero();
    double scw = Composite.of(big, STATS).shuffleScwNsPerByte();
    assertThat(write.mergeNs()).isCloseTo(write.combinedRecords() * 160 * 0.8 * scw, within(1e-3));
    assertThat(PhaseModel.nLogN(0)).isZero();
    assertThat(PhaseModel.nLogN(1)).isZero();
  }

  @Test
  void moreMemoryNeverMoreSpillsMoreCoresSmallerBuffer() {
    long previous = Long.MAX_VALUE;
    for (long mem = 100_000_000L; mem <= 4_000_000_000L; mem += 100_000_000L) {
      long spills = CostModel.estimate(CONFIG.withExecutorMemoryBytes(mem), STATS, WorkedExample.stages()).get(0)
          .task().shuffleWrite().spill().spills();
      assertThat(spills).isLessThanOrEqualTo(previous);
      previous = spills;
    }
    assertThat(CONFIG.withCores(8).spillBufferBytes()).isLessThan(CONFIG.spillBufferBytes());
  }

  @Test
  void legacyDefaultBufferIsTheReferenceValue() {
    CostConfig yarn = new CostConfig(1, 1, 1, 512 * MIB, MemoryModel.Legacy.DEFAULT, ShuffleManager.SORT, 200, true,
        true, true, Codec.LZ4, SerializerKind.JAVA);
    assertThat(yarn.spillBufferBytes()).isCloseTo(85_899_345.92, within(1e-6));
    assertThat(yarn.withCores(4).spillBufferBytes()).isCloseTo(21_474_836.48, within(1e-6));
  }

  @Test
  void unifiedMemoryLendsFreeStorageAndProtectsOnlyTheStorageFraction() {
    long heap = 4096 * MIB;
    double usable = (heap - 300 * MIB) * 0.6;
    assertThat(new MemoryModel.Unified(0.6, 0.5, 0).spillBufferBytes(heap, 4)).isCloseTo(usable / 4, within(1e-6));
    // Cached blocks inside the protected region are not evicted: execution loses them.
    assertThat(new MemoryModel.Unified(0.6, 0.5, 100 * MIB).executionBytes(heap))
        .isCloseTo(usable - 100 * MIB, within(1e-6));
    // Cached blocks beyond storageFraction × usable are evictable: execution keeps all but the protected half.
    assertThat(new MemoryModel.Unified(0.6, 0.5, heap).executionBytes(heap)).isCloseTo(usable / 2, within(1e-6));
    assertThatThrownBy(() -> new MemoryModel.Unified(0.6, 0.5, 0).spillBufferBytes(400 * MIB, 1))
        .isInstanceOf(BadInputException.class).hasMessageContaining("Cannot model executor memory");
  }

  @Test
  void parsesSparkPropertyValues() {
    assertThat(Codec.parse("zstd")).isEqualTo(Codec.ZSTD);
    assertThat(Codec.parse("org.apache.spark.io.LZ4CompressionCodec")).isEqualTo(Codec.LZ4);
    assertThat(SerializerKind.parse("org.apache.spark.serializer.KryoSerializer")).isEqualTo(SerializerKind.KRYO);
    assertThatThrownBy(() -> Codec.parse("gzip")).isInstanceOf(BadInputException.class)
        .hasMessageContaining("Cannot parse spark.io.compression.codec");
    assertThat(new ClusterStats(WorkedExample.COSTS, Map.of(), Map.of()).codecs()).isEmpty();
  }
}
