package org.perflab.eventlog.source;

/**
 * Follows the framing of one compressed stream (headers, blocks, end marks) as its bytes go by, without decoding
 * anything, to tell a stream that ends where its format lets it end from one cut short. Subclasses read one
 * fixed-length field at a time and say, after each, how many payload bytes to pass over, how long the next field is,
 * and whether the stream may end cleanly once that payload is passed.
 *
 * <p>Bytes the format does not allow make the framing <em>lost</em>: it then says nothing, and the decoder's own error
 * stands. Not thread-safe.
 */
abstract class StreamFraming {
  /** The longest field any subclass reads. */
  private static final int MAX_FIELD = 32;

  private final byte[] field = new byte[MAX_FIELD];
  private int fieldLength;
  private int collected;
  private long toPass;
  private boolean mayEndAfterPayload = true;
  private boolean lost;

  /** @param firstField the length of the field the stream starts with */
  StreamFraming(int firstField) {
    this.fieldLength = firstField;
  }

  /** The framing of {@code codec} as Spark's streams write it; null for {@link LogCompression#NONE}, which has none. */
  static StreamFraming of(LogCompression codec) {
    return switch (codec) {
      case NONE -> null;
      case LZ4 -> new Lz4BlockFraming();
      case LZF -> new LzfFraming();
      case SNAPPY -> new SnappyFraming();
      case ZSTD -> new ZstdFraming();
    };
  }

  /** Follows the next {@code length} bytes of the stream. */
  final void update(byte[] bytes, int offset, int length) {
    int end = offset + length;
    int i = offset;
    while (i < end && !lost) {
      if (toPass > 0) {
        int passed = (int) Math.min(toPass, end - i);
        toPass -= passed;
        i += passed;
      } else {
        int taken = Math.min(fieldLength - collected, end - i);
        System.arraycopy(bytes, i, field, collected, taken);
        collected += taken;
        i += taken;
        if (collected == fieldLength) {
          collected = 0;
          onField(field, fieldLength);
        }
      }
    }
  }

  /**
   * Whether the bytes so far may be the whole stream: they end where the format lets a stream end. Also true once the
   * framing is lost, since it then cannot tell.
   */
  final boolean mayEndHere() {
    return lost || (toPass == 0 && collected == 0 && mayEndAfterPayload);
  }

  /** Called when a field is complete; must call {@link #next} or {@link #lose}. */
  abstract void onField(byte[] field, int length);

  /**
   * What follows the field just read.
   *
   * @param payload bytes to pass over before the next field (0 or more)
   * @param nextField the length of the next field (1 to 32 bytes)
   * @param mayEnd whether the stream may end once the payload is passed, before the next field starts
   */
  final void next(long payload, int nextField, boolean mayEnd) {
    if (payload < 0 || nextField < 1 || nextField > MAX_FIELD) {
      throw new IllegalArgumentException(
          "Cannot follow the stream: payload " + payload + " and field " + nextField + " are out of range");
    }
    toPass = payload;
    fieldLength = nextField;
    mayEndAfterPayload = mayEnd;
  }

  /** The bytes do not follow the format: stop following the stream. */
  final void lose() {
    lost = true;
  }

  /** The little-endian 32-bit integer at {@code offset}. */
  static int intLittleEndian(byte[] bytes, int offset) {
    return (bytes[offset] & 0xff) | (bytes[offset + 1] & 0xff) << 8 | (bytes[offset + 2] & 0xff) << 16
        | (bytes[offset + 3] & 0xff) << 24;
  }

  /** The big-endian integer of {@code length} bytes (at most 4) at {@code offset}. */
  static int intBigEndian(byte[] bytes, int offset, int length) {
    int value = 0;
    for (int i = offset; i < offset + length; i++) {
      value = value << 8 | (bytes[i] & 0xff);
    }
    return value;
  }

  /** Whether {@code bytes} begins with {@code prefix}. */
  static boolean startsWith(byte[] bytes, byte[] prefix) {
    for (int i = 0; i < prefix.length; i++) {
      if (bytes[i] != prefix[i]) {
        return false;
      }
    }
    return true;
  }
}
