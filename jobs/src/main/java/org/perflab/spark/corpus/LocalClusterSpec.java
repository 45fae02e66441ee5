package org.perflab.spark.corpus;

/**
 * The standalone cluster that {@code local-cluster} sweeps run on.
 *
 * @param workers worker JVMs
 * @param workerCores cores each worker offers
 * @param workerMemory memory each worker offers to executors, Spark size format (e.g. {@code 2g})
 */
public record LocalClusterSpec(int workers, int workerCores, String workerMemory) {
  public static final LocalClusterSpec DEFAULT = new LocalClusterSpec(2, 2, "2g");

  /** Cores the cluster offers in all. */
  public int totalCores() {
    return workers * workerCores;
  }
}
