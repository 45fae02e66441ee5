package org.perflab.eventlog.parse;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Set;

/** Event names as logged by Spark 1.x to 4.x, normalised, and the ones PerfLab reads past on purpose. */
final class EventTypes {
  private static final String[] PACKAGE_PREFIXES = {
    "org.apache.spark.scheduler.", "org.apache.spark.sql.execution.ui.", "org.apache.spark.sql.streaming."
  };

  /** Known event types that carry nothing the tables need. */
  private static final Set<String> KNOWN_UNUSED =
      Set.of(
          "SparkListenerExecutorMetricsUpdate",
          "SparkListenerTaskGettingResult",
          "SparkListenerSpeculativeTaskSubmitted",
          "SparkListenerUnpersistRDD",
          "SparkListenerBlockManagerRemoved",
          "SparkListenerUnschedulableTaskSetAdded",
          "SparkListenerUnschedulableTaskSetRemoved",
          "SparkListenerMiscellaneousProcessAdded",
          "SparkListenerExecutorBlacklistedForStage",
          "SparkListenerExecutorExcludedForStage",
          "SparkListenerNodeBlacklistedForStage",
          "SparkListenerNodeExcludedForStage",
          "SparkListenerEffectiveSQLConf",
          "StreamingQueryListener$QueryStartedEvent",
          "StreamingQueryListener$QueryProgressEvent",
          "StreamingQueryListener$QueryIdleEvent",
          "StreamingQueryListener$QueryTerminatedEvent");

  private EventTypes() {}

  static String shortName(String type) {
    for (String prefix : PACKAGE_PREFIXES) {
      if (type.startsWith(prefix)) {
        return type.substring(prefix.length());
      }
    }
    return type;
  }

  static boolean isKnownButUnused(String shortName) {
    return KNOWN_UNUSED.contains(shortName);
  }

  /** The event's own time, in epoch ms, wherever the event type keeps it; null when it has none. */
  static Long time(JsonNode event) {
    Long time = Json.longValue(event, "Timestamp");
    if (time == null) {
      time = Json.longValue(event, "Completion Time");
    }
    if (time == null) {
      time = Json.longValue(event, "Submission Time");
    }
    if (time == null) {
      time = Json.longValue(event, "time");
    }
    if (time == null) {
      time = Json.longValue(Json.node(event, "Task Info"), "Finish Time");
    }
    if (time == null) {
      time = Json.longValue(Json.node(event, "Task Info"), "Launch Time");
    }
    if (time == null) {
      time = Json.longValue(Json.node(event, "Stage Info"), "Completion Time");
    }
    return time;
  }
}
