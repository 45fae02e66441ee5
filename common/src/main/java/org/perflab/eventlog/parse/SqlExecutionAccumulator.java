package org.perflab.eventlog.parse;

import java.util.ArrayList;
import java.util.List;
import org.perflab.table.Table;
import org.perflab.table.TableRow;

/** One SQL execution: its text, final plan and timing, already redacted. */
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

  SqlExecutionAccumulator(long executionId) {
    this.executionId = executionId;
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
