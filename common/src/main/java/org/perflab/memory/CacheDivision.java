package org.perflab.memory;

import java.util.Arrays;

/**
 * Dividing a cache among W workers (reference 004 §2.5): with X cached bytes in total and a largest partition of
 * P_max bytes, each worker needs at most X / W + P_max, because a greedy placement with that cap always places every
 * partition.
 */
public final class CacheDivision {
  private CacheDivision() {}

  /**
   * The per-worker share of a distributed cache, bytes: {@code ceil(totalBytes / workers) + largestPartitionBytes}.
   *
   * @param totalBytes the whole cache's no-miss size, bytes
   * @param workers W, at least 1
   * @param largestPartitionBytes P_max, bytes
   */
  public static long perWorkerBytes(long totalBytes, int workers, long largestPartitionBytes) {
    if (workers < 1) {
      throw new IllegalArgumentException("Cannot divide a cache: workers must be at least 1 (" + workers + ")");
    }
    return -Math.floorDiv(-totalBytes, workers) + largestPartitionBytes;
  }

  /**
   * Places {@code partitionBytes} greedily (in the given order, each on the first worker it fits) on {@code workers}
   * workers of {@code capacityBytes} each.
   *
   * @return the worker of each partition, or -1 for a partition that fits nowhere
   */
  public static int[] greedyPlace(long[] partitionBytes, int workers, long capacityBytes) {
    long[] used = new long[workers];
    int[] placed = new int[partitionBytes.length];
    Arrays.fill(placed, -1);
    for (int p = 0; p < partitionBytes.length; p++) {
      for (int w = 0; w < workers; w++) {
        if (used[w] + partitionBytes[p] <= capacityBytes) {
          used[w] += partitionBytes[p];
          placed[p] = w;
          break;
        }
      }
    }
    return placed;
  }
}
