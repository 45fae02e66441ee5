package org.perflab.memory;

import java.util.Arrays;

/**
 * The result of an LRU stack-distance analysis of one cache's trace (reference 004 §2.4): for every non-compulsory
 * read, the smallest LRU cache that would have kept the block (its inclusive stack depth: the bytes of the distinct
 * blocks used since its last use plus its own size), and the bytes it read.
 *
 * @param required inclusive depth of each non-compulsory read, bytes, in trace order
 * @param readBytes size of the block each of those reads read, bytes, in the same order
 * @param compulsoryReads reads of blocks never written or read before (ignored by the analysis)
 */
public record StackProfile(long[] required, long[] readBytes, int compulsoryReads) {
  public StackProfile {
    if (required.length != readBytes.length) {
      throw new IllegalArgumentException("Cannot build a stack profile: " + required.length + " depths but "
          + readBytes.length + " read sizes");
    }
    required = required.clone();
    readBytes = readBytes.clone();
  }

  /** The smallest LRU cache size in bytes with no non-compulsory miss: the largest inclusive depth (0 with none). */
  public long noMissBytes() {
    return Arrays.stream(required).max().orElse(0);
  }

  /**
   * The bytes the non-compulsory reads would miss in an LRU cache of {@code capacityBytes}: the sizes of the reads
   * whose depth exceeds it. Reference 004 calls this "a very crude predictor" of recomputation: a display figure.
   */
  public long missBytes(long capacityBytes) {
    long missed = 0;
    for (int i = 0; i < required.length; i++) {
      if (required[i] > capacityBytes) {
        missed += readBytes[i];
      }
    }
    return missed;
  }

  /** The number of non-compulsory reads. */
  public int reads() {
    return required.length;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof StackProfile p && Arrays.equals(required, p.required) && Arrays.equals(readBytes, p.readBytes)
        && compulsoryReads == p.compulsoryReads;
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(required) + Arrays.hashCode(readBytes) + compulsoryReads;
  }

  @Override
  public String toString() {
    return "StackProfile[reads=" + required.length + ", noMissBytes=" + noMissBytes() + ", compulsoryReads="
        + compulsoryReads + "]";
  }
}
