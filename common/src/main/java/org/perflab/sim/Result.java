package org.perflab.sim;

import java.util.Map;

/**
 * What one simulation run measured. {@code total} is submission to end, {@code waiting} submission to start and
 * {@code execution} start to end, per completed application; {@code percentiles} are of execution time.
 * {@code executionTimes} holds every completed application's execution time in completion order (for merging runs).
 * All times are in model time units.
 */
public record Result(
    long seed,
    long applications,
    long tasks,
    Measure total,
    Measure waiting,
    Measure execution,
    Map<String, StageResult> stages,
    Map<String, Double> percentiles,
    double[] executionTimes) {

  public Result {
    stages = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(stages));
    percentiles = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(percentiles));
  }
}
