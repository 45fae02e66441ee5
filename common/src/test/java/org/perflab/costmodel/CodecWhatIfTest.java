package org.perflab.costmodel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.perflab.errors.BadInputException;
import org.perflab.sim.Distribution;
import org.perflab.sim.Model;
import org.perflab.sim.Stage;
import org.perflab.sim.TaskChoice;

/**
 * A codec or serializer change on a run's fitted statistics ({@link PhaseCostInputs}): the shipped table's ratios to
 * the run's own codec, per record.
 */
class CodecWhatIfTest {
  private static final CodecCostTable TABLE = CodecCostTable.shipped();

  /**
   * A local[2] run at 8 GiB (nothing spills): S0 reads 64 MB and combines map-side (a sort write, not a bypass one,
   * whose file concatenation would add a read), S1 reads its output.
   */
  private static PhaseCostInputs.Built run(String codec) {
    Model model = new Model(List.of(
        new Stage("S0", 8, List.of(), List.of(), new Distribution.Deterministic(2), 64_000_000L, 0L),
        new Stage("S1", 4, List.of("S0"), List.of(), new Distribution.Deterministic(3), 0L, 68_000_000L)),
        2, 1, new Distribution.Deterministic(0), 1, 1.96, 1L, TaskChoice.FIFO);
    PhaseCostInputs.StageCostRow map = new PhaseCostInputs.StageCostRow(0, 8, Map.of("fixed_ns_per_task", 1e6,
        "hdfs_read_ns_per_byte", 2.0, "compute_ns_per_record", 300.0, "shuffle_write_ns_per_byte", 30.0,
        "read_in_pair_width_bytes", 100.0, "shuffle_write_pair_width_bytes", 106.0, "records_selectivity", 0.5));
    PhaseCostInputs.StageCostRow reduce = new PhaseCostInputs.StageCostRow(1, 4, Map.of("fixed_ns_per_task", 1e6,
        "local_read_ns_per_byte", 190.0, "compute_ns_per_record", 500.0, "shuffle_read_pair_width_bytes", 106.0));
    return PhaseCostInputs.build(model, Map.of("spark.master", "local[2]", "spark.driver.memory", "8g",
        "spark.io.compression.codec", codec), List.of(map, reduce));
  }

  private static List<StageEstimate> at(PhaseCostInputs.Built b, WhatIf change) {
    PhaseCostRule r = b.rule();
    return CostModel.whatIf(r.source(), r.stats(), r.stages(), change, TABLE);
  }

  private static double ratio(CodecCostTable.Entry to, CodecCostTable.Entry from,
      java.util.function.ToDoubleFunction<CodecCostTable.Entry> perByte) {
    return perByte.applyAsDouble(to) * to.bytesPerRecord() / (perByte.applyAsDouble(from) * from.bytesPerRecord());
  }

  @Test
  void lz4ToZstdScalesShuffleBytesAndPerRecordCostsByTheTablesRatios() {
    PhaseCostInputs.Built lz4 = run("lz4");
    assertThat(lz4.rule().source().executorMemoryBytes()).isEqualTo(8L << 30);
    CodecCostTable.Entry from = TABLE.get(Codec.LZ4, SerializerKind.JAVA).orElseThrow();
    CodecCostTable.Entry to = TABLE.get(Codec.ZSTD, SerializerKind.JAVA).orElseThrow();
    List<StageEstimate> before = at(lz4, WhatIf.NONE);
    List<StageEstimate> after = at(lz4, WhatIf.NONE.withCodec(Codec.ZSTD));

    ShuffleWriteEstimate w0 = before.get(0).task().shuffleWrite();
    ShuffleWriteEstimate w1 = after.get(0).task().shuffleWrite();
    assertThat(w0.spill().spills()).isZero();
    assertThat(w1.writeRecords()).isEqualTo(w0.writeRecords());
    assertThat(w1.writeBytes() / w0.writeBytes()).isCloseTo(to.bytesPerRecord() / from.bytesPerRecord(),
        within(1e-9));
    assertThat(w1.ns() / w0.ns()).isCloseTo(ratio(to, from, CodecCostTable.Entry::writeNsPerByte), within(1e-9));

    ShuffleReadEstimate r0 = before.get(1).task().shuffleRead();
    ShuffleReadEstimate r1 = after.get(1).task().shuffleRead();
    assertThat(r1.records()).isEqualTo(r0.records());
    assertThat(r1.bytes() / r0.bytes()).isCloseTo(to.bytesPerRecord() / from.bytesPerRecord(), within(1e-9));
    assertThat(r1.fetchNs() / r0.fetchNs()).isCloseTo(ratio(to, from, CodecCostTable.Entry::readNsPerByte),
        within(1e-9));
    // Everything else keeps its time: Read, Compute and the per-task cost do not depend on the codec.
    assertThat(after.get(0).task().readNs()).isEqualTo(before.get(0).task().readNs());
    assertThat(after.get(1).task().compute().ns()).isEqualTo(before.get(1).task().compute().ns());
  }

  @Test
  void theRunsOwnCodecStaysTheAnchor() {
    // Predicting lz4 from a zstd run inverts the lz4 → zstd ratios: the run's fitted costs are the anchor.
    List<StageEstimate> zstd = at(run("zstd"), WhatIf.NONE);
    List<StageEstimate> lz4 = at(run("zstd"), WhatIf.NONE.withCodec(Codec.LZ4));
    CodecCostTable.Entry from = TABLE.get(Codec.ZSTD, SerializerKind.JAVA).orElseThrow();
    CodecCostTable.Entry to = TABLE.get(Codec.LZ4, SerializerKind.JAVA).orElseThrow();
    assertThat(lz4.get(0).task().shuffleWrite().ns() / zstd.get(0).task().shuffleWrite().ns())
        .isCloseTo(ratio(to, from, CodecCostTable.Entry::writeNsPerByte), within(1e-9));
    assertThat(lz4.get(0).task().shuffleWrite().ns()).isGreaterThan(zstd.get(0).task().shuffleWrite().ns());
    // No change of codec: the statistics are used as fitted.
    PhaseCostRule own = run("zstd").rule();
    assertThat(WhatIf.NONE.withCodec(Codec.ZSTD).apply(own.source(), own.stats(), TABLE)).isSameAs(own.stats());
  }

  @Test
  void aSerializerChangeTakesItsRowToo() {
    PhaseCostInputs.Built lz4 = run("lz4");
    CodecCostTable.Entry from = TABLE.get(Codec.LZ4, SerializerKind.JAVA).orElseThrow();
    CodecCostTable.Entry to = TABLE.get(Codec.LZ4, SerializerKind.KRYO).orElseThrow();
    double before = at(lz4, WhatIf.NONE).get(1).task().shuffleRead().fetchNs();
    double after = at(lz4, WhatIf.NONE.withSerializer(SerializerKind.KRYO)).get(1).task().shuffleRead().fetchNs();
    assertThat(after / before).isCloseTo(ratio(to, from, CodecCostTable.Entry::readNsPerByte), within(1e-9));
  }

  @Test
  void anUnmeasuredSettingIsReportedNotGuessed() {
    // A table that measured lz4 and zstd with Java, and lz4 with Kryo; not lzf, and not zstd with Kryo.
    CodecCostTable partial = PartialCodecTable.of();
    PhaseCostRule r = run("lz4").rule();
    assertThatThrownBy(() -> CostModel.whatIf(r.source(), r.stats(), r.stages(), WhatIf.NONE.withCodec(Codec.LZF),
        partial))
        .isInstanceOf(BadInputException.class)
        .hasMessageStartingWith("Cannot predict codec lzf with serializer java: not in the codec cost table")
        .hasMessageContaining("zstd/java");
    // zstd and Kryo were each measured, but not together.
    assertThatThrownBy(() -> CostModel.whatIf(r.source(), r.stats(), r.stages(),
        WhatIf.NONE.withCodec(Codec.ZSTD).withSerializer(SerializerKind.KRYO), partial))
        .isInstanceOf(BadInputException.class).hasMessageContaining("codec zstd with serializer kryo");
  }

  @Test
  void theShippedTableMeasuredEveryCodecWithEverySerializer() {
    PhaseCostInputs.Built lz4 = run("lz4");
    for (Codec codec : Codec.values()) {
      for (SerializerKind serializer : SerializerKind.values()) {
        assertThat(TABLE.get(codec, serializer)).as("%s/%s", codec, serializer).isPresent();
        List<StageEstimate> after = at(lz4, WhatIf.NONE.withCodec(codec).withSerializer(serializer));
        assertThat(after.get(1).task().shuffleRead().fetchNs()).as("%s/%s", codec, serializer).isPositive().isFinite();
      }
    }
  }
}
