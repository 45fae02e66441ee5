package org.perflab.eventlog.source;

import java.nio.charset.StandardCharsets;

/**
 * The framing of lz4-java's block stream, which Spark's lz4 codec writes: blocks, each a 21-byte header (the magic
 * {@code LZ4Block}, a token, the compressed and decompressed lengths, a checksum) and its compressed bytes, then an end
 * mark, a header whose two lengths are 0. A stream may end only after an end mark (another stream may follow it), so a
 * cut at a block boundary is caught as surely as one inside a block.
 */
final class Lz4BlockFraming extends StreamFraming {
  private static final byte[] MAGIC = "LZ4Block".getBytes(StandardCharsets.US_ASCII);
  private static final int HEADER_BYTES = MAGIC.length + 1 + 4 + 4 + 4;
  private static final int COMPRESSED_LENGTH_AT = MAGIC.length + 1;
  private static final int DECOMPRESSED_LENGTH_AT = COMPRESSED_LENGTH_AT + 4;

  Lz4BlockFraming() {
    super(HEADER_BYTES);
  }

  @Override
  void onField(byte[] header, int length) {
    int compressed = intLittleEndian(header, COMPRESSED_LENGTH_AT);
    int decompressed = intLittleEndian(header, DECOMPRESSED_LENGTH_AT);
    if (!startsWith(header, MAGIC) || compressed < 0 || decompressed < 0) {
      lose();
    } else {
      boolean endMark = compressed == 0 && decompressed == 0;
      next(compressed, HEADER_BYTES, endMark);
    }
  }
}
