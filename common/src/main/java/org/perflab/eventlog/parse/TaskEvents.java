package org.perflab.eventlog.parse;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongFunction;
import org.perflab.eventlog.redact.Redactor;
import org.perflab.table.Table;
import org.perflab.table.TableRow;
import org.perflab.table.TaskMetric;

/**
 * Task start and end events. A task row is emitted at each task end; tasks still running at the end of the log are
 * emitted with status RUNNING. Stage, job and executor totals follow Spark's {@code AppStatusListener}.
 */
final class TaskEvents {
  private final ApplicationAccumulator app;
  private final LogHealth health;
  private final Redactor redactor;
  private final ExecutorEvents executors;
  private final LongFunction<StageAccumulator> stages;
  private final Consumer<TableRow> sink;
  /** Tasks started and not yet ended, by task id. Bounded by the tasks running at once. */
  private final Map<Long, StartedTask> running = new HashMap<>();

  /** What a task start tells, kept until its end. */
  private record StartedTask(int stageId, int stageAttemptId, JsonNode info) {}

  TaskEvents(
      ApplicationAccumulator app,
      LogHealth health,
      Redactor redactor,
      ExecutorEvents executors,
      LongFunction<StageAccumulator> stages,
      Consumer<TableRow> sink) {
    this.app = app;
    this.health = health;
    this.redactor = redactor;
    this.executors = executors;
    this.stages = stages;
    this.sink = sink;
  }

  boolean handle(String type, JsonNode event) {
    switch (type) {
      case "SparkListenerTaskStart" -> taskStart(event);
      case "SparkListenerTaskEnd" -> taskEnd(event);
      default -> {
        return false;
      }
    }
    return true;
  }

  private void taskStart(JsonNode event) {
    int stageId = Json.requireInt(event, "Stage ID");
    int attempt = Json.requireInt(event, "Stage Attempt ID");
    JsonNode info = Json.requireNode(event, "Task Info");
    long taskId = Json.requireLong(info, "Task ID");
    long launchTime = Json.requireLong(info, "Launch Time");
    String executorId = Json.requireText(info, "Executor ID");
    running.put(taskId, new StartedTask(stageId, attempt, info));
    StageAccumulator stage = stages.apply(SchedulerEvents.key(stageId, attempt));
    if (stage != null && stage.live) {
      stage.activeTasks++;
      stage.firstLaunchTime = stage.firstLaunchTime == null ? launchTime : Math.min(stage.firstLaunchTime, launchTime);
    }
    ExecutorAccumulator executor = executors.live(executorId);
    if (executor != null) {
      executor.totalTasks++;
    }
  }

  private void taskEnd(JsonNode event) {
    int stageId = Json.requireInt(event, "Stage ID");
    int attempt = Json.requireInt(event, "Stage Attempt ID");
    JsonNode info = Json.requireNode(event, "Task Info");
    long taskId = Json.requireLong(info, "Task ID");
    int index = Json.requireInt(info, "Index");
    String executorId = Json.requireText(info, "Executor ID");
    JsonNode reasonNode = Json.node(event, "Task End Reason");
    TaskEnd end = TaskEnd.of(reasonNode, redactor);
    Long[] metrics = TaskMetricsReader.read(Json.node(event, "Task Metrics"), info);
    boolean started = running.remove(taskId) != null;
    if (!started && end.kind() != TaskEnd.Kind.RESUBMITTED) {
      health.taskEndsWithoutStart++;
    }
    countInStage(stages.apply(SchedulerEvents.key(stageId, attempt)), end, index, started ? metrics : null, started);
    countInExecutor(executors.live(executorId), end, info, metrics);
    ExecutorAccumulator executor = executors.live(executorId);
    if (executor != null) {
      executor.updatePeaks(Json.node(event, "Task Executor Metrics"));
    }
    TableRow row = taskRow(stageId, attempt, info, end, metrics, started);
    row.set("task_type", Json.text(event, "Task Type"));
    app.numTaskAttempts++;
    sink.accept(row);
  }

  private void countInStage(StageAccumulator stage, TaskEnd end, int index, Long[] metrics, boolean started) {
    if (stage == null || !stage.live) {
      return;
    }
    if (metrics != null) {
      stage.metrics.add(metrics);
    }
    if (!started && end.kind() != TaskEnd.Kind.RESUBMITTED) {
      stage.taskEndsWithoutStart++;
    }
    if (end.kind() != TaskEnd.Kind.RESUBMITTED) {
      stage.activeTasks--;
    }
    switch (end.kind()) {
      case SUCCESS -> {
        stage.completedTasks++;
        stage.completedIndices.set(index);
      }
      case KILLED -> stage.killedTasks++;
      default -> stage.failedTasks++;
    }
    for (JobAccumulator job : stage.jobs) {
      switch (end.kind()) {
        case SUCCESS -> {
          job.completedTasks++;
          job.completedIndex(stage.stageId, index);
        }
        case KILLED -> job.killedTasks++;
        default -> job.failedTasks++;
      }
    }
    if (stage.activeTasks <= 0 && (stage.status == StageStatus.COMPLETE || stage.status == StageStatus.FAILED)) {
      stage.live = false;
    }
  }

  private static void countInExecutor(ExecutorAccumulator executor, TaskEnd end, JsonNode info, Long[] metrics) {
    if (executor == null) {
      return;
    }
    if (end.kind() == TaskEnd.Kind.SUCCESS) {
      executor.completedTasks++;
    } else if (end.kind() != TaskEnd.Kind.KILLED) {
      executor.failedTasks++;
    }
    Long duration = Durations.between(Json.longValue(info, "Launch Time"), Json.longValue(info, "Finish Time"));
    executor.totalDuration += duration == null ? 0 : duration;
    if (end.kind() != TaskEnd.Kind.RESUBMITTED && metrics != null) {
      executor.totalGcTime += valueOrZero(metrics, TaskMetric.JVM_GC_TIME);
      executor.totalInputBytes += valueOrZero(metrics, TaskMetric.INPUT_BYTES);
      executor.totalShuffleRead +=
          valueOrZero(metrics, TaskMetric.SHUFFLE_LOCAL_BYTES_READ)
              + valueOrZero(metrics, TaskMetric.SHUFFLE_REMOTE_BYTES_READ);
      executor.totalShuffleWrite += valueOrZero(metrics, TaskMetric.SHUFFLE_WRITE_BYTES);
    }
  }

  private static long valueOrZero(Long[] metrics, TaskMetric metric) {
    Long value = metrics[metric.ordinal()];
    return value == null ? 0 : value;
  }

  private static TableRow taskRow(
      int stageId, int attempt, JsonNode info, TaskEnd end, Long[] metrics, boolean started) {
    Long launch = Json.longValue(info, "Launch Time");
    Long finish = end == null ? null : positive(Json.longValue(info, "Finish Time"));
    TableRow row = Table.TASKS.newRow();
    row.set("stage_id", stageId)
        .set("stage_attempt_id", attempt)
        .set("task_id", Json.longValue(info, "Task ID"))
        .set("task_index", Json.intValue(info, "Index"))
        .set("task_attempt", Json.intValue(info, "Attempt"))
        .set("partition_id", partitionId(info))
        .set("launch_time_ms", launch)
        .set("finish_time_ms", finish)
        .set("getting_result_time_ms", positive(Json.longValue(info, "Getting Result Time")))
        .set("duration_ms", Durations.between(launch, finish))
        .set("executor_id", Json.text(info, "Executor ID"))
        .set("host", Json.text(info, "Host"))
        .set("locality", Json.text(info, "Locality"))
        .set("speculative", Json.flag(info, "Speculative"))
        .set("status", end == null ? "RUNNING" : end.status())
        .set("end_reason", end == null ? null : end.reasonClass())
        .set("failure_reason", end == null ? null : end.message())
        .set("start_event_seen", started);
    MetricSums.writeValues(metrics, row);
    return row;
  }

  private static Integer partitionId(JsonNode info) {
    Integer id = Json.intValue(info, "Partition ID");
    return id == null || id < 0 ? null : id;
  }

  private static Long positive(Long value) {
    return value == null || value <= 0 ? null : value;
  }

  /** Emits the tasks that started and never ended in the log. */
  void finish() {
    for (StartedTask task : running.values()) {
      app.numTaskAttempts++;
      sink.accept(taskRow(task.stageId(), task.stageAttemptId(), task.info(), null, null, true));
    }
    running.clear();
  }
}
