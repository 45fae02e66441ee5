package org.perflab.eventlog.parse;

import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.perflab.table.Table;
import org.perflab.table.TableRow;

/** One job, with the task and stage counts the History Server's {@code AppStatusListener} keeps. */
final class JobAccumulator {
  final int jobId;
  String name;
  String description;
  String jobGroup;
  Long sqlExecutionId;
  Long submissionTime;
  Long completionTime;
  String status = "RUNNING";
  String failureReason;
  List<Integer> stageIds = List.of();
  long numTasks;
  long completedTasks;
  long failedTasks;
  long killedTasks;
  long skippedTasks;
  int failedStages;
  final Set<Integer> completedStages = new HashSet<>();
  final Set<Integer> skippedStages = new HashSet<>();
  private final Map<Integer, BitSet> completedIndicesByStage = new HashMap<>();

  JobAccumulator(int jobId) {
    this.jobId = jobId;
  }

  void completedIndex(int stageId, int index) {
    completedIndicesByStage.computeIfAbsent(stageId, id -> new BitSet()).set(index);
  }

  private long completedIndices() {
    return completedIndicesByStage.values().stream().mapToLong(BitSet::cardinality).sum();
  }

  TableRow toRow() {
    return Table.JOBS
        .newRow()
        .set("job_id", jobId)
        .set("name", name)
        .set("description", description)
        .set("job_group", jobGroup)
        .set("sql_execution_id", sqlExecutionId)
        .set("submission_time_ms", submissionTime)
        .set("completion_time_ms", completionTime)
        .set("duration_ms", Durations.between(submissionTime, completionTime))
        .set("status", status)
        .set("failure_reason", failureReason)
        .set("stage_ids", stageIds.toArray(new Integer[0]))
        .set("num_tasks", numTasks)
        .set("num_completed_tasks", completedTasks)
        .set("num_failed_tasks", failedTasks)
        .set("num_killed_tasks", killedTasks)
        .set("num_skipped_tasks", skippedTasks)
        .set("num_completed_indices", completedIndices())
        .set("num_completed_stages", (long) completedStages.size())
        .set("num_skipped_stages", (long) skippedStages.size())
        .set("num_failed_stages", (long) failedStages);
  }
}
