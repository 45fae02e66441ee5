package org.perflab.sim;

import java.util.SplittableRandom;

/**
 * Draws task durations (or think times) for one simulation run. A sampler may keep state (a replay cursor), so each
 * {@link Engine} run asks its {@link Distribution}s for fresh samplers.
 */
@FunctionalInterface
public interface Sampler {
  /** The next sample, in model time units; may be negative only for the plain normal family. */
  double next(SplittableRandom rng);
}
