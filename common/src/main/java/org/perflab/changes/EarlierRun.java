package org.perflab.changes;

/**
 * One of the earlier runs in a row that {@link ChangeDetector}'s pair or triple test found off the level on the same
 * side, none beyond the step threshold: a run that the judged one confirms.
 *
 * @param run the index (into the judged series) of the earlier run
 * @param ratio its value ÷ the baseline median
 * @param z its robust z against the same baseline
 */
public record EarlierRun(int run, double ratio, double z) {}
