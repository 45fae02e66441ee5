package org.perflab.spark.changes;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongUnaryOperator;
import org.perflab.eventlog.fixture.LogFixtures;

/**
 * A real event log replayed at another time and speed: the same application under a new id, started at
 * {@code startMs}, with everything from its first task launch on taking {@code slowdown} times as long (every later
 * timestamp stretched from that launch, and every task's run, CPU, GC, deserialisation, fetch-wait and write times
 * multiplied), so its data, configuration and plan are unchanged and only its speed differs. What precedes the first
 * task (start-up, waiting for executors) keeps its length.
 */
final class RetimedLogs {
  private static final ObjectMapper JSON = new ObjectMapper();
  /** Epoch-ms fields; 0 means "not set" and stays 0. */
  private static final Set<String> INSTANTS = Set.of("Timestamp", "Submission Time", "Completion Time",
      "Launch Time", "Finish Time", "Getting Result Time", "Registration Time", "time");
  /** Spark properties holding epoch ms as text. */
  private static final Set<String> INSTANT_PROPERTIES = Set.of("spark.app.startTime", "spark.app.submitTime");
  /** Task-metric durations (ms, or ns for the CPU times): scaled by the slowdown. */
  private static final Set<String> DURATIONS = Set.of("Executor Run Time", "Executor CPU Time", "JVM GC Time",
      "Executor Deserialize Time", "Executor Deserialize CPU Time", "Result Serialization Time", "Fetch Wait Time",
      "Shuffle Write Time");

  private RetimedLogs() {}

  /**
   * The log's lines as application {@code appId} started at {@code startMs} (epoch ms), {@code slowdown} (> 0) times
   * as slow from its first task launch on.
   */
  static List<String> retimed(List<String> lines, String appId, long startMs, double slowdown) {
    List<JsonNode> events = lines.stream().filter(l -> !l.isBlank()).map(RetimedLogs::parse).toList();
    long appStart = first(events, "SparkListenerApplicationStart", e -> e.path("Timestamp").asLong());
    long firstLaunch = events.stream().filter(e -> e.path("Event").asText().equals("SparkListenerTaskStart"))
        .mapToLong(e -> e.path("Task Info").path("Launch Time").asLong()).min().orElse(appStart);
    LongUnaryOperator shift = t -> startMs + (t < firstLaunch ? t - appStart
        : firstLaunch - appStart + Math.round(slowdown * (t - firstLaunch)));
    List<String> out = new ArrayList<>(events.size());
    for (JsonNode event : events) {
      retime(event, shift, slowdown);
      out.add(write(event));
    }
    return LogFixtures.withAppId(out, appId);
  }

  private static void retime(JsonNode node, LongUnaryOperator shift, double slowdown) {
    if (node.isArray()) {
      node.forEach(child -> retime(child, shift, slowdown));
      return;
    }
    if (!node.isObject()) {
      return;
    }
    ObjectNode object = (ObjectNode) node;
    for (Map.Entry<String, JsonNode> field : object.properties()) {
      String name = field.getKey();
      JsonNode value = field.getValue();
      if (INSTANTS.contains(name) && value.isIntegralNumber() && value.asLong() > 0) {
        object.put(name, shift.applyAsLong(value.asLong()));
      } else if (INSTANT_PROPERTIES.contains(name) && value.isTextual()) {
        object.put(name, Long.toString(shift.applyAsLong(Long.parseLong(value.asText()))));
      } else if (DURATIONS.contains(name) && value.isIntegralNumber()) {
        object.put(name, Math.round(slowdown * value.asLong()));
      } else {
        retime(value, shift, slowdown);
      }
    }
  }

  private static long first(List<JsonNode> events, String type, java.util.function.ToLongFunction<JsonNode> value) {
    return events.stream().filter(e -> e.path("Event").asText().equals(type)).mapToLong(value).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("Cannot retime the log: it has no " + type));
  }

  private static JsonNode parse(String line) {
    try {
      return JSON.readTree(line);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("Cannot retime the log: a line is not JSON (" + e.getOriginalMessage() + ")",
          e);
    }
  }

  private static String write(JsonNode event) {
    try {
      return JSON.writeValueAsString(event);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
