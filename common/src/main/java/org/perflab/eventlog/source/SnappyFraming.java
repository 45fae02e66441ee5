package org.perflab.eventlog.source;

/**
 * The framing of snappy-java's stream, which Spark's snappy codec writes: a 16-byte header (an 8-byte magic, the
 * version and the compatible version), then chunks, each a big-endian 4-byte length and that many compressed bytes; a
 * chunk length equal to the magic's first four bytes starts the header of a concatenated stream. The format has no
 * end mark: a stream may end after any chunk, so only a cut inside a header or a chunk can be caught.
 */
final class SnappyFraming extends StreamFraming {
  private static final byte[] MAGIC = {(byte) 0x82, 'S', 'N', 'A', 'P', 'P', 'Y', 0};
  private static final int HEADER_BYTES = MAGIC.length + 4 + 4;
  private static final int LENGTH_BYTES = 4;
  private static final int MAGIC_HEAD = intBigEndian(MAGIC, 0, LENGTH_BYTES);

  private boolean inHeader = true;

  SnappyFraming() {
    super(HEADER_BYTES);
  }

  @Override
  void onField(byte[] field, int length) {
    if (inHeader) {
      header(field, length);
    } else {
      chunk(intBigEndian(field, 0, LENGTH_BYTES));
    }
  }

  /** The stream's header, or the rest of a concatenated stream's, which follows its first four bytes. */
  private void header(byte[] field, int length) {
    if (length == HEADER_BYTES && !startsWith(field, MAGIC)) {
      lose();
    } else {
      inHeader = false;
      next(0, LENGTH_BYTES, true);
    }
  }

  private void chunk(int chunkLength) {
    if (chunkLength == MAGIC_HEAD) {
      inHeader = true;
      next(0, HEADER_BYTES - LENGTH_BYTES, false);
    } else if (chunkLength < 0) {
      lose();
    } else {
      next(chunkLength, LENGTH_BYTES, true);
    }
  }
}
