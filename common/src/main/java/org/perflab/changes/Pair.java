package org.perflab.changes;

/**
 * The earlier run of two in a row that {@link ChangeDetector}'s pair test found off the level on the same side, each
 * at least the pair threshold, neither beyond the step threshold: the run that the judged one confirms.
 *
 * @param run the index (into the judged series) of the earlier run
 * @param ratio its value ÷ the baseline median
 * @param z its robust z against the same baseline
 */
public record Pair(int run, double ratio, double z) {}
