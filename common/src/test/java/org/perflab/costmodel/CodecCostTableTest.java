package org.perflab.costmodel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.perflab.errors.BadInputException;

/** The shipped codec and serializer table loads, its factors are its own ratios to lz4 / Java, and bad CSV is named. */
class CodecCostTableTest {

  @Test
  void theShippedTableHasTheBaseRowAndFactorsRelativeToIt() {
    CodecCostTable table = CodecCostTable.shipped();
    CodecCostTable.Entry base = table.get(Codec.LZ4, SerializerKind.JAVA).orElseThrow();
    assertThat(base.bytesFactor()).isEqualTo(1.0);
    assertThat(table.get(Codec.ZSTD, SerializerKind.JAVA)).isPresent();
    assertThat(table.get(Codec.LZ4, SerializerKind.KRYO)).isPresent();
    for (CodecCostTable.Entry e : table.entries()) {
      assertThat(e.runs()).isPositive();
      // Four decimals are printed: the factor is the ratio of the printed widths to within rounding.
      assertThat(e.bytesFactor()).isCloseTo(e.bytesPerRecord() / base.bytesPerRecord(), within(1e-3));
      assertThat(e.writeFactor()).isCloseTo(e.writeNsPerByte() * e.bytesPerRecord()
          / (base.writeNsPerByte() * base.bytesPerRecord()), within(1e-3));
    }
  }

  @Test
  void ofDividesEachSettingByTheBase() {
    CodecCostTable t = CodecCostTable.of(List.of(
        new CodecCostTable.Sums(Codec.LZ4, SerializerKind.JAVA, 1, 1000, 10, 5000, 2.0),
        new CodecCostTable.Sums(Codec.ZSTD, SerializerKind.JAVA, 1, 600, 10, 6000, 4.0)), Codec.LZ4,
        SerializerKind.JAVA);
    CodecCostTable.Entry zstd = t.get(Codec.ZSTD, SerializerKind.JAVA).orElseThrow();
    assertThat(zstd.bytesFactor()).isCloseTo(0.6, within(1e-12));
    assertThat(zstd.writeFactor()).isCloseTo(1.2, within(1e-12));
    assertThat(zstd.readFactor()).isCloseTo(4.0 * 60 / (2.0 * 100), within(1e-12));
    assertThat(CodecCostTable.parse(CodecCostTable.HEADER + "\n" + zstd.csv(), "t").entries().get(0).bytesFactor())
        .isCloseTo(0.6, within(1e-4));
  }

  @Test
  void aWrongHeaderOrFieldCountIsBadInput() {
    assertThatThrownBy(() -> CodecCostTable.parse("codec,serializer\nlz4,java", "t.csv"))
        .isInstanceOf(BadInputException.class).hasMessageContaining("line 1 is not the header");
    assertThatThrownBy(() -> CodecCostTable.parse("# c\n" + CodecCostTable.HEADER + "\nlz4,java,1", "t.csv"))
        .isInstanceOf(BadInputException.class).hasMessage("Cannot read t.csv: line 3 has 3 fields (9)");
  }
}
