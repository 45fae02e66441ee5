package org.perflab.prediction;

import java.io.Serializable;
import java.util.Objects;
import org.perflab.grouping.SizeClass;

/**
 * One measured run of a workload: its input size, its configuration and its duration.
 *
 * @param runKey the run's identity ({@code log_id/app_id/attempt}, or a row of a runtime table)
 * @param workloadId the workload, by the workload rule
 * @param inputBytes bytes read from storage
 * @param executors executors (alive at once where {@code spark.executor.instances} is unset)
 * @param coresPerExecutor cores per executor
 * @param executorMemoryBytes {@code spark.executor.memory} in bytes; null when unknown
 * @param durationS application start to end, seconds
 */
public record Run(String runKey, String workloadId, long inputBytes, int executors, int coresPerExecutor,
    Long executorMemoryBytes, double durationS) implements Serializable {

  public Run {
    Objects.requireNonNull(runKey, "runKey");
    Objects.requireNonNull(workloadId, "workloadId");
  }

  /** Task slots of the run's executors: executors × cores per executor. */
  public int totalCores() {
    return executors * coresPerExecutor;
  }

  /** The run's configuration: its input-size class and its executors, cores and memory. */
  public Configuration configuration() {
    return new Configuration(SizeClass.of(inputBytes), executors, coresPerExecutor, executorMemoryBytes);
  }
}
