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
  // Positions in a task row of the columns taskRow sets.
  private static final int STAGE_ID = TASKS.indexOf("stage_id");
  private static final int STAGE_ATTEMPT_ID = TASKS.indexOf("stage_attempt_id");
  private static final int TASK_ID = TASKS.indexOf("task_id");
  private static final int TASK_INDEX = TASKS.indexOf("task_index");
  private static final int TASK_ATTEMPT = TASKS.indexOf("task_attempt");
  private static final int PARTITION_ID = TASKS.indexOf("partition_id");
  private static final int TASK_TYPE = TASKS.indexOf("task_type");
  private static final int LAUNCH_TIME_MS = TASKS.indexOf("launch_time_ms");
  private static final int FINISH_TIME_MS = TASKS.indexOf("finish_time_ms");
  private static final int GETTING_RESULT_TIME_MS = TASKS.indexOf("getting_result_time_ms");
  private static final int DURATION_MS = TASKS.indexOf("duration_ms");
  private static final int EXECUTOR_ID = TASKS.indexOf("executor_id");
  private static final int HOST = TASKS.indexOf("host");
  private static final int LOCALITY = TASKS.indexOf("locality");
  private static final int SPECULATIVE = TASKS.indexOf("speculative");
  private static final int STATUS = TASKS.indexOf("status");
  private static final int END_REASON = TASKS.indexOf("end_reason");
  private static final int FAILURE_REASON = TASKS.indexOf("failure_reason");
  private static final int START_EVENT_SEEN = TASKS.indexOf("start_event_seen");

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
    Object[] values = row.values();
    values[STAGE_ID] = event.stageId;
    values[STAGE_ATTEMPT_ID] = event.stageAttemptId;
    values[TASK_ID] = event.taskId;
    values[TASK_INDEX] = event.index;
    values[TASK_ATTEMPT] = event.attempt;
    values[PARTITION_ID] = event.partitionId == null || event.partitionId < 0 ? null : event.partitionId;
    values[TASK_TYPE] = event.taskType;
    values[LAUNCH_TIME_MS] = event.launchTime;
    values[FINISH_TIME_MS] = finish;
    values[GETTING_RESULT_TIME_MS] = positive(event.gettingResultTime);
    values[DURATION_MS] = Durations.between(event.launchTime, finish);
    values[EXECUTOR_ID] = event.executorId;
    values[HOST] = event.host;
    values[LOCALITY] = event.locality;
    values[SPECULATIVE] = event.speculative;
    values[STATUS] = end == null ? "RUNNING" : end.status();
    values[END_REASON] = end == null ? null : end.reasonClass();
    values[FAILURE_REASON] = end == null ? null : end.message();
    values[START_EVENT_SEEN] = started;
    if (end != null && event.metrics != null) {
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
