package org.perflab.eventlog.parse;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Decodes the short UTF-8 strings that task events repeat (executor ids, hosts, localities, task types, executor
 * metric names) and hands back the same String for the same bytes: a direct-mapped cache, so that most events decode
 * and allocate nothing and the String's hash is computed once. Not thread-safe.
 */
final class TextCache {
  private static final int SLOTS = 512;
  /** Values longer than this are decoded every time: they are not the repeated kind. */
  private static final int MAX_CACHED_BYTES = 128;

  private final byte[][] bytes = new byte[SLOTS][];
  private final String[] texts = new String[SLOTS];

  /** The string held in {@code utf8[start, end)}, malformed bytes decoded as U+FFFD like the line decoder does. */
  String decode(byte[] utf8, int start, int end) {
    if (end - start > MAX_CACHED_BYTES) {
      return new String(utf8, start, end - start, StandardCharsets.UTF_8);
    }
    int h = 0;
    for (int i = start; i < end; i++) {
      h = 31 * h + utf8[i];
    }
    int slot = (h ^ (h >>> 9)) & (SLOTS - 1);
    byte[] cached = bytes[slot];
    if (cached != null && Arrays.equals(cached, 0, cached.length, utf8, start, end)) {
      return texts[slot];
    }
    byte[] copy = Arrays.copyOfRange(utf8, start, end);
    String text = new String(copy, StandardCharsets.UTF_8);
    bytes[slot] = copy;
    texts[slot] = text;
    return text;
  }
}
