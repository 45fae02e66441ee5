package org.perflab.memory.gc;

import java.util.ArrayList;
import java.util.List;
import org.perflab.errors.BadInputException;

/**
 * The weighted distribution of live bytes over a run (reference 004 §2.8.6): the occupancy after each full collection,
 * weighted by the share of the run's allocation over which it applies. A full collection's live size applies from
 * halfway since the previous full collection to halfway to the next (the first from the start, the last to the end);
 * allocation is the x axis because it does not depend on the GC configuration.
 *
 * <p>Without a full collection the reference uses the average occupancy, which overestimates: here the mean
 * old-generation occupancy after the young collections, with weight 1.
 *
 * @param liveBytes the live sizes, bytes
 * @param weights their weights, summing to 1
 * @param fullCollections how many full collections the sizes come from (0: the average-occupancy fallback)
 */
public record LiveDistribution(double[] liveBytes, double[] weights, int fullCollections) {
  /** Below this many full collections the maximum live size is less reliable (reference §2.8.6: "around five"). */
  public static final int RELIABLE_FULL_COLLECTIONS = 5;

  /** The distribution of {@code run}'s live bytes. */
  public static LiveDistribution of(GcRun run) {
    List<Double> at = new ArrayList<>();
    List<Double> live = new ArrayList<>();
    double allocated = 0;
    double occupancy = 0;
    int young = 0;
    for (GcObservation c : run.collections()) {
      allocated += c.allocatedBytes();
      if (c.kind() == GcObservation.Kind.FULL) {
        at.add(allocated);
        live.add((double) c.oldAfterBytes());
      } else {
        occupancy += c.oldAfterBytes();
        young++;
      }
    }
    if (live.isEmpty()) {
      BadInputException.require(young > 0, "Cannot build a live-size distribution: the run has no collection");
      return new LiveDistribution(new double[] {occupancy / young}, new double[] {1}, 0);
    }
    return new LiveDistribution(live.stream().mapToDouble(Double::doubleValue).toArray(),
        weights(at, allocated), live.size());
  }

  private static double[] weights(List<Double> at, double total) {
    int n = at.size();
    double[] weights = new double[n];
    if (total <= 0) {
      java.util.Arrays.fill(weights, 1.0 / n);
      return weights;
    }
    for (int i = 0; i < n; i++) {
      double from = i == 0 ? 0 : (at.get(i - 1) + at.get(i)) / 2;
      double to = i == n - 1 ? total : (at.get(i) + at.get(i + 1)) / 2;
      weights[i] = (to - from) / total;
    }
    return weights;
  }

  /** The largest live size with positive weight, bytes: tenured must exceed it. */
  public double maxLiveBytes() {
    double max = 0;
    for (int i = 0; i < liveBytes.length; i++) {
      if (weights[i] > 0 || liveBytes.length == 1) {
        max = Math.max(max, liveBytes[i]);
      }
    }
    return max;
  }

  /**
   * The expected full collections per eden collection, f(E, T) = E_L[min(1, p / (T − L))], for {@code promotedBytes}
   * p per eden collection and a tenured size of {@code tenuredBytes}; +∞ when T ≤ the largest live size (predicted
   * out-of-memory).
   */
  public double fullPerYoung(double promotedBytes, double tenuredBytes) {
    double f = 0;
    for (int i = 0; i < liveBytes.length; i++) {
      double free = tenuredBytes - liveBytes[i];
      if (free <= 0) {
        return Double.POSITIVE_INFINITY;
      }
      f += weights[i] * Math.min(1, promotedBytes / free);
    }
    return f;
  }
}
