package org.perflab.eventlog.parse;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Byte searches eight bytes at a time ("SIMD within a register"): a long read from the array flags the bytes that
 * match, and the lowest flag is the first match, since a false flag can only sit above a true one.
 */
public final class Swar {
  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101010101010101L;
  private static final long HIGH_BITS = 0x8080808080808080L;
  private static final long NEWLINES = ONES * '\n';
  private static final long QUOTES = ONES * '"';
  private static final long BACKSLASHES = ONES * '\\';
  private static final long SPACES = ONES * ' ';

  private Swar() {}

  /** The little-endian word of {@code bytes[i, i + 8)}. */
  static long word(byte[] bytes, int i) {
    return (long) LONGS.get(bytes, i);
  }

  /** The first index in {@code [from, to)} holding {@code '\n'}, or -1. */
  public static int indexOfNewline(byte[] bytes, int from, int to) {
    int i = from;
    for (; i <= to - Long.BYTES; i += Long.BYTES) {
      long flags = zeroBytes((long) LONGS.get(bytes, i) ^ NEWLINES);
      if (flags != 0) {
        return i + (Long.numberOfTrailingZeros(flags) >>> 3);
      }
    }
    for (; i < to; i++) {
      if (bytes[i] == '\n') {
        return i;
      }
    }
    return -1;
  }

  /**
   * The first index at or after {@code from} whose byte may end or escape a JSON string's run of plain characters: a
   * quote, a backslash or a control character. Returns the first index past whole eight-byte words before {@code to}
   * when none is found in them; the caller reads on byte by byte from there.
   */
  static int nextSpecialInString(byte[] bytes, int from, int to) {
    int i = from;
    for (; i <= to - Long.BYTES; i += Long.BYTES) {
      long word = (long) LONGS.get(bytes, i);
      long flags = zeroBytes(word ^ QUOTES) | zeroBytes(word ^ BACKSLASHES) | ((word - SPACES) & ~word & HIGH_BITS);
      if (flags != 0) {
        return i + (Long.numberOfTrailingZeros(flags) >>> 3);
      }
    }
    return i;
  }

  /** Flags (high bit) the zero bytes of {@code word}; the lowest flag is exact. */
  private static long zeroBytes(long word) {
    return (word - ONES) & ~word & HIGH_BITS;
  }
}
