package org.perflab.eventlog.parse;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.perflab.eventlog.redact.Redactor;
import org.perflab.table.TableRow;

/** SQL execution events: start, end and adaptive plan updates. Every text field is redacted. */
final class SqlEvents {
  private final Map<Long, SqlExecutionAccumulator> executions = new LinkedHashMap<>();
  private final Redactor redactor;

  SqlEvents(Redactor redactor) {
    this.redactor = redactor;
  }

  SqlExecutionAccumulator execution(long executionId) {
    return executions.computeIfAbsent(executionId, SqlExecutionAccumulator::new);
  }

  boolean handle(String type, JsonNode event) {
    switch (type) {
      case "SparkListenerSQLExecutionStart" -> start(event);
      case "SparkListenerSQLExecutionEnd" -> end(event);
      case "SparkListenerSQLAdaptiveExecutionUpdate" -> adaptiveUpdate(event);
      default -> {
        return false;
      }
    }
    return true;
  }

  private void start(JsonNode event) {
    SqlExecutionAccumulator execution = execution(Json.requireLong(event, "executionId"));
    execution.rootExecutionId = Json.longValue(event, "rootExecutionId");
    execution.description = redacted(Json.text(event, "description"));
    execution.details = redacted(Json.text(event, "details"));
    execution.physicalPlan = redacted(Json.text(event, "physicalPlanDescription"));
    execution.startTime = Json.longValue(event, "time");
  }

  private void end(JsonNode event) {
    SqlExecutionAccumulator execution = execution(Json.requireLong(event, "executionId"));
    execution.endTime = Json.longValue(event, "time");
    execution.errorMessage = redacted(Json.text(event, "errorMessage"));
  }

  private void adaptiveUpdate(JsonNode event) {
    SqlExecutionAccumulator execution = execution(Json.requireLong(event, "executionId"));
    execution.physicalPlan = redacted(Json.text(event, "physicalPlanDescription"));
    execution.adaptivePlanUpdates++;
  }

  private String redacted(String text) {
    return text == null || text.isEmpty() ? text : redactor.redactText(text);
  }

  void emit(Consumer<TableRow> sink) {
    executions.values().forEach(execution -> sink.accept(execution.toRow()));
  }
}
