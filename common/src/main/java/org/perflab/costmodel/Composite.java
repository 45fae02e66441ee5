package org.perflab.costmodel;

/**
 * The switches and composite per-byte costs of eqs. (2)–(5). SCW (serialize, compress, write) is ns per in-memory
 * byte; RCS (read, uncompress, deserialize) is ns per on-disk byte.
 *
 * @param shuffle the codec statistics in force for shuffle files (eq. 2: {@link CodecCosts#NONE} when
 *     spark.shuffle.compress is off)
 * @param spill the codec statistics in force for spill files (eq. 4)
 * @param shuffleScwNsPerByte tShuffleSCW, eq. (3)
 * @param shuffleRcsNsPerByte tShuffleRCS, eq. (3)
 * @param spillScwNsPerByte tSpillSCW, eq. (5)
 * @param spillRcsNsPerByte tSpillRCS, eq. (5)
 */
public record Composite(CodecCosts shuffle, CodecCosts spill, double shuffleScwNsPerByte, double shuffleRcsNsPerByte,
    double spillScwNsPerByte, double spillRcsNsPerByte) {

  /** Eqs. (2)–(5) for a configuration. */
  public static Composite of(CostConfig config, ClusterStats stats) {
    CodecCosts codec = stats.codec(config.codec());
    SerializerCosts ser = stats.serializer(config.serializer());
    double write = stats.costs().localWriteNsPerByte();
    double read = stats.costs().localReadNsPerByte();
    CodecCosts shuffle = config.shuffleCompress() ? codec : CodecCosts.NONE;
    CodecCosts spill = config.spillCompress() ? codec : CodecCosts.NONE;
    return new Composite(shuffle, spill, scw(ser, shuffle, write), rcs(ser, shuffle, read), scw(ser, spill, write),
        rcs(ser, spill, read));
  }

  /** SCW = csSerde + dsSerializeRatio × (comCPU + compressRatio × csLocalIOWrite), ns per in-memory byte. */
  public static double scw(SerializerCosts ser, CodecCosts c, double localWriteNsPerByte) {
    return ser.serdeNsPerByte()
        + ser.serializeRatio() * (c.compressNsPerByte() + c.compressRatio() * localWriteNsPerByte);
  }

  /** RCS = csLocalIORead + uncomCPU + csSerde ÷ compressRatio, ns per on-disk byte. */
  public static double rcs(SerializerCosts ser, CodecCosts c, double localReadNsPerByte) {
    return localReadNsPerByte + c.uncompressNsPerByte() + ser.serdeNsPerByte() / c.compressRatio();
  }
}
