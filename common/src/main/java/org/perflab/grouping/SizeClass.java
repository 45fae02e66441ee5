package org.perflab.grouping;

/**
 * The input-size class of a run: its input bytes on a log2 scale, rounded to the nearest power of two. Class
 * {@code k} holds inputs from 2^(k−0.5) to 2^(k+0.5) bytes, a factor of √2 either side of 2^k, so runs whose inputs
 * differ by less than about 1.4× mostly share a class and runs 2× apart never do. Both decimal and binary round sizes
 * sit near a class's centre, never on a boundary: 1 GB = 2^29.9 is class 30, 1 GiB = 2^30 is class 30, 10 GB = 2^33.2
 * is class 33. Class 0 holds runs that read nothing (and a 1-byte input). The class depends on the run alone, so it
 * never changes when other runs arrive.
 */
public final class SizeClass {
  private SizeClass() {}

  /**
   * The size class of {@code inputBytes}: 0 for 1 byte or less (none), else {@code round(log2(inputBytes))}.
   *
   * @param inputBytes bytes read from storage; negative values are treated as none
   */
  public static int of(long inputBytes) {
    if (inputBytes <= 1) {
      return 0;
    }
    return (int) Math.round(Math.log(inputBytes) / Math.log(2));
  }

  /** The class's centre in bytes, 2^sizeClass; 0 for class 0 (no input). */
  public static long centreBytes(int sizeClass) {
    if (sizeClass <= 0) {
      return 0;
    }
    return sizeClass >= 63 ? Long.MAX_VALUE : 1L << sizeClass;
  }
}
