package org.perflab.eventlog.parse;

import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;

/**
 * The SQL metric values of one stage attempt, kept as Spark's {@code SQLAppStatusListener} keeps them: one value per
 * partition index and metric, the last reported one, frozen once the index has succeeded; a new stage attempt starts
 * afresh. Sum metrics keep only their running total; other metrics keep one long per task, the History Server's own
 * cost, so that min, median and max can be shown, unless the stage has more than {@link #MAX_TASKS_WITH_QUANTILES}
 * tasks, when they keep the total only.
 */
final class SqlStageMetrics {
  /** Above this many tasks in a stage, size and time metrics keep totals only (8 bytes per task and metric). */
  static final int MAX_TASKS_WITH_QUANTILES = 100_000;

  final int attemptId;
  final int numTasks;
  /** The execution's metric types by accumulator id, shared and growing as adaptive plans add metrics. */
  private final Map<Long, String> types;
  private final BitSet completed = new BitSet();
  private final Map<Long, Object> values = new HashMap<>();

  SqlStageMetrics(int attemptId, int numTasks, Map<Long, String> types) {
    this.attemptId = attemptId;
    this.numTasks = numTasks;
    this.types = types;
  }

  Map<Long, String> types() {
    return types;
  }

  /** A task end: its SQL accumulator updates, then, when it succeeded, its index is final. */
  void taskEnd(int index, boolean successful, long[] ids, long[] updates, int count) {
    if (index < 0 || index >= numTasks || completed.get(index)) {
      return;
    }
    for (int i = 0; i < count; i++) {
      String type = types.get(ids[i]);
      if (type != null) {
        Object store = values.computeIfAbsent(ids[i], id -> newStore(type));
        if (store instanceof long[] perTask) {
          perTask[index] = updates[i];
        } else {
          ((Total) store).set(index, updates[i]);
        }
      }
    }
    if (successful) {
      completed.set(index);
      for (Object store : values.values()) {
        if (store instanceof Total total) {
          total.complete(index);
        }
      }
    }
  }

  private Object newStore(String type) {
    boolean sum = SqlMetricValue.SUM.equals(type);
    return sum || numTasks > MAX_TASKS_WITH_QUANTILES ? new Total(!sum) : new long[numTasks];
  }

  /** Adds this stage's values of one metric, if it has any. */
  void addTo(long accumulatorId, SqlMetricValue.Builder builder) {
    Object store = values.get(accumulatorId);
    if (store instanceof long[] perTask) {
      builder.addTaskValues(perTask);
    } else if (store instanceof Total total) {
      builder.addTotal(total.total(), numTasks);
    }
  }

  /** A running total: values of succeeded indices summed, the latest value of the others held until they end. */
  private static final class Total {
    private final boolean nonNegativeOnly;
    private final Map<Integer, Long> pending = new HashMap<>();
    private long completed;

    Total(boolean nonNegativeOnly) {
      this.nonNegativeOnly = nonNegativeOnly;
    }

    void set(int index, long value) {
      pending.put(index, nonNegativeOnly ? Math.max(0, value) : value);
    }

    void complete(int index) {
      Long value = pending.remove(index);
      if (value != null) {
        completed += value;
      }
    }

    long total() {
      long total = completed;
      for (long value : pending.values()) {
        total += value;
      }
      return total;
    }
  }
}
