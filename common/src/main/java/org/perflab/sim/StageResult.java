package org.perflab.sim;

/**
 * Per-stage measures over every simulated application, in model time units: start and end offsets from the
 * application's start, the stage duration (first task start to last task end), and the task time (per task).
 */
public record StageResult(Measure startOffset, Measure endOffset, Measure duration, Measure taskTime) {}
