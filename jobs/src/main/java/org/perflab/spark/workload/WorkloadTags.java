package org.perflab.spark.workload;

/**
 * The SparkConf keys that tag a measured run's event log, the way HiBench tags {@code spark.app.benchmark.*}. They
 * appear in the log's {@code SparkListenerEnvironmentUpdate} and so in the ingested {@code properties} table.
 */
public final class WorkloadTags {
  /** HiBenchWorkload name, e.g. {@code wordcount} ({@link HiBenchWorkload#id()}). */
  public static final String WORKLOAD = "spark.perflab.workload";
  /** Scale profile, e.g. {@code tiny} ({@link Scale#profileName()}). */
  public static final String SCALE = "spark.perflab.scale";
  /** Repetition number of this grid point, 1-based. */
  public static final String REPETITION = "spark.perflab.repetition";
  /** Bytes of prepared input data the run reads (0 for Sleep), summed over the input files. */
  public static final String INPUT_BYTES = "spark.perflab.input.bytes";
  /** Grid point id from the corpus grid, e.g. {@code wordcount-tiny-local-e1-c2-m1g-r1}. */
  public static final String GRID_POINT = "spark.perflab.grid.point";
  /** WorkloadPhase of the application: {@code prepare} or {@code run}. */
  public static final String PHASE = "spark.perflab.phase";

  private WorkloadTags() {}
}
