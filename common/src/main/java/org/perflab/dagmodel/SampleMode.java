package org.perflab.dagmodel;

/** How a stage's observed task durations become its task-duration distribution. */
public enum SampleMode {
  /** {@code replay}: the observed durations in launch order, as the paper's replay mode. */
  REPLAY,
  /** {@code empirical}: a uniform draw from the observed durations (merged across runs of a workload). */
  EMPIRICAL
}
