package org.perflab.eventlog.parse;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.perflab.eventlog.redact.Redactor;
import org.perflab.table.TableRow;

/**
 * Routes events to their handlers and keeps the job and stage state machines of Spark's {@code AppStatusListener}:
 * a stage named by a job is PENDING, ACTIVE once submitted, COMPLETE, FAILED or SKIPPED at the end.
 */
final class SchedulerEvents {
  private final ApplicationAccumulator app;
  private final LogHealth health;
  private final Redactor redactor;
  private final Consumer<TableRow> sink;
  private final ExecutorEvents executors;
  private final SqlEvents sql;
  private final TaskEvents tasks;
  private final Map<Long, StageAccumulator> stages = new LinkedHashMap<>();
  private final CachedBlocks cachedBlocks = new CachedBlocks();
  private final Map<Integer, JobAccumulator> jobs = new TreeMap<>();
  /** Jobs started and not ended. */
  private final Map<Integer, JobAccumulator> activeJobs = new LinkedHashMap<>();
  /** Per active job, the stages it names that had already run: Spark skips them. */
  private final Map<Integer, List<StageAccumulator>> reusedStages = new LinkedHashMap<>();

  SchedulerEvents(ApplicationAccumulator app, LogHealth health, Redactor redactor, Consumer<TableRow> sink) {
    this.app = app;
    this.health = health;
    this.redactor = redactor;
    this.sink = sink;
    this.executors = new ExecutorEvents(app, redactor);
    this.sql = new SqlEvents(redactor);
    this.tasks = new TaskEvents(app, health, redactor, executors, this::stage, sink);
  }

  static long key(int stageId, int attemptId) {
    return ((long) stageId << 32) | (attemptId & 0xffffffffL);
  }

  StageAccumulator stage(long key) {
    return stages.get(key);
  }

  private StageAccumulator getOrCreateStage(JsonNode info) {
    int stageId = Json.requireInt(info, "Stage ID");
    int attempt = attemptOf(info);
    return stages.computeIfAbsent(key(stageId, attempt), k -> new StageAccumulator(stageId, attempt));
  }

  private static int attemptOf(JsonNode info) {
    Integer attempt = Json.intValue(info, "Stage Attempt ID");
    return attempt == null ? 0 : attempt;
  }

  void task(TaskEvent event) {
    tasks.handle(event);
    if (event.end) {
      sql.taskEnd(event);
    }
  }

  /** Whether the task ends of a stage should carry their accumulator updates: SQL metrics of a running execution. */
  boolean wantsAccumulables(int stageId) {
    return sql.wantsAccumulables(stageId);
  }

  boolean handle(String type, JsonNode event) {
    switch (type) {
      case "SparkListenerLogStart" -> app.sparkVersion = Json.requireText(event, "Spark Version");
      case "SparkListenerApplicationStart" -> applicationStart(event);
      case "SparkListenerApplicationEnd" -> applicationEnd(event);
      case "SparkListenerEnvironmentUpdate" -> app.environmentUpdate(event, redactor);
      case "SparkListenerResourceProfileAdded" -> app.resourceProfileAdded(event, redactor);
      case "SparkListenerJobStart" -> jobStart(event);
      case "SparkListenerJobEnd" -> jobEnd(event);
      case "SparkListenerStageSubmitted" -> stageSubmitted(event);
      case "SparkListenerStageCompleted" -> stageCompleted(event);
      case "SparkListenerBlockUpdated" -> blockUpdated(event);
      default -> {
        return executors.handle(type, event) || sql.handle(type, event);
      }
    }
    return true;
  }

  private void blockUpdated(JsonNode event) {
    long evicted = cachedBlocks.update(event);
    if (evicted > 0) {
      executors.evicted(Json.text(Json.node(Json.node(event, "Block Updated Info"), "Block Manager ID"), "Executor ID"),
          evicted);
    }
  }

  private void applicationStart(JsonNode event) {
    String appId = Json.text(event, "App ID");
    if (appId != null) {
      app.appId = appId;
    }
    String attempt = Json.text(event, "App Attempt ID");
    app.attemptId = attempt == null ? "" : attempt;
    app.appName = Json.text(event, "App Name");
    app.user = Json.text(event, "User");
    app.startTime = Json.requireLong(event, "Timestamp");
  }

  private void applicationEnd(JsonNode event) {
    app.endTime = Json.requireLong(event, "Timestamp");
    app.ended = true;
  }

  private void jobStart(JsonNode event) {
    int jobId = Json.requireInt(event, "Job ID");
    JsonNode stageInfos = Json.requireNode(event, "Stage Infos");
    JsonNode properties = Json.node(event, "Properties");
    JobAccumulator job = new JobAccumulator(jobId);
    job.submissionTime = Json.longValue(event, "Submission Time");
    job.stageIds = Json.ints(event, "Stage IDs");
    job.description = redactedProperty(properties, "spark.job.description");
    job.jobGroup = Json.text(properties, "spark.jobGroup.id");
    job.sqlExecutionId = Json.longValue(properties, "spark.sql.execution.id");
    int lastStageId = Integer.MIN_VALUE;
    List<StageAccumulator> reused = new ArrayList<>();
    Map<Integer, Integer> tasksByStage = new LinkedHashMap<>();
    for (JsonNode info : stageInfos) {
      int stageId = Json.requireInt(info, "Stage ID");
      Integer stageTasks = Json.intValue(info, "Number of Tasks");
      tasksByStage.put(stageId, stageTasks == null ? 0 : stageTasks);
      if (stageId > lastStageId) {
        lastStageId = stageId;
        job.name = Json.text(info, "Stage Name");
      }
      if (Json.longValue(info, "Completion Time") == null) {
        job.numTasks += Json.requireInt(info, "Number of Tasks");
      }
      StageAccumulator existing = stages.get(key(stageId, attemptOf(info)));
      if (existing != null && !existing.live) {
        reused.add(existing);
        continue;
      }
      StageAccumulator stage = getOrCreateStage(info);
      stage.updateInfo(info, redactor);
      stage.jobs.add(job);
      stage.jobIds.add(jobId);
    }
    jobs.put(jobId, job);
    activeJobs.put(jobId, job);
    reusedStages.put(jobId, reused);
    app.numJobs++;
    sql.jobStart(job.sqlExecutionId, jobId, tasksByStage);
  }

  private String redactedProperty(JsonNode properties, String key) {
    String value = Json.text(properties, key);
    return value == null ? null : redactor.redactText(value);
  }

  private void jobEnd(JsonNode event) {
    int jobId = Json.requireInt(event, "Job ID");
    sql.jobEnd(jobId);
    JobAccumulator job = activeJobs.remove(jobId);
    if (job == null) {
      return;
    }
    for (StageAccumulator stage : stages.values()) {
      if (stage.live && stage.status == StageStatus.PENDING && job.stageIds.contains(stage.stageId)) {
        stage.status = StageStatus.SKIPPED;
        stage.live = false;
        job.skippedStages.add(stage.stageId);
        job.skippedTasks += stage.numTasks;
      }
    }
    for (StageAccumulator stage : reusedStages.remove(jobId)) {
      stage.skippedInJobIds.add(jobId);
      job.skippedStages.add(stage.stageId);
      job.skippedTasks += stage.numTasks;
    }
    job.completionTime = Json.longValue(event, "Completion Time");
    JsonNode result = Json.node(event, "Job Result");
    boolean succeeded = "JobSucceeded".equals(Json.text(result, "Result"));
    job.status = succeeded ? "SUCCEEDED" : "FAILED";
    if (!succeeded) {
      String message = Json.text(Json.node(result, "Exception"), "Message");
      job.failureReason = message == null ? null : redactor.redactText(message);
    }
  }

  private void stageSubmitted(JsonNode event) {
    JsonNode info = Json.requireNode(event, "Stage Info");
    JsonNode properties = Json.node(event, "Properties");
    StageAccumulator stage = getOrCreateStage(info);
    stage.updateInfo(info, redactor);
    sql.stageSubmitted(stage.stageId, stage.attemptId);
    stage.status = StageStatus.ACTIVE;
    stage.live = true;
    String pool = Json.text(properties, "spark.scheduler.pool");
    stage.schedulingPool = pool == null ? "default" : pool;
    stage.description = redactedProperty(properties, "spark.job.description");
    stage.jobs = new ArrayList<>();
    for (JobAccumulator job : activeJobs.values()) {
      if (job.stageIds.contains(stage.stageId)) {
        stage.jobs.add(job);
        stage.jobIds.add(job.jobId);
        job.completedStages.remove(stage.stageId);
      }
    }
    if (!stage.jobs.isEmpty()) {
      stage.submittingJobId = stage.jobs.get(0).jobId;
    }
  }

  private void stageCompleted(JsonNode event) {
    JsonNode info = Json.requireNode(event, "Stage Info");
    StageAccumulator stage = getOrCreateStage(info);
    stage.updateInfo(info, redactor);
    stage.fillCachedSizes(cachedBlocks);
    if (stage.failureReason != null) {
      stage.status = StageStatus.FAILED;
    } else if (stage.submissionTime != null) {
      stage.status = StageStatus.COMPLETE;
    } else {
      stage.status = StageStatus.SKIPPED;
    }
    for (JobAccumulator job : stage.jobs) {
      switch (stage.status) {
        case COMPLETE -> job.completedStages.add(stage.stageId);
        case SKIPPED -> {
          job.skippedStages.add(stage.stageId);
          job.skippedTasks += stage.numTasks;
        }
        default -> job.failedStages++;
      }
    }
    if (stage.activeTasks <= 0) {
      stage.live = false;
    }
  }

  /** Settles what the end of the log implies: reconciliation of task counts with declared task counts. */
  void finish() {
    tasks.finish();
    sql.finish();
    for (StageAccumulator stage : stages.values()) {
      if (stage.status == StageStatus.COMPLETE && !stage.hasCompletedAllPartitions()) {
        health.stagesMissingTasks++;
      }
    }
    app.numStageAttempts = stages.size();
  }

  void emitAggregates() {
    jobs.values().forEach(job -> sink.accept(job.toRow()));
    stages.values().forEach(stage -> sink.accept(stage.toRow()));
    executors.emit(sink);
    sql.emit(sink);
  }
}
