package org.perflab.memory;

import java.util.Objects;

/**
 * One access of a task to a cached block, in the order the task made it (reference 004 §2.3): the block's Spark name
 * ({@code rdd_<rdd>_<partition>}, {@code broadcast_<id>}, {@code shuffle_<shuffle>_<map>_<reduce>}) and its size.
 *
 * @param op what the task did
 * @param block the block's Spark name
 * @param bytes the block's size in bytes (Spark's estimate, as its BlockManager accounts it); at least 0
 */
public record Access(Op op, String block, long bytes) {
  /** What a task did to a block. */
  public enum Op {
    /** A read that found the block cached (a hit). */
    READ,
    /** A read that did not find the block: what follows until the block's next write is its recomputation. */
    MISS,
    /** A write that stored the block. */
    WRITE,
    /** A write that unrolling declined to store (the block's would-be size is still known). */
    UNROLL_FAILED;

    /** Whether this op reads the block. */
    public boolean isRead() {
      return this == READ || this == MISS;
    }
  }

  public Access {
    Objects.requireNonNull(op, "op");
    Objects.requireNonNull(block, "block");
    if (bytes < 0) {
      throw new IllegalArgumentException("Cannot record an access: negative size (" + bytes + " bytes of " + block
          + ")");
    }
  }

  public static Access read(String block, long bytes) {
    return new Access(Op.READ, block, bytes);
  }

  public static Access miss(String block, long bytes) {
    return new Access(Op.MISS, block, bytes);
  }

  public static Access write(String block, long bytes) {
    return new Access(Op.WRITE, block, bytes);
  }

  /** The cache this access belongs to, from the block's name. */
  public Domain domain() {
    return Domain.of(block);
  }
}
