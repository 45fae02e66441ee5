package org.perflab.jobs;

import org.perflab.spark.workload.WorkloadPhase;
import org.perflab.spark.workload.WorkloadSpec;

/**
 * Options of the {@code workload} job, resolved: every value comes from its flag, else from the matching
 * {@code spark.perflab.*} conf key (set by spark-submit {@code --conf}), else the default.
 *
 * @param spec what to run
 * @param phase prepare, run, or both
 * @param forcePrepare regenerate the data set even when its marker says it is prepared
 * @param repetition repetition number of the grid point, 1-based ({@code spark.perflab.repetition})
 * @param gridPoint grid point id ({@code spark.perflab.grid.point})
 */
public record WorkloadOptions(
    WorkloadSpec spec, WorkloadPhase phase, boolean forcePrepare, int repetition, String gridPoint) {}
