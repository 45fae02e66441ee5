package org.perflab.eventlog.parse;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A fixed set of JSON keys looked up by their UTF-8 bytes in place, without building a string: an open-addressed
 * table on the length and three of the key's bytes, each hit confirmed by comparing every byte.
 */
final class JsonKeys {
  private final byte[][] keys;
  /**
   * Per key of eight bytes or more, its little-endian words at offsets 0, 8, 16, ... below its length minus eight, then
   * the word of its last eight bytes: together they cover every byte ({@link #at}).
   */
  private final long[][] words;
  /** Per slot, the key's index plus one; 0 for an empty slot. */
  private final int[] slots;
  private final int mask;

  JsonKeys(String... keys) {
    this.keys = new byte[keys.length][];
    this.slots = new int[Integer.highestOneBit(Math.max(4, keys.length) * 4)];
    this.mask = slots.length - 1;
    this.words = new long[keys.length][];
    for (int i = 0; i < keys.length; i++) {
      this.keys[i] = keys[i].getBytes(StandardCharsets.UTF_8);
      this.words[i] = words(this.keys[i]);
      int slot = hash(this.keys[i], 0, this.keys[i].length) & mask;
      while (slots[slot] != 0) {
        slot = (slot + 1) & mask;
      }
      slots[slot] = i + 1;
    }
  }

  /** The index in the constructor's arguments of the key held in {@code bytes[start, end)}, or -1 for any other. */
  int find(byte[] bytes, int start, int end) {
    if (end <= start) {
      return indexOfEmpty();
    }
    for (int slot = hash(bytes, start, end) & mask; slots[slot] != 0; slot = (slot + 1) & mask) {
      byte[] key = keys[slots[slot] - 1];
      if (Arrays.equals(key, 0, key.length, bytes, start, end)) {
        return slots[slot] - 1;
      }
    }
    return -1;
  }

  /** How many keys the table holds. */
  int size() {
    return keys.length;
  }

  /** The length in bytes of key {@code index}. */
  int length(int index) {
    return keys[index].length;
  }

  /**
   * Whether {@code bytes[start, limit)} begin with key {@code index} followed by a closing quote: the key read in place
   * without searching for its end first, a word at a time.
   */
  boolean at(int index, byte[] bytes, int start, int limit) {
    byte[] key = keys[index];
    int length = key.length;
    if (length >= limit - start || bytes[start + length] != '"') {
      return false;
    }
    long[] w = words[index];
    if (w == null) {
      for (int i = 0; i < length; i++) {
        if (bytes[start + i] != key[i]) {
          return false;
        }
      }
      return true;
    }
    int last = w.length - 1;
    for (int i = 0; i < last; i++) {
      if (Swar.word(bytes, start + i * Long.BYTES) != w[i]) {
        return false;
      }
    }
    return Swar.word(bytes, start + length - Long.BYTES) == w[last];
  }

  private static long[] words(byte[] key) {
    if (key.length < Long.BYTES) {
      return null;
    }
    int full = (key.length - 1) / Long.BYTES; // the words that start below length - 8
    long[] words = new long[full + 1];
    for (int i = 0; i < full; i++) {
      words[i] = Swar.word(key, i * Long.BYTES);
    }
    words[full] = Swar.word(key, key.length - Long.BYTES);
    return words;
  }

  private int indexOfEmpty() {
    for (int i = 0; i < keys.length; i++) {
      if (keys[i].length == 0) {
        return i;
      }
    }
    return -1;
  }

  private static int hash(byte[] bytes, int start, int end) {
    int length = end - start;
    if (length == 0) {
      return 0;
    }
    int h = length * 0x9E3779B1 + bytes[start] * 31 + bytes[start + length / 2] * 961 + bytes[end - 1] * 29791;
    return h ^ (h >>> 15);
  }
}
