package org.perflab.recommend;

/**
 * The dynamic-allocation bounds around a recommended executor count: at most the recommendation (more executors were
 * predicted no cheaper within the objective, so none should be added), and at least half of it rounded up, so that
 * idle executors are released between the application's jobs while a job's waves keep most of the predicted
 * parallelism. The initial count is the recommendation ({@code spark.executor.instances}).
 *
 * @param minExecutors {@code spark.dynamicAllocation.minExecutors}
 * @param maxExecutors {@code spark.dynamicAllocation.maxExecutors}
 */
public record DynamicAllocation(int minExecutors, int maxExecutors) implements java.io.Serializable {

  /** The bounds for {@code executors} executors. */
  public static DynamicAllocation around(int executors) {
    return new DynamicAllocation(Math.max(1, (executors + 1) / 2), executors);
  }
}
