package org.perflab.spark.workload;

/** Which part of a workload an application runs. */
public enum WorkloadPhase {
  /** Generate the input data set only (HiBench's {@code prepare.sh}). */
  PREPARE,
  /** The measured run only; the data set must be prepared. */
  RUN,
  /** Prepare in a first application (with event logging off) unless already prepared, then the measured run. */
  ALL
}
