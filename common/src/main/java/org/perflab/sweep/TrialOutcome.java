package org.perflab.sweep;

import java.io.Serializable;

/**
 * What one trial measured: the number of completed applications and simulated tasks, the sum and sum of squares of
 * execution times (seconds), and every execution time in completion order.
 */
public record TrialOutcome(int pointIndex, int replication, long seed, long applications, long tasks, double sum,
    double sumOfSquares, double[] executionTimes) implements Serializable {}
