package org.perflab.eventlog.parse;

import com.fasterxml.jackson.databind.JsonNode;
import org.perflab.table.TaskMetric;

/**
 * Reads the {@code "Task Metrics"} of a task-end event. A metric whose field is absent is null, because the Spark
 * version that wrote the log did not record it. A whole optional section (input, output, shuffle read or write) that is
 * absent counts as zero, as Spark's JsonProtocol reads it, when the section's metrics exist in that version.
 */
final class TaskMetricsReader {
  private static final TaskMetric[] METRICS = TaskMetric.values();
  private static final String PEAK_EXECUTION_MEMORY_ACCUMULATOR = "internal.metrics.peakExecutionMemory";

  private TaskMetricsReader() {}

  /**
   * Returns one value per {@link TaskMetric}, in declaration order, or null when the event has no task metrics.
   *
   * @param metrics the {@code "Task Metrics"} object
   * @param taskInfo the {@code "Task Info"} object, whose accumulables hold peak execution memory before Spark 3.0
   */
  static Long[] read(JsonNode metrics, JsonNode taskInfo) {
    if (metrics == null) {
      return null;
    }
    Long[] values = new Long[METRICS.length];
    for (int i = 0; i < METRICS.length; i++) {
      values[i] = read(metrics, METRICS[i]);
    }
    if (values[TaskMetric.PEAK_EXECUTION_MEMORY.ordinal()] == null) {
      values[TaskMetric.PEAK_EXECUTION_MEMORY.ordinal()] = peakExecutionMemoryAccumulator(taskInfo);
    }
    return values;
  }

  private static Long read(JsonNode metrics, TaskMetric metric) {
    TaskMetric.Section section = metric.section();
    JsonNode holder =
        switch (section) {
          case TASK -> metrics;
          case SHUFFLE_PUSH_READ -> Json.node(Json.node(metrics, "Shuffle Read Metrics"), section.jsonField());
          default -> Json.node(metrics, section.jsonField());
        };
    if (holder == null) {
      return absentSectionValue(section);
    }
    return Json.longValue(holder, metric.jsonField());
  }

  /**
   * An absent input, output or shuffle section means nothing of that kind happened: zero, as Spark reads it. An
   * absent push-based shuffle section means the Spark version (before 3.2) did not record those metrics: null.
   */
  private static Long absentSectionValue(TaskMetric.Section section) {
    return section == TaskMetric.Section.SHUFFLE_PUSH_READ ? null : 0L;
  }

  private static Long peakExecutionMemoryAccumulator(JsonNode taskInfo) {
    JsonNode accumulables = Json.node(taskInfo, "Accumulables");
    if (accumulables == null) {
      return null;
    }
    for (JsonNode accumulable : accumulables) {
      if (PEAK_EXECUTION_MEMORY_ACCUMULATOR.equals(Json.text(accumulable, "Name"))) {
        Long update = Json.longValue(accumulable, "Update");
        return update != null ? update : Json.longValue(accumulable, "Value");
      }
    }
    return null;
  }
}
