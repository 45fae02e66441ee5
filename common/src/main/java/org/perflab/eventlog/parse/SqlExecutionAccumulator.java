package org.perflab.eventlog.parse;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.perflab.table.Table;
import org.perflab.table.TableRow;

/** One SQL execution: its text, final plan and timing, already redacted, and its operators' metric values. */
final class SqlExecutionAccumulator {
  final long executionId;
  Long rootExecutionId;
  String description;
  String details;
  String physicalPlan;
  long adaptivePlanUpdates;
  Long startTime;
  Long endTime;
  String errorMessage;
  final List<Integer> jobIds = new ArrayList<>();
  /** The operator graph of the last plan (start or adaptive update); null when the log has none. */
  PlanGraph graph;
  /** Type of every metric any of its plans named, by accumulator id; shared with its stages' metric stores. */
  final Map<Long, String> metricTypes = new HashMap<>();
  /** Jobs and stages the History Server's SQL listener counts for this execution. */
  final Set<Integer> listenerJobs = new LinkedHashSet<>();
  final Set<Integer> stages = new HashSet<>();
  /** Driver accumulator updates, (accumulator id, value) in arrival order, until the values are final. */
  final List<long[]> driverUpdates = new ArrayList<>();
  /** JobEnd and SQLExecutionEnd events seen, as the listener counts them to retire an execution. */
  int endEvents;
  /** The metric values by accumulator id, fixed at the execution's end (or the log's); null until then. */
  Map<Long, SqlMetricValue> metricValues;

  SqlExecutionAccumulator(long executionId) {
    this.executionId = executionId;
  }

  void addMetrics(List<PlanGraph.Metric> metrics) {
    metrics.forEach(metric -> metricTypes.put(metric.accumulatorId(), metric.type()));
  }

  TableRow toRow() {
    return Table.SQL_EXECUTIONS
        .newRow()
        .set("execution_id", executionId)
        .set("root_execution_id", rootExecutionId)
        .set("description", description)
        .set("details", details)
        .set("physical_plan", physicalPlan)
        .set("adaptive_plan_updates", adaptivePlanUpdates)
        .set("start_time_ms", startTime)
        .set("end_time_ms", endTime)
        .set("duration_ms", Durations.between(startTime, endTime))
        .set("error_message", errorMessage)
        .set("job_ids", jobIds.toArray(new Integer[0]));
  }
}
