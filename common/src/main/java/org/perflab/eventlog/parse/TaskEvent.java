package org.perflab.eventlog.parse;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A task start or end event, read field by field without building a JSON tree: task events are most of a log's
 * bytes, and this is where parsing time goes.
 */
final class TaskEvent {
  boolean end;
  int stageId;
  int stageAttemptId;
  String taskType;
  /** {@code "Task End Reason"}, a small object; null on task start or when absent. */
  JsonNode endReason;
  long taskId;
  int index;
  Integer attempt;
  Integer partitionId;
  Long launchTime;
  String executorId;
  String host;
  String locality;
  boolean speculative;
  Long gettingResultTime;
  Long finishTime;
  /** Peak execution memory from the task's accumulables (the only source before Spark 3.0), or null. */
  Long peakMemoryAccumulable;
  /** One value per {@code TaskMetric}, or null when the event has no {@code "Task Metrics"}. */
  Long[] metrics;
  /** {@code "Task Executor Metrics"}: names and values, {@code executorMetricCount} of them. */
  String[] executorMetricNames = new String[32];
  long[] executorMetricValues = new long[32];
  int executorMetricCount;
  boolean hasExecutorMetrics;

  /** The duration from launch to finish in ms, or null while running. */
  Long duration() {
    return Durations.between(launchTime, finishTime);
  }
}
