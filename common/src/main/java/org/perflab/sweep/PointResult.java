package org.perflab.sweep;

/**
 * One row of {@code sweep_results}: the execution time of the application at one grid point, pooled over its
 * replications (seconds), and its cost. The CI is mean ± z·std/√applications; {@code gbHours} is NaN when memory is
 * not in the grid. {@code trialSeeds} are the seeds of the point's trials in replication order. See docs/tables.md.
 */
public record PointResult(
    GridPoint point,
    boolean memoryInGrid,
    int taskCpus,
    int slots,
    String rule,
    int replications,
    long applications,
    long tasks,
    double meanS,
    double stdS,
    double ciLowS,
    double ciHighS,
    double p50S,
    double p90S,
    double p99S,
    double coreHours,
    double gbHours,
    long baseSeed,
    java.util.List<Long> trialSeeds) implements java.io.Serializable {}
