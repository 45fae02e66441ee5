package org.perflab.costmodel;

import java.util.List;

/**
 * A codec cost table for tests of unmeasured settings: lz4 and zstd with Java, lz4 with Kryo; no lzf or snappy, and no
 * zstd with Kryo.
 */
final class PartialCodecTable {
  private PartialCodecTable() {}

  static CodecCostTable of() {
    return CodecCostTable.of(List.of(
        new CodecCostTable.Sums(Codec.LZ4, SerializerKind.JAVA, 1, 1000, 10, 5000, 2.0),
        new CodecCostTable.Sums(Codec.ZSTD, SerializerKind.JAVA, 1, 700, 10, 4000, 3.0),
        new CodecCostTable.Sums(Codec.LZ4, SerializerKind.KRYO, 1, 1000, 10, 6000, 4.0)), Codec.LZ4,
        SerializerKind.JAVA);
  }
}
