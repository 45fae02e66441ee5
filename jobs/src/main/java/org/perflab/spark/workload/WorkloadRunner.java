package org.perflab.spark.workload;

import org.apache.spark.sql.SparkSession;

/**
 * One HiBench-style workload: a data generator (prepare) and the measured computation (run). Both read and write only
 * under {@link WorkloadSpec#datasetDir()}; prepare runs in its own application before the measured one.
 */
public interface WorkloadRunner {

  /** Generates the input data set under {@link WorkloadSpec#inputDir()}, replacing what is there. */
  void prepare(SparkSession spark, WorkloadSpec spec);

  /** Runs the measured computation on the prepared input, writing to {@link WorkloadSpec#outputDir()}. */
  WorkloadResult run(SparkSession spark, WorkloadSpec spec);

  /** Whether the workload reads prepared data; Sleep does not. */
  default boolean needsInput() {
    return true;
  }

  /** A workload that generates its records inside its tasks: nothing to prepare, no input (Sleep, Stragglers). */
  interface WithoutInput extends WorkloadRunner {
    @Override
    default void prepare(SparkSession spark, WorkloadSpec spec) {
      // Reads no data.
    }

    @Override
    default boolean needsInput() {
      return false;
    }
  }
}
