package org.perflab.sweep;

/**
 * Trial seeds derived from (base seed, grid point, replication) alone, so that a trial's result does not depend on
 * how trials are partitioned or ordered. Each value is mixed in with the SplitMix64 finaliser. A trial can be re-run
 * alone with {@code simulate --nodes <slots> --seed <trialSeed>}.
 */
public final class Seeds {
  private Seeds() {}

  /**
   * The seed of one trial. Memory enters through its IEEE-754 bits (0 when memory is not in the grid); the input size
   * only when the grid has one, so that grids without input sizes keep their seeds. The codec and serializer do not
   * enter: points that differ only in them draw the same random numbers, so their difference is the setting's, not
   * the draw's (common random numbers).
   */
  public static long trialSeed(long baseSeed, GridPoint point, int replication) {
    long h = mix(baseSeed);
    h = mix(h ^ point.executors());
    h = mix(h ^ point.coresPerExecutor());
    h = mix(h ^ Double.doubleToLongBits(point.executorMemoryGb()));
    if (point.inputBytes() != 0) {
      h = mix(h ^ point.inputBytes());
    }
    return mix(h ^ replication);
  }

  /** SplitMix64's finaliser (Steele, Lea and Flood 2014) applied after adding the golden gamma. */
  static long mix(long x) {
    long z = x + 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
