package org.perflab.changes;

import java.util.List;
import java.util.Map;

/**
 * What {@link Attribution} knows of one run. Times in seconds, sizes in bytes.
 *
 * @param appId the application
 * @param wallS application start to end
 * @param taskTimeS Σ task attempt durations
 * @param cores task slots granted (executors × cores each)
 * @param executorsRequested {@code spark.executor.instances} (or the dynamic-allocation maximum); 0 when unset
 * @param executorsGranted the most executors alive at once
 * @param executorWaitS application start to the first executor (0 in local mode)
 * @param executorsLost executors removed for a reason other than the application's end or idleness
 * @param inputBytes Σ input bytes
 * @param inputRecords Σ input records
 * @param shuffleReadBytes Σ shuffle bytes read
 * @param outputBytes Σ output bytes
 * @param failedTasks failed task attempts
 * @param speculativeTasks speculative task attempts
 * @param failedTaskTimeS Σ duration of failed and killed attempts
 * @param planFingerprint a hash of the normalised SQL physical plans, empty without SQL
 * @param joins join operators by name (e.g. {@code SortMergeJoin -> 2})
 * @param properties effective Spark properties, redacted; the Spark version under {@value #SPARK_VERSION}
 * @param stages every stage attempt
 * @param split the wall time split by the stage spans: inside stages, and before, between and after them
 */
public record RunProfile(String appId, double wallS, double taskTimeS, int cores, int executorsRequested,
    int executorsGranted, double executorWaitS, int executorsLost, long inputBytes, long inputRecords,
    long shuffleReadBytes, long outputBytes, long failedTasks, long speculativeTasks, double failedTaskTimeS,
    String planFingerprint, Map<String, Long> joins, Map<String, String> properties, List<StageStats> stages,
    WallTimeSplit split) {
  /** The pseudo-property that carries the Spark version. */
  public static final String SPARK_VERSION = org.perflab.eventlog.SparkVersion.PROPERTY;

  public RunProfile {
    joins = Map.copyOf(joins);
    properties = Map.copyOf(properties);
    stages = List.copyOf(stages);
  }

  /** The first attempt of every stage, as {@link StageRef}s. */
  public List<StageRef> stageRefs() {
    return firstAttempts().stream().map(StageStats::ref).toList();
  }

  /** The first attempt of every stage. */
  public List<StageStats> firstAttempts() {
    return stages.stream().filter(s -> s.attempt() == 0).toList();
  }
}
