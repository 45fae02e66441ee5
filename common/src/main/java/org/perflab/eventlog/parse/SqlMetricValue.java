package org.perflab.eventlog.parse;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One SQL metric's value over an execution, aggregated as Spark's {@code SQLMetrics.stringValue} does for the History
 * Server: the values are one per task of every stage attempt that reported the metric (0 for its tasks that did not)
 * plus one per driver update. A sum metric shows their sum. Size, timing and nsTiming metrics show the total of the
 * values that are not negative, and their min, median (the value at index n/2 once sorted) and max. Average metrics
 * show min, median and max of the positive values and no total.
 *
 * @param total the total the History Server shows, in the metric's unit; null for average metrics
 * @param min smallest value, null for sum metrics, when no value counts, or when a stage was too large to keep them
 * @param median median value, null as {@code min}
 * @param max largest value, null as {@code min}
 * @param values how many values count: non-negative ones for size and time metrics, positive ones for averages
 */
record SqlMetricValue(Long total, Long min, Long median, Long max, long values) {
  static final String SUM = "sum";
  static final String AVERAGE = "average";

  /** Collects the values of one metric from the stages and the driver. */
  static final class Builder {
    private final String type;
    private final List<long[]> taskValues = new ArrayList<>();
    private final List<Long> driverValues = new ArrayList<>();
    private long totals;
    private long totalSlots;
    private boolean totalsOnly;
    private boolean any;

    Builder(String type) {
      this.type = type;
    }

    void addTaskValues(long[] values) {
      taskValues.add(values);
      any = true;
    }

    /** A stage that kept its total only, over {@code slots} tasks. */
    void addTotal(long total, int slots) {
      totals += total;
      totalSlots += slots;
      totalsOnly |= !SUM.equals(type);
      any = true;
    }

    void addDriverValue(long value) {
      driverValues.add(value);
      any = true;
    }

    /** The value, or null when neither a task nor the driver reported the metric. */
    SqlMetricValue build() {
      if (!any) {
        return null;
      }
      long[] all = concatenated();
      if (SUM.equals(type)) {
        return new SqlMetricValue(totals + Arrays.stream(all).sum(), null, null, null, all.length + totalSlots);
      }
      boolean average = AVERAGE.equals(type);
      long[] valid = Arrays.stream(all).filter(v -> average ? v > 0 : v >= 0).sorted().toArray();
      Long total = average ? null : totals + Arrays.stream(valid).sum();
      if (totalsOnly || valid.length == 0) {
        return new SqlMetricValue(total, null, null, null, valid.length + totalSlots);
      }
      return new SqlMetricValue(total, valid[0], valid[valid.length / 2], valid[valid.length - 1], valid.length);
    }

    private long[] concatenated() {
      int length = driverValues.size();
      for (long[] values : taskValues) {
        length += values.length;
      }
      long[] all = new long[length];
      int at = 0;
      for (long[] values : taskValues) {
        System.arraycopy(values, 0, all, at, values.length);
        at += values.length;
      }
      for (long value : driverValues) {
        all[at++] = value;
      }
      return all;
    }
  }
}
