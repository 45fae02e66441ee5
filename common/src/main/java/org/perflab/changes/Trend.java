package org.perflab.changes;

/**
 * A gradual change found by {@link ChangeDetector}'s trend test: the latest runs of a level rise (or fall) together,
 * though no run alone is beyond the step threshold.
 *
 * @param runs the runs tested: the level's latest, the judged run included
 * @param mannKendallZ the Mann–Kendall z of their log values in start order (positive: rising)
 * @param ratioPerRun e to the Theil–Sen slope of their log values: the change from one run to the next, as a ratio
 * @param totalRatio e to the slope × (runs − 1): the fitted change from the first run tested to the judged one
 */
public record Trend(int runs, double mannKendallZ, double ratioPerRun, double totalRatio) {}
