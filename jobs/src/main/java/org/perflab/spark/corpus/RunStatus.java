package org.perflab.spark.corpus;

/** How a grid point ended, as the manifest records it. */
public enum RunStatus {
  /** spark-submit exited 0. */
  OK,
  /** spark-submit exited non-zero. */
  FAILED,
  /** The run passed the grid's timeout and its process tree was killed. */
  TIMEOUT,
  /** The data set's prepare application failed, so the run was not started. */
  PREPARE_FAILED,
  /** The local standalone cluster could not be started, so the run was not started. */
  CLUSTER_FAILED
}
