package org.perflab.eventlog.parse;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.storage.StorageLevel;
import org.perflab.eventlog.redact.Redactor;
import org.perflab.table.Table;
import org.perflab.table.TableRow;
import org.perflab.table.TaskMetric;

/**
 * One stage attempt, accumulated over the log as Spark's {@code AppStatusListener} does: task-end metrics are added
 * only for tasks whose start was seen, and only while the stage is live (until it has completed and has no running
 * task left).
 */
final class StageAccumulator {
  final int stageId;
  final int attemptId;
  String name;
  int numTasks;
  List<Integer> parentIds = List.of();
  List<Row> rdds = List.of();
  Long submissionTime;
  Long completionTime;
  Long firstLaunchTime;
  String failureReason;
  String description;
  String schedulingPool;
  Integer resourceProfileId;
  StageStatus status = StageStatus.PENDING;
  boolean live = true;
  Integer submittingJobId;
  final Set<Integer> jobIds = new LinkedHashSet<>();
  final Set<Integer> skippedInJobIds = new LinkedHashSet<>();
  /** Jobs the live stage's task ends are counted towards, as {@code LiveStage.jobs}. */
  List<JobAccumulator> jobs = new ArrayList<>();
  int activeTasks;
  long completedTasks;
  long failedTasks;
  long killedTasks;
  long taskEndsWithoutStart;
  final BitSet completedIndices = new BitSet();
  final MetricSums metrics = new MetricSums();

  StageAccumulator(int stageId, int attemptId) {
    this.stageId = stageId;
    this.attemptId = attemptId;
  }

  /** Updates name, task count, parents, lineage and times from a {@code "Stage Info"} object. */
  void updateInfo(JsonNode info, Redactor redactor) {
    name = Json.text(info, "Stage Name");
    Integer tasks = Json.intValue(info, "Number of Tasks");
    if (tasks != null) {
      numTasks = tasks;
    }
    parentIds = Json.ints(info, "Parent IDs");
    JsonNode rddInfos = Json.node(info, "RDD Info");
    if (rddInfos != null && rddInfos.size() > 0) {
      rdds = rddRows(rddInfos);
    }
    Long submitted = Json.longValue(info, "Submission Time");
    if (submitted != null) {
      submissionTime = submitted;
    }
    Long completed = Json.longValue(info, "Completion Time");
    if (completed != null) {
      completionTime = completed;
    }
    String failure = Json.text(info, "Failure Reason");
    if (failure != null) {
      failureReason = redactor.redactText(failure);
    }
    Integer profile = Json.intValue(info, "Resource Profile Id");
    if (profile != null) {
      resourceProfileId = profile;
    }
  }

  /**
   * Fills in the cached partitions and sizes of persisted RDDs that the stage info logged as none (every Spark since
   * 2.0) from the block updates seen so far, as Spark 1.x did at stage completion. RDDs with logged sizes keep them.
   */
  void fillCachedSizes(CachedBlocks blocks) {
    List<Row> filled = new ArrayList<>(rdds.size());
    for (Row rdd : rdds) {
      CachedBlocks.Cached cached = rdd.isNullAt(0) ? null : blocks.cached(rdd.getInt(0));
      boolean logged = !rdd.isNullAt(6) && rdd.getInt(6) > 0;
      if (cached == null || logged) {
        filled.add(rdd);
        continue;
      }
      Object[] values = new Object[rdd.length()];
      for (int i = 0; i < values.length; i++) {
        values[i] = rdd.get(i);
      }
      values[6] = cached.partitions();
      values[8] = cached.memoryBytes();
      values[9] = cached.diskBytes();
      filled.add(RowFactory.create(values));
    }
    rdds = filled;
  }

  boolean hasCompletedAllPartitions() {
    return completedIndices.cardinality() >= numTasks;
  }

  private static List<Row> rddRows(JsonNode rddInfos) {
    List<Row> rows = new ArrayList<>();
    for (JsonNode rdd : rddInfos) {
      rows.add(
          RowFactory.create(
              Json.intValue(rdd, "RDD ID"),
              Json.text(rdd, "Name"),
              scopeName(Json.text(rdd, "Scope")),
              Json.text(rdd, "Callsite"),
              Json.ints(rdd, "Parent IDs").toArray(new Integer[0]),
              Json.intValue(rdd, "Number of Partitions"),
              Json.intValue(rdd, "Number of Cached Partitions"),
              storageLevel(Json.node(rdd, "Storage Level")),
              Json.longValue(rdd, "Memory Size"),
              Json.longValue(rdd, "Disk Size")));
    }
    return rows;
  }

  /** The {@code name} of an RDD operation scope, which Spark logs as a JSON string. */
  private static String scopeName(String scopeJson) {
    if (scopeJson == null) {
      return null;
    }
    int key = scopeJson.indexOf("\"name\":\"");
    if (key < 0) {
      return null;
    }
    int start = key + 8;
    int end = scopeJson.indexOf('"', start);
    return end < 0 ? null : scopeJson.substring(start, end);
  }

  private static String storageLevel(JsonNode level) {
    if (level == null) {
      return null;
    }
    return StorageLevel.apply(
            Json.flag(level, "Use Disk"),
            Json.flag(level, "Use Memory"),
            Json.flag(level, "Use Off Heap"),
            Json.flag(level, "Deserialized"),
            Json.intValue(level, "Replication") == null ? 1 : Json.intValue(level, "Replication"))
        .description();
  }

  TableRow toRow() {
    TableRow row = Table.STAGES.newRow();
    row.set("stage_id", stageId)
        .set("stage_attempt_id", attemptId)
        .set("name", name)
        .set("description", description)
        .set("status", status.name())
        .set("failure_reason", failureReason)
        .set("job_id", submittingJobId != null ? submittingJobId : jobIds.stream().findFirst().orElse(null))
        .set("job_ids", jobIds.toArray(new Integer[0]))
        .set("skipped_in_job_ids", skippedInJobIds.toArray(new Integer[0]))
        .set("parent_stage_ids", parentIds.toArray(new Integer[0]))
        .set("num_tasks", numTasks)
        .set("submission_time_ms", submissionTime)
        .set("first_task_launch_time_ms", firstLaunchTime)
        .set("completion_time_ms", completionTime)
        .set("duration_ms", Durations.between(submissionTime, completionTime))
        .set("num_complete_tasks", completedTasks)
        .set("num_failed_tasks", failedTasks)
        .set("num_killed_tasks", killedTasks)
        .set("num_completed_indices", (long) completedIndices.cardinality())
        .set("num_task_ends_without_start", taskEndsWithoutStart)
        .set("scheduling_pool", schedulingPool)
        .set("resource_profile_id", resourceProfileId)
        .set(
            "shuffle_read_bytes",
            metrics.get(TaskMetric.SHUFFLE_LOCAL_BYTES_READ) + metrics.get(TaskMetric.SHUFFLE_REMOTE_BYTES_READ))
        .set("rdds", rdds.toArray(new Row[0]));
    metrics.writeTo(row);
    return row;
  }
}
