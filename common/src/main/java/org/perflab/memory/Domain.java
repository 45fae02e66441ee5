package org.perflab.memory;

/**
 * The three caches reference 004 §2.4 models, each analysed on its own: Spark's BlockManager for RDD partitions and
 * for broadcasts, and the OS page cache for shuffle files.
 */
public enum Domain {
  /** Cached RDD partitions ({@code rdd_*}): distributed over the workers. */
  RDD("rdd_"),
  /** Broadcast variables ({@code broadcast_*}): duplicated on every worker. */
  BROADCAST("broadcast_"),
  /** Shuffle map outputs ({@code shuffle_*}): files in the OS page cache. */
  SHUFFLE("shuffle_");

  private final String prefix;

  Domain(String prefix) {
    this.prefix = prefix;
  }

  /** The prefix of the Spark block names of this domain. */
  public String prefix() {
    return prefix;
  }

  /** The domain of a Spark block name. */
  public static Domain of(String block) {
    for (Domain d : values()) {
      if (block.startsWith(d.prefix)) {
        return d;
      }
    }
    throw new IllegalArgumentException("Cannot classify block " + block + ": not rdd_, broadcast_ or shuffle_");
  }
}
