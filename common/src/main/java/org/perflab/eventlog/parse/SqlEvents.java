package org.perflab.eventlog.parse;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.perflab.eventlog.redact.Redactor;
import org.perflab.table.TableRow;

/**
 * SQL execution events (start, end, adaptive plan and metric updates, driver accumulator updates) and the SQL metric
 * values of task ends, tracked as Spark's {@code SQLAppStatusListener} tracks them for the History Server. Only the
 * executions still running keep per-task state, and only for the accumulators their plans name; an execution's values
 * are fixed when it ends. Every text field is redacted.
 */
final class SqlEvents {
  private final Map<Long, SqlExecutionAccumulator> executions = new LinkedHashMap<>();
  /** Executions the listener still tracks: started, and not every one of its end events seen. */
  private final Map<Long, SqlExecutionAccumulator> live = new LinkedHashMap<>();
  /** Metric values of SQL stages by stage id, the current attempt only, as the listener keeps them. */
  private final Map<Integer, SqlStageMetrics> stageMetrics = new HashMap<>();
  private final Redactor redactor;

  SqlEvents(Redactor redactor) {
    this.redactor = redactor;
  }

  private SqlExecutionAccumulator execution(long executionId) {
    return executions.computeIfAbsent(executionId, SqlExecutionAccumulator::new);
  }

  private SqlExecutionAccumulator liveExecution(long executionId) {
    return live.computeIfAbsent(executionId, this::execution);
  }

  boolean handle(String type, JsonNode event) {
    switch (type) {
      case "SparkListenerSQLExecutionStart" -> start(event);
      case "SparkListenerSQLExecutionEnd" -> end(event);
      case "SparkListenerSQLAdaptiveExecutionUpdate" -> adaptiveUpdate(event);
      case "SparkListenerSQLAdaptiveSQLMetricUpdates" -> adaptiveMetricUpdates(event);
      case "SparkListenerDriverAccumUpdates" -> driverAccumUpdates(event);
      default -> {
        return false;
      }
    }
    return true;
  }

  private void start(JsonNode event) {
    SqlExecutionAccumulator execution = liveExecution(Json.requireLong(event, "executionId"));
    execution.rootExecutionId = Json.longValue(event, "rootExecutionId");
    execution.description = redacted(Json.text(event, "description"));
    execution.details = redacted(Json.text(event, "details"));
    execution.physicalPlan = redacted(Json.text(event, "physicalPlanDescription"));
    execution.startTime = Json.longValue(event, "time");
    updatePlan(execution, event);
  }

  private void end(JsonNode event) {
    SqlExecutionAccumulator execution = execution(Json.requireLong(event, "executionId"));
    execution.endTime = Json.longValue(event, "time");
    execution.errorMessage = redacted(Json.text(event, "errorMessage"));
    if (live.get(execution.executionId) == execution) {
      fixValues(execution);
      removeStaleStages(execution);
      execution.endEvents++;
      retireIfEnded(execution);
    }
  }

  private void adaptiveUpdate(JsonNode event) {
    SqlExecutionAccumulator execution = liveExecution(Json.requireLong(event, "executionId"));
    execution.physicalPlan = redacted(Json.text(event, "physicalPlanDescription"));
    execution.adaptivePlanUpdates++;
    updatePlan(execution, event);
  }

  private static void updatePlan(SqlExecutionAccumulator execution, JsonNode event) {
    JsonNode plan = Json.node(event, "sparkPlanInfo");
    if (plan != null) {
      execution.graph = PlanGraph.of(plan);
      execution.addMetrics(execution.graph.metrics());
    }
  }

  private void adaptiveMetricUpdates(JsonNode event) {
    SqlExecutionAccumulator execution = liveExecution(Json.requireLong(event, "executionId"));
    List<PlanGraph.Metric> metrics = new ArrayList<>();
    JsonNode updates = Json.node(event, "sqlPlanMetrics");
    if (updates != null) {
      for (JsonNode metric : updates) {
        metrics.add(new PlanGraph.Metric(Json.requireText(metric, "name"), Json.requireLong(metric, "accumulatorId"),
            Json.requireText(metric, "metricType")));
      }
    }
    execution.addMetrics(metrics);
  }

  private void driverAccumUpdates(JsonNode event) {
    SqlExecutionAccumulator execution = live.get(Json.requireLong(event, "executionId"));
    JsonNode updates = Json.requireNode(event, "accumUpdates");
    if (execution == null || execution.metricValues != null) {
      return;
    }
    for (JsonNode update : updates) {
      if (update.size() == 2 && update.get(0).canConvertToLong() && update.get(1).canConvertToLong()) {
        execution.driverUpdates.add(new long[] {update.get(0).asLong(), update.get(1).asLong()});
      }
    }
  }

  /** A job of SQL execution {@code executionId} (null for other jobs): its stages now count for the execution. */
  void jobStart(Long executionId, int jobId, Map<Integer, Integer> tasksByStage) {
    if (executionId == null) {
      return;
    }
    SqlExecutionAccumulator execution = execution(executionId);
    execution.jobIds.add(jobId);
    if (live.get(executionId) == null && execution.metricValues != null) {
      // An execution already retired comes back, its values unchanged, until this job ends.
      execution.endEvents = execution.listenerJobs.size() + 1;
    }
    live.put(executionId, execution);
    if (!execution.metricTypes.isEmpty()) {
      tasksByStage.forEach((stageId, tasks) ->
          stageMetrics.put(stageId, new SqlStageMetrics(0, tasks, execution.metricTypes)));
    }
    execution.listenerJobs.add(jobId);
    execution.stages.addAll(tasksByStage.keySet());
    retireIfEnded(execution);
  }

  void jobEnd(int jobId) {
    for (SqlExecutionAccumulator execution : List.copyOf(live.values())) {
      if (execution.listenerJobs.contains(jobId)) {
        execution.endEvents++;
        retireIfEnded(execution);
      }
    }
  }

  /** A new attempt of a SQL stage starts its values afresh. */
  void stageSubmitted(int stageId, int attemptId) {
    SqlStageMetrics stage = stageMetrics.get(stageId);
    if (stage != null && stage.attemptId != attemptId && isSqlStage(stageId)) {
      stageMetrics.put(stageId, new SqlStageMetrics(attemptId, stage.numTasks, stage.types()));
    }
  }

  /** Whether the accumulables of the stage's task ends are wanted: it runs for a live execution with metrics. */
  boolean wantsAccumulables(int stageId) {
    return stageMetrics.containsKey(stageId) && isSqlStage(stageId);
  }

  void taskEnd(TaskEvent event) {
    if (event.accumulableCount == 0 || !isSqlStage(event.stageId)) {
      return;
    }
    SqlStageMetrics stage = stageMetrics.get(event.stageId);
    if (stage != null && stage.attemptId == event.stageAttemptId) {
      stage.taskEnd(event.index, event.successful(), event.accumulableIds, event.accumulableUpdates,
          event.accumulableCount);
    }
  }

  private boolean isSqlStage(int stageId) {
    for (SqlExecutionAccumulator execution : live.values()) {
      if (execution.stages.contains(stageId)) {
        return true;
      }
    }
    return false;
  }

  private void retireIfEnded(SqlExecutionAccumulator execution) {
    if (execution.endEvents >= execution.listenerJobs.size() + 1) {
      removeStaleStages(execution);
      live.remove(execution.executionId);
    }
  }

  /** Drops the stage values no other live execution needs. */
  private void removeStaleStages(SqlExecutionAccumulator execution) {
    Set<Integer> active = new HashSet<>();
    live.values().stream().filter(other -> other != execution).forEach(other -> active.addAll(other.stages));
    stageMetrics.keySet().retainAll(active);
  }

  private void fixValues(SqlExecutionAccumulator execution) {
    if (execution.metricValues != null) {
      return;
    }
    Map<Long, SqlMetricValue> values = new HashMap<>();
    execution.metricTypes.forEach((accumulatorId, type) -> {
      SqlMetricValue.Builder builder = new SqlMetricValue.Builder(type);
      for (int stageId : execution.stages) {
        SqlStageMetrics stage = stageMetrics.get(stageId);
        if (stage != null) {
          stage.addTo(accumulatorId, builder);
        }
      }
      execution.driverUpdates.stream().filter(u -> u[0] == accumulatorId).forEach(u -> builder.addDriverValue(u[1]));
      SqlMetricValue value = builder.build();
      if (value != null) {
        values.put(accumulatorId, value);
      }
    });
    execution.metricValues = values;
    execution.driverUpdates.clear();
  }

  private String redacted(String text) {
    return text == null || text.isEmpty() ? text : redactor.redactText(text);
  }

  /** The end of the log: executions still running get the values seen so far, as the History Server shows them. */
  void finish() {
    live.values().forEach(this::fixValues);
  }

  void emit(Consumer<TableRow> sink) {
    executions.values().forEach(execution -> sink.accept(execution.toRow()));
    executions.values().forEach(execution -> SqlOperatorRows.emit(execution, redactor, sink));
  }
}
