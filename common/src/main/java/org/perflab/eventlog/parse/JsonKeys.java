package org.perflab.eventlog.parse;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A fixed set of JSON keys looked up by their UTF-8 bytes in place, without building a string: an open-addressed
 * table on the length and three of the key's bytes, each hit confirmed by comparing every byte.
 */
final class JsonKeys {
  private final byte[][] keys;
  /** Per slot, the key's index plus one; 0 for an empty slot. */
  private final int[] slots;
  private final int mask;

  JsonKeys(String... keys) {
    this.keys = new byte[keys.length][];
    this.slots = new int[Integer.highestOneBit(Math.max(4, keys.length) * 4)];
    this.mask = slots.length - 1;
    for (int i = 0; i < keys.length; i++) {
      this.keys[i] = keys[i].getBytes(StandardCharsets.UTF_8);
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
