package org.perflab.eventlog.parse;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Arrays;

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
  /** {@code "Failed"} and {@code "Killed"} of the task info. */
  boolean failed;
  boolean killed;
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
  /**
   * Accumulator updates of a task end in a SQL stage ({@code accumulableCount} of them, id and value), read only when
   * the parser asks for them; updates that are not integers are left out.
   */
  long[] accumulableIds = new long[0];
  long[] accumulableUpdates = new long[0];
  int accumulableCount;

  void addAccumulable(long id, long update) {
    if (accumulableCount == accumulableIds.length) {
      int size = Math.max(16, accumulableCount * 2);
      accumulableIds = Arrays.copyOf(accumulableIds, size);
      accumulableUpdates = Arrays.copyOf(accumulableUpdates, size);
    }
    accumulableIds[accumulableCount] = id;
    accumulableUpdates[accumulableCount++] = update;
  }

  /** Whether the task succeeded, as Spark's {@code TaskInfo.successful}: finished, neither failed nor killed. */
  boolean successful() {
    return finishTime != null && finishTime != 0 && !failed && !killed;
  }

  /**
   * An accumulator update's value as Spark's SQL listener reads it from a log ({@code String.toLong}), or null when it
   * is not a long.
   */
  static Long parseUpdate(String text) {
    if (text == null || text.isEmpty() || text.length() > 20) {
      return null;
    }
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** The duration from launch to finish in ms, or null while running. */
  Long duration() {
    return Durations.between(launchTime, finishTime);
  }
}
