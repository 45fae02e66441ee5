package org.perflab.eventlog.parse;

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
  private static final Table TASKS = Table.TASKS;
  private static final TaskMetric[] METRICS = TaskMetric.values();
  private static final int[] METRIC_COLUMNS = metricColumns();

  private final ApplicationAccumulator app;
  private final LogHealth health;
  private final Redactor redactor;
  private final ExecutorEvents executors;
  private final LongFunction<StageAccumulator> stages;
  private final Consumer<TableRow> sink;
  /** Tasks started and not yet ended, by task id. Bounded by the tasks running at once. */
  private final Map<Long, TaskEvent> running = new HashMap<>();

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

  private static int[] metricColumns() {
    int[] columns = new int[METRICS.length];
    for (int i = 0; i < METRICS.length; i++) {
      columns[i] = TASKS.indexOf(METRICS[i].column());
    }
    return columns;
  }

  /** Handles a task start or end read by {@link TaskEventReader}. */
  void handle(TaskEvent event) {
    app.observeTime(event.finishTime != null ? event.finishTime : event.launchTime);
    if (event.end) {
      taskEnd(event);
    } else {
      taskStart(event);
    }
  }

  private void taskStart(TaskEvent event) {
    if (event.launchTime == null) {
      throw new Json.MissingFieldException("Launch Time");
    }
    running.put(event.taskId, event);
    StageAccumulator stage = stages.apply(SchedulerEvents.key(event.stageId, event.stageAttemptId));
    if (stage != null && stage.live) {
      stage.activeTasks++;
      stage.firstLaunchTime = stage.firstLaunchTime == null ? event.launchTime
          : Math.min(stage.firstLaunchTime, event.launchTime);
    }
    ExecutorAccumulator executor = executors.live(event.executorId);
    if (executor != null) {
      executor.totalTasks++;
    }
  }

  private void taskEnd(TaskEvent event) {
    TaskEnd end = TaskEnd.of(event.endReason, redactor);
    boolean started = running.remove(event.taskId) != null;
    if (!started && end.kind() != TaskEnd.Kind.RESUBMITTED) {
      health.taskEndsWithoutStart++;
    }
    countInStage(stages.apply(SchedulerEvents.key(event.stageId, event.stageAttemptId)), end, event, started);
    ExecutorAccumulator executor = executors.live(event.executorId);
    if (executor != null) {
      countInExecutor(executor, end, event);
      executor.updatePeaks(event);
    }
    app.numTaskAttempts++;
    sink.accept(taskRow(event, end, started));
  }

  private void countInStage(StageAccumulator stage, TaskEnd end, TaskEvent event, boolean started) {
    if (stage == null || !stage.live) {
      return;
    }
    if (started && event.metrics != null) {
      stage.metrics.add(event.metrics);
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
        stage.completedIndices.set(event.index);
      }
      case KILLED -> stage.killedTasks++;
      default -> stage.failedTasks++;
    }
    for (JobAccumulator job : stage.jobs) {
      switch (end.kind()) {
        case SUCCESS -> {
          job.completedTasks++;
          job.completedIndex(stage.stageId, event.index);
        }
        case KILLED -> job.killedTasks++;
        default -> job.failedTasks++;
      }
    }
    if (stage.activeTasks <= 0 && (stage.status == StageStatus.COMPLETE || stage.status == StageStatus.FAILED)) {
      stage.live = false;
    }
  }

  private static void countInExecutor(ExecutorAccumulator executor, TaskEnd end, TaskEvent event) {
    if (end.kind() == TaskEnd.Kind.SUCCESS) {
      executor.completedTasks++;
    } else if (end.kind() != TaskEnd.Kind.KILLED) {
      executor.failedTasks++;
    }
    Long duration = event.duration();
    executor.totalDuration += duration == null ? 0 : duration;
    Long[] metrics = event.metrics;
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

  private static TableRow taskRow(TaskEvent event, TaskEnd end, boolean started) {
    Long finish = end == null ? null : positive(event.finishTime);
    TableRow row = TASKS.newRow();
    row.set("stage_id", event.stageId)
        .set("stage_attempt_id", event.stageAttemptId)
        .set("task_id", event.taskId)
        .set("task_index", event.index)
        .set("task_attempt", event.attempt)
        .set("partition_id", event.partitionId == null || event.partitionId < 0 ? null : event.partitionId)
        .set("task_type", event.taskType)
        .set("launch_time_ms", event.launchTime)
        .set("finish_time_ms", finish)
        .set("getting_result_time_ms", positive(event.gettingResultTime))
        .set("duration_ms", Durations.between(event.launchTime, finish))
        .set("executor_id", event.executorId)
        .set("host", event.host)
        .set("locality", event.locality)
        .set("speculative", event.speculative)
        .set("status", end == null ? "RUNNING" : end.status())
        .set("end_reason", end == null ? null : end.reasonClass())
        .set("failure_reason", end == null ? null : end.message())
        .set("start_event_seen", started);
    if (end != null && event.metrics != null) {
      Object[] values = row.values();
      for (int i = 0; i < METRIC_COLUMNS.length; i++) {
        values[METRIC_COLUMNS[i]] = event.metrics[i];
      }
    }
    return row;
  }

  private static Long positive(Long value) {
    return value == null || value <= 0 ? null : value;
  }

  /** Emits the tasks that started and never ended in the log. */
  void finish() {
    for (TaskEvent task : running.values()) {
      app.numTaskAttempts++;
      sink.accept(taskRow(task, null, true));
    }
    running.clear();
  }
}
