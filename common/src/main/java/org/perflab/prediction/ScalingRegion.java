package org.perflab.prediction;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Where a target lies relative to the task slots its series measured ({@link Configuration#sameSeries}): below them,
 * among them (interpolation), above them (extrapolation), or in a series with no other measured configuration.
 * Predictors differ most between these regions (a lookup interpolates well and extrapolates badly), so {@link
 * Selection} compares them on the training configurations that were in the target's region when each was predicted
 * from the others.
 */
public enum ScalingRegion {
  BELOW, INSIDE, ABOVE, ALONE;

  /** The region of {@code target} given {@code training}. */
  public static ScalingRegion of(Target target, List<Measured> training) {
    int lo = Integer.MAX_VALUE;
    int hi = Integer.MIN_VALUE;
    for (Measured m : training) {
      if (m.configuration().sameSeries(target.configuration())) {
        lo = Math.min(lo, m.totalCores());
        hi = Math.max(hi, m.totalCores());
      }
    }
    if (lo > hi) {
      return ALONE;
    }
    return target.totalCores() < lo ? BELOW : target.totalCores() > hi ? ABOVE : INSIDE;
  }

  /**
   * The training configurations in {@code target}'s region, each placed by the other training configurations (as
   * the inner leave-one-configuration-out predicts it).
   */
  public static Set<Configuration> sameAs(Target target, List<Measured> training) {
    ScalingRegion region = of(target, training);
    Set<Configuration> out = new HashSet<>();
    for (int i = 0; i < training.size(); i++) {
      List<Measured> rest = new ArrayList<>(training);
      Measured left = rest.remove(i);
      if (of(left.target(), rest) == region) {
        out.add(left.configuration());
      }
    }
    return out;
  }
}
