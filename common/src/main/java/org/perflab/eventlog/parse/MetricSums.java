package org.perflab.eventlog.parse;

import org.perflab.table.TableRow;
import org.perflab.table.TaskMetric;

/** Sums of task metrics over task ends; a metric no task recorded stays null rather than becoming zero. */
final class MetricSums {
  private static final TaskMetric[] METRICS = TaskMetric.values();
  private final long[] sums = new long[METRICS.length];
  private final boolean[] recorded = new boolean[METRICS.length];

  void add(Long[] values) {
    for (int i = 0; i < sums.length; i++) {
      if (values[i] != null) {
        sums[i] += values[i];
        recorded[i] = true;
      }
    }
  }

  long get(TaskMetric metric) {
    return sums[metric.ordinal()];
  }

  /** Writes every metric column of {@code row}. */
  void writeTo(TableRow row) {
    for (int i = 0; i < sums.length; i++) {
      row.set(METRICS[i].column(), recorded[i] ? sums[i] : null);
    }
  }
}
