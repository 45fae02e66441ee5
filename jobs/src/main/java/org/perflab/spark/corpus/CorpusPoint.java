package org.perflab.spark.corpus;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.perflab.spark.workload.Scale;
import org.perflab.spark.workload.HiBenchWorkload;

/**
 * One grid point: one measured application.
 *
 * @param sweepName label of its sweep, or empty
 * @param workload the workload
 * @param scale its scale profile
 * @param masterKind where it runs
 * @param masterUrl the master URL for {@link MasterKind#URL}
 * @param executors executors (1 on local masters)
 * @param coresPerExecutor cores per executor
 * @param executorMemory executor memory (driver memory on local masters), Spark size format
 * @param repetition repetition number, 1-based
 * @param timeoutSeconds limit of its spark-submit, seconds
 * @param conf Spark properties of the run
 * @param workloadArgs extra workload options
 */
public record CorpusPoint(
    String sweepName,
    HiBenchWorkload workload,
    Scale scale,
    MasterKind masterKind,
    String masterUrl,
    int executors,
    int coresPerExecutor,
    String executorMemory,
    int repetition,
    int timeoutSeconds,
    Map<String, String> conf,
    List<String> workloadArgs) {

  /** Task slots: executors × cores per executor. */
  public int slots() {
    return executors * coresPerExecutor;
  }

  /**
   * A readable unique id, e.g. {@code wordcount-tiny-local-1x2-1g-r1}: [sweep-]workload-scale-master-EXECUTORSxCORES-
   * memory-rREPETITION.
   */
  public String id() {
    return (sweepName.isEmpty() ? "" : sweepName + "-") + workload.id() + "-" + scale.profileName() + "-"
        + masterLabel() + "-" + executors + "x" + coresPerExecutor + "-" + executorMemory.toLowerCase(Locale.ROOT)
        + "-r" + repetition;
  }

  /** The configuration without the repetition: the key that repetitions share. */
  public String configurationId() {
    String id = id();
    return id.substring(0, id.lastIndexOf("-r"));
  }

  private String masterLabel() {
    return switch (masterKind) {
      case LOCAL -> "local";
      case LOCAL_CLUSTER -> "cluster";
      case URL -> masterUrl.startsWith("yarn") ? "yarn" : masterUrl.startsWith("k8s") ? "k8s" : "standalone";
    };
  }
}
