package org.perflab.eventlog.parse;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.perflab.eventlog.redact.Redactor;
import org.perflab.table.TableRow;

/** Executor lifecycle events: added, removed, block managers, exclusion, peak metrics. */
final class ExecutorEvents {
  private final Map<String, ExecutorAccumulator> executors = new LinkedHashMap<>();
  private final ApplicationAccumulator app;
  private final Redactor redactor;
  private int liveExecutors;
  private int liveCores;

  ExecutorEvents(ApplicationAccumulator app, Redactor redactor) {
    this.app = app;
    this.redactor = redactor;
  }

  /** The executor if it is alive (added and not removed), as the History Server counts tasks only then. */
  ExecutorAccumulator live(String executorId) {
    ExecutorAccumulator executor = executors.get(executorId);
    return executor != null && executor.live ? executor : null;
  }

  /** Counts an RDD block that {@code executorId}'s memory store evicted; an executor never added is not counted. */
  void evicted(String executorId, long bytes) {
    ExecutorAccumulator executor = executorId == null ? null : executors.get(executorId);
    if (executor != null) {
      executor.evicted(bytes);
    }
  }

  private ExecutorAccumulator getOrCreate(String executorId, Long time) {
    ExecutorAccumulator executor = executors.computeIfAbsent(executorId, ExecutorAccumulator::new);
    if (executor.addTime == null) {
      executor.addTime = time;
    }
    return executor;
  }

  boolean handle(String type, JsonNode event) {
    switch (type) {
      case "SparkListenerBlockManagerAdded" -> blockManagerAdded(event);
      case "SparkListenerExecutorAdded" -> executorAdded(event);
      case "SparkListenerExecutorRemoved" -> executorRemoved(event);
      case "SparkListenerExecutorBlacklisted", "SparkListenerExecutorExcluded" -> exclude(event, true);
      case "SparkListenerExecutorUnblacklisted", "SparkListenerExecutorUnexcluded" -> exclude(event, false);
      case "SparkListenerNodeBlacklisted", "SparkListenerNodeExcluded" -> excludeHost(event, true);
      case "SparkListenerNodeUnblacklisted", "SparkListenerNodeUnexcluded" -> excludeHost(event, false);
      case "SparkListenerStageExecutorMetrics" -> stageExecutorMetrics(event);
      default -> {
        return false;
      }
    }
    return true;
  }

  private void blockManagerAdded(JsonNode event) {
    JsonNode id = Json.requireNode(event, "Block Manager ID");
    ExecutorAccumulator executor = getOrCreate(Json.requireText(id, "Executor ID"), Json.longValue(event, "Timestamp"));
    executor.hostPort = Json.text(id, "Host") + ":" + Json.text(id, "Port");
    if (executor.host == null) {
      executor.host = Json.text(id, "Host");
    }
    executor.maxMemory = Json.longValue(event, "Maximum Memory");
    executor.maxOnHeapMemory = Json.longValue(event, "Maximum Onheap Memory");
    executor.maxOffHeapMemory = Json.longValue(event, "Maximum Offheap Memory");
    executor.live = true;
  }

  private void executorAdded(JsonNode event) {
    String id = Json.requireText(event, "Executor ID");
    JsonNode info = Json.requireNode(event, "Executor Info");
    ExecutorAccumulator executor = getOrCreate(id, Json.longValue(event, "Timestamp"));
    boolean wasCounted = executor.live && executor.totalCores != null;
    executor.host = Json.text(info, "Host");
    executor.totalCores = Json.intValue(info, "Total Cores");
    executor.resourceProfileId = Json.intValue(info, "Resource Profile Id");
    executor.live = true;
    if (!wasCounted && !executor.isDriver()) {
      liveExecutors++;
      liveCores += executor.totalCores == null ? 0 : executor.totalCores;
      app.maxConcurrentExecutors = Math.max(app.maxConcurrentExecutors, liveExecutors);
      app.maxConcurrentCores = Math.max(app.maxConcurrentCores, liveCores);
    }
  }

  private void executorRemoved(JsonNode event) {
    ExecutorAccumulator executor = executors.get(Json.requireText(event, "Executor ID"));
    if (executor == null || !executor.live) {
      return;
    }
    executor.live = false;
    executor.removeTime = Json.longValue(event, "Timestamp");
    String reason = Json.text(event, "Removed Reason");
    executor.removeReason = reason == null ? null : redactor.redactText(reason);
    if (!executor.isDriver() && executor.totalCores != null) {
      liveExecutors--;
      liveCores -= executor.totalCores;
    }
  }

  private void exclude(JsonNode event, boolean excluded) {
    ExecutorAccumulator executor = live(Json.requireText(event, "executorId"));
    if (executor != null) {
      executor.excluded = excluded;
    }
  }

  private void excludeHost(JsonNode event, boolean excluded) {
    String host = Json.requireText(event, "hostId");
    executors.values().stream()
        .filter(e -> e.live && !e.isDriver() && host.equals(e.host))
        .forEach(e -> e.excluded = excluded);
  }

  private void stageExecutorMetrics(JsonNode event) {
    ExecutorAccumulator executor = live(Json.requireText(event, "Executor ID"));
    if (executor != null) {
      executor.updatePeaks(Json.node(event, "Executor Metrics"));
    }
  }

  void emit(Consumer<TableRow> sink) {
    Long uptime = app.ended ? Durations.between(app.startTime, app.endTime) : null;
    executors.values().forEach(executor -> sink.accept(executor.toRow(uptime)));
  }
}
