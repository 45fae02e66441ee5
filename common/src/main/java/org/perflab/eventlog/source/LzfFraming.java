package org.perflab.eventlog.source;

/**
 * The framing of compress-lzf's stream, which Spark's lzf codec writes: chunks, each {@code 'Z' 'V'}, a type (0 stored,
 * 1 compressed), a big-endian 2-byte length, for a compressed chunk a 2-byte decompressed length, and that many bytes.
 * The format has no end mark: a stream may end after any chunk, so only a cut inside a chunk can be caught.
 */
final class LzfFraming extends StreamFraming {
  private static final int HEADER_BYTES = 5;
  private static final int DECOMPRESSED_LENGTH_BYTES = 2;
  private static final int STORED = 0;
  private static final int COMPRESSED = 1;

  /** The length of the chunk whose decompressed length is being read, or -1 when a chunk header is. */
  private int pendingChunk = -1;

  LzfFraming() {
    super(HEADER_BYTES);
  }

  @Override
  void onField(byte[] field, int length) {
    if (pendingChunk >= 0) {
      next(pendingChunk, HEADER_BYTES, true);
      pendingChunk = -1;
      return;
    }
    int type = field[2];
    int chunkLength = intBigEndian(field, 3, 2);
    if (field[0] != 'Z' || field[1] != 'V' || (type != STORED && type != COMPRESSED)) {
      lose();
    } else if (type == STORED) {
      next(chunkLength, HEADER_BYTES, true);
    } else {
      pendingChunk = chunkLength;
      next(0, DECOMPRESSED_LENGTH_BYTES, false);
    }
  }
}
