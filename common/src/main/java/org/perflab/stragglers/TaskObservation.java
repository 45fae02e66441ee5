package org.perflab.stragglers;

import java.util.Map;

/**
 * One successful task attempt as the in-memory {@link AppDiagnosis} takes it.
 *
 * @param stageId stage id
 * @param stageAttemptId stage attempt id
 * @param taskIndex partition index within the stage
 * @param durationMs task duration, ms
 * @param raw the task's raw numeric and time features: counts (bytes, records, CPU ms) for {@link Category#NUMERIC},
 *     ms for {@link Category#TIME}; absent = 0
 * @param resources host utilisation during, before and after the task per {@link Category#RESOURCE} feature; absent
 *     = not measured
 * @param locality Spark's locality level, e.g. NODE_LOCAL
 * @param host the executor's host; null when unknown
 * @param executorId the executor's id; null when unknown
 * @param launchTimeMs when the task was launched, epoch ms; its finish is this plus {@code durationMs}; −1 when unknown
 */
public record TaskObservation(
    int stageId, int stageAttemptId, int taskIndex, long durationMs, Map<Feature, Double> raw,
    Map<Feature, EdgeDetection.Window> resources, String locality, String host, String executorId,
    long launchTimeMs) {
  public TaskObservation {
    raw = Map.copyOf(raw);
    resources = Map.copyOf(resources);
  }

  /** A task whose executor and launch time are not known. */
  public TaskObservation(int stageId, int stageAttemptId, int taskIndex, long durationMs, Map<Feature, Double> raw,
      Map<Feature, EdgeDetection.Window> resources, String locality, String host) {
    this(stageId, stageAttemptId, taskIndex, durationMs, raw, resources, locality, host, null, -1);
  }

  /** A task whose host is not known. */
  public TaskObservation(int stageId, int stageAttemptId, int taskIndex, long durationMs, Map<Feature, Double> raw,
      Map<Feature, EdgeDetection.Window> resources, String locality) {
    this(stageId, stageAttemptId, taskIndex, durationMs, raw, resources, locality, null);
  }

  /** This task on {@code host}. */
  public TaskObservation onHost(String host) {
    return new TaskObservation(stageId, stageAttemptId, taskIndex, durationMs, raw, resources, locality, host,
        executorId, launchTimeMs);
  }

  /** This task on executor {@code executorId}, launched at {@code launchTimeMs} (epoch ms). */
  public TaskObservation onExecutor(String executorId, long launchTimeMs) {
    return new TaskObservation(stageId, stageAttemptId, taskIndex, durationMs, raw, resources, locality, host,
        executorId, launchTimeMs);
  }

  /** Whether its executor and launch time are known. */
  public boolean timed() {
    return executorId != null && launchTimeMs >= 0;
  }

  /** A task with numeric and time features only. */
  public static TaskObservation of(int stageId, int taskIndex, long durationMs, Map<Feature, Double> raw) {
    return new TaskObservation(stageId, 0, taskIndex, durationMs, raw, Map.of(), "PROCESS_LOCAL");
  }
}
