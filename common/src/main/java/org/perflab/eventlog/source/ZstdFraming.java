package org.perflab.eventlog.source;

/**
 * The framing of a zstd stream (RFC 8878): a sequence of frames, each a header, blocks up to the one flagged last,
 * and an optional checksum; skippable frames are passed over. A stream may end only between frames. Spark's event-log
 * writer closes a frame at every flush, so a cut exactly between two frames reads as a complete stream; a cut
 * anywhere inside a frame, block boundaries included, does not.
 */
final class ZstdFraming extends StreamFraming {
  private static final int MAGIC = 0xFD2FB528;
  private static final int SKIPPABLE_MAGIC = 0x184D2A50;
  private static final int SKIPPABLE_MASK = 0xFFFFFFF0;
  private static final int MAGIC_BYTES = 4;
  private static final int SKIPPABLE_SIZE_BYTES = 4;
  private static final int BLOCK_HEADER_BYTES = 3;
  private static final int CHECKSUM_BYTES = 4;
  private static final int[] DICTIONARY_ID_BYTES = {0, 1, 2, 4};
  private static final int RLE_BLOCK = 1;
  private static final int RESERVED_BLOCK = 3;

  private enum Field { MAGIC, SKIPPABLE_SIZE, DESCRIPTOR, HEADER_REST, BLOCK_HEADER, CHECKSUM }

  private Field field = Field.MAGIC;
  private boolean checksum;

  ZstdFraming() {
    super(MAGIC_BYTES);
  }

  @Override
  void onField(byte[] bytes, int length) {
    switch (field) {
      case MAGIC -> magic(intLittleEndian(bytes, 0));
      case SKIPPABLE_SIZE -> then(Integer.toUnsignedLong(intLittleEndian(bytes, 0)), Field.MAGIC);
      case DESCRIPTOR -> descriptor(bytes[0] & 0xff);
      case HEADER_REST -> then(0, Field.BLOCK_HEADER);
      case BLOCK_HEADER -> block(bytes[0] & 0xff | (bytes[1] & 0xff) << 8 | (bytes[2] & 0xff) << 16);
      case CHECKSUM -> then(0, Field.MAGIC);
    }
  }

  private void magic(int magic) {
    if (magic == MAGIC) {
      then(0, Field.DESCRIPTOR);
    } else if ((magic & SKIPPABLE_MASK) == SKIPPABLE_MAGIC) {
      then(0, Field.SKIPPABLE_SIZE);
    } else {
      lose();
    }
  }

  /** The frame header descriptor gives the length of the rest of the header. */
  private void descriptor(int descriptor) {
    boolean singleSegment = (descriptor & 0x20) != 0;
    checksum = (descriptor & 0x04) != 0;
    int contentSizeFlag = descriptor >>> 6;
    int contentSizeBytes = contentSizeFlag == 0 ? (singleSegment ? 1 : 0) : 1 << contentSizeFlag;
    int rest = (singleSegment ? 0 : 1) + DICTIONARY_ID_BYTES[descriptor & 0x03] + contentSizeBytes;
    if ((descriptor & 0x08) != 0) {
      lose(); // the reserved bit
    } else {
      then(0, rest == 0 ? Field.BLOCK_HEADER : Field.HEADER_REST, rest);
    }
  }

  private void block(int header) {
    boolean last = (header & 1) != 0;
    int type = (header >>> 1) & 0x03;
    int size = header >>> 3;
    if (type == RESERVED_BLOCK) {
      lose();
      return;
    }
    long payload = type == RLE_BLOCK ? 1 : size;
    if (!last) {
      then(payload, Field.BLOCK_HEADER);
    } else {
      then(payload, checksum ? Field.CHECKSUM : Field.MAGIC);
    }
  }

  /** Passes {@code payload} bytes, then reads {@code nextField}, whose length is fixed. */
  private void then(long payload, Field nextField) {
    int length = switch (nextField) {
      case MAGIC -> MAGIC_BYTES;
      case SKIPPABLE_SIZE -> SKIPPABLE_SIZE_BYTES;
      case DESCRIPTOR -> 1;
      case BLOCK_HEADER -> BLOCK_HEADER_BYTES;
      case CHECKSUM -> CHECKSUM_BYTES;
      case HEADER_REST -> throw new IllegalArgumentException("Cannot follow a zstd frame: its header length varies");
    };
    then(payload, nextField, length);
  }

  /** Passes {@code payload} bytes, then reads {@code length} bytes of {@code nextField}; streams end between frames. */
  private void then(long payload, Field nextField, int length) {
    field = nextField;
    next(payload, length, nextField == Field.MAGIC);
  }
}
