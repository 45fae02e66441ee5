package org.perflab.spark.workload;

/**
 * What one workload application does: which workload, at which scale, on which data.
 *
 * @param workload the workload
 * @param scale the HiBench scale profile that sizes the generated data
 * @param dataDir root directory (any Hadoop FileSystem URI) holding {@code <dataset>/<scale>/input} and {@code output}
 * @param partitions number of input files written by prepare and of shuffle partitions in the run
 * @param seed seed of every random generator, so prepared data are reproducible
 * @param iterations iterations of iterative workloads (KMeans, SVM, PageRank); 0 means the workload's default
 * @param sleep task durations of the Sleep workload (ignored by the others)
 * @param injection stragglers injected by the Stragglers workload (ignored by the others)
 */
public record WorkloadSpec(HiBenchWorkload workload, Scale scale, String dataDir, int partitions, long seed, int iterations,
    SleepSpec sleep, InjectionSpec injection) {

  /** A spec without injected stragglers. */
  public WorkloadSpec(
      HiBenchWorkload workload, Scale scale, String dataDir, int partitions, long seed, int iterations, SleepSpec sleep) {
    this(workload, scale, dataDir, partitions, seed, iterations, sleep, InjectionSpec.NONE);
  }

  public WorkloadSpec {
    if (partitions < 1) {
      throw new IllegalArgumentException("Cannot plan workload: partitions must be at least 1 (" + partitions + ")");
    }
    if (iterations < 0) {
      throw new IllegalArgumentException("Cannot plan workload: iterations must be 0 or more (" + iterations + ")");
    }
  }

  /** Directory of this workload's data set at this scale. SQL workloads share one data set. */
  public String datasetDir() {
    return trimSlash(dataDir) + "/" + workload.dataset() + "/" + scale.profileName();
  }

  public String inputDir() {
    return datasetDir() + "/input";
  }

  /** The run's output directory; each workload writes its own, so SQL workloads do not clash. */
  public String outputDir() {
    return datasetDir() + "/output-" + workload.id();
  }

  /** The marker that prepare writes last; its presence means the input is complete. */
  public String preparedMarker() {
    return datasetDir() + "/_perflab_prepared.properties";
  }

  /** Iterations to run: the explicit value, else {@code defaultIterations}. */
  public int iterationsOr(int defaultIterations) {
    return iterations > 0 ? iterations : defaultIterations;
  }

  private static String trimSlash(String path) {
    return path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
  }
}
