package org.perflab.spark.corpus;

/**
 * What a corpus run did.
 *
 * @param points grid points in the grid
 * @param skipped points skipped because the manifest already had them OK ({@code --resume})
 * @param succeeded runs that ended OK
 * @param failed runs that failed, timed out, or could not start
 */
public record CorpusSummary(int points, int skipped, int succeeded, int failed) {}
