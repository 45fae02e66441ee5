package org.perflab.eventlog.parse;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.function.IntPredicate;
import org.perflab.table.TaskMetric;

/**
 * Streams a task start or end event into a {@link TaskEvent}. Only what the tables need is materialised; the rest,
 * accumulables above all, is tokenised (so malformed JSON is still caught) and skipped.
 */
final class TaskEventReader {
  static final String TASK_START_PREFIX = "{\"Event\":\"SparkListenerTaskStart\"";
  static final String TASK_END_PREFIX = "{\"Event\":\"SparkListenerTaskEnd\"";
  private static final byte[] TASK_START_BYTES = TASK_START_PREFIX.getBytes(StandardCharsets.UTF_8);
  private static final byte[] TASK_END_BYTES = TASK_END_PREFIX.getBytes(StandardCharsets.UTF_8);
  private static final JsonFactory FACTORY = SlimJson.FACTORY;
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final String PEAK_EXECUTION_MEMORY = "internal.metrics.peakExecutionMemory";
  private static final Map<TaskMetric.Section, Map<String, TaskMetric>> METRICS_BY_FIELD = metricsByField();

  private TaskEventReader() {}

  private static Map<TaskMetric.Section, Map<String, TaskMetric>> metricsByField() {
    Map<TaskMetric.Section, Map<String, TaskMetric>> bySection = new EnumMap<>(TaskMetric.Section.class);
    for (TaskMetric metric : TaskMetric.values()) {
      bySection.computeIfAbsent(metric.section(), s -> new HashMap<>()).put(metric.jsonField(), metric);
    }
    return bySection;
  }

  /** Whether the line is a task event in Spark's own field order, so that it can take the streaming path. */
  static boolean isTaskEventLine(String line) {
    return line.startsWith(TASK_END_PREFIX) || line.startsWith(TASK_START_PREFIX);
  }

  /** {@link #isTaskEventLine(String)} for the UTF-8 line {@code bytes[start, end)}. */
  static boolean isTaskEventLine(byte[] bytes, int start, int end) {
    return startsWith(bytes, start, end, TASK_END_BYTES) || startsWith(bytes, start, end, TASK_START_BYTES);
  }

  private static boolean startsWith(byte[] bytes, int start, int end, byte[] prefix) {
    return end - start >= prefix.length && Arrays.equals(bytes, start, start + prefix.length, prefix, 0, prefix.length);
  }

  static boolean isTaskEventType(String type) {
    return type.equals("SparkListenerTaskEnd") || type.equals("SparkListenerTaskStart");
  }

  /** Reads a task event; the accumulator updates of a task end are read when {@code sqlStages} takes its stage. */
  static TaskEvent read(String line, IntPredicate sqlStages) throws IOException {
    int[] accumulables = AccumulablesSpan.find(line);
    String slim = line;
    Long peakMemory = null;
    if (accumulables != null) {
      // The accumulables array is most of a task event; cut it out before tokenising, keeping only peak memory.
      String array = line.substring(accumulables[0], accumulables[1]);
      if (array.contains(PEAK_EXECUTION_MEMORY)) {
        try (JsonParser parser = FACTORY.createParser(array)) {
          TaskEvent holder = new TaskEvent();
          readPeakMemoryAccumulable(parser, parser.nextToken(), holder);
          peakMemory = holder.peakMemoryAccumulable;
        }
      }
      slim = line.substring(0, accumulables[0]) + "[]" + line.substring(accumulables[1]);
    }
    try (JsonParser parser = FACTORY.createParser(slim)) {
      TaskEvent event = read(parser);
      if (parser.nextToken() != null) {
        throw new JsonParseException(parser, "text after the JSON value");
      }
      if (peakMemory != null) {
        event.peakMemoryAccumulable = peakMemory;
        if (event.metrics != null && event.metrics[TaskMetric.PEAK_EXECUTION_MEMORY.ordinal()] == null) {
          event.metrics[TaskMetric.PEAK_EXECUTION_MEMORY.ordinal()] = peakMemory;
        }
      }
      if (accumulables != null && event.end && sqlStages.test(event.stageId)) {
        readAccumulatorUpdates(line.substring(accumulables[0], accumulables[1]), event);
      }
      return event;
    }
  }

  /** The JSON value {@code text} holds, read as the end reason of a task event is; fails on anything after it. */
  static JsonNode tree(String text) throws IOException {
    try (JsonParser parser = FACTORY.createParser(text)) {
      JsonToken first = parser.nextToken();
      JsonNode node = first == null ? null : endReason(parser, first);
      if (parser.nextToken() != null) {
        throw new JsonParseException(parser, "text after the JSON value");
      }
      return node;
    }
  }

  /**
   * A task's end reason as {@link TaskEnd} reads it, from the value whose first token the parser is at: of an object,
   * the fields {@link TaskEnd#FIELDS} whole (the last of a repeated one, as in a tree), the others validated and
   * skipped: a failure's stack traces and accumulator updates are most of its bytes. Any other value whole.
   */
  private static JsonNode endReason(JsonParser parser, JsonToken value) throws IOException {
    if (value != JsonToken.START_OBJECT) {
      return MAPPER.readTree(parser);
    }
    ObjectNode reason = MAPPER.getNodeFactory().objectNode();
    for (JsonToken token = parser.nextToken(); token != JsonToken.END_OBJECT; token = parser.nextToken()) {
      String name = parser.currentName();
      parser.nextToken();
      if (TaskEnd.FIELDS.contains(name)) {
        reason.set(name, MAPPER.readTree(parser));
      } else {
        parser.skipChildren();
      }
    }
    return reason;
  }

  /** Reads the event object the parser is about to start; the end-of-input check is the caller's. */
  static TaskEvent read(JsonParser parser) throws IOException {
    expect(parser, parser.nextToken(), JsonToken.START_OBJECT);
    TaskEvent event = new TaskEvent();
    boolean stage = false;
    boolean attempt = false;
    boolean info = false;
    for (JsonToken token = parser.nextToken(); token != JsonToken.END_OBJECT; token = parser.nextToken()) {
      expect(parser, token, JsonToken.FIELD_NAME);
      String name = parser.currentName();
      JsonToken value = parser.nextToken();
      switch (name) {
        case "Event" -> event.end = "SparkListenerTaskEnd".equals(parser.getText());
        case "Stage ID" -> {
          event.stageId = (int) number(parser, value, name);
          stage = true;
        }
        case "Stage Attempt ID" -> {
          event.stageAttemptId = (int) number(parser, value, name);
          attempt = true;
        }
        case "Task Type" -> event.taskType = value == JsonToken.VALUE_NULL ? null : parser.getText();
        case "Task End Reason" -> event.endReason = value == JsonToken.VALUE_NULL ? null : endReason(parser, value);
        case "Task Info" -> {
          expect(parser, value, JsonToken.START_OBJECT);
          readTaskInfo(parser, event);
          info = true;
        }
        case "Task Metrics" -> event.metrics = value == JsonToken.START_OBJECT ? readMetrics(parser) : null;
        case "Task Executor Metrics" -> readExecutorMetrics(parser, value, event);
        default -> parser.skipChildren();
      }
    }
    require(stage, "Stage ID");
    require(attempt, "Stage Attempt ID");
    require(info, "Task Info");
    if (event.metrics != null && event.metrics[TaskMetric.PEAK_EXECUTION_MEMORY.ordinal()] == null) {
      event.metrics[TaskMetric.PEAK_EXECUTION_MEMORY.ordinal()] = event.peakMemoryAccumulable;
    }
    return event;
  }

  private static void readTaskInfo(JsonParser parser, TaskEvent event) throws IOException {
    boolean taskId = false;
    boolean index = false;
    for (JsonToken token = parser.nextToken(); token != JsonToken.END_OBJECT; token = parser.nextToken()) {
      String name = parser.currentName();
      JsonToken value = parser.nextToken();
      switch (name) {
        case "Task ID" -> {
          event.taskId = number(parser, value, name);
          taskId = true;
        }
        case "Index" -> {
          event.index = (int) number(parser, value, name);
          index = true;
        }
        case "Attempt" -> event.attempt = (int) number(parser, value, name);
        case "Partition ID" -> event.partitionId = (int) number(parser, value, name);
        case "Launch Time" -> event.launchTime = optionalNumber(parser, value);
        case "Executor ID" -> event.executorId = text(parser, value);
        case "Host" -> event.host = text(parser, value);
        case "Locality" -> event.locality = text(parser, value);
        case "Speculative" -> event.speculative = value == JsonToken.VALUE_TRUE;
        case "Getting Result Time" -> event.gettingResultTime = optionalNumber(parser, value);
        case "Finish Time" -> event.finishTime = optionalNumber(parser, value);
        case "Failed" -> event.failed = value == JsonToken.VALUE_TRUE;
        case "Killed" -> event.killed = value == JsonToken.VALUE_TRUE;
        case "Accumulables" -> readPeakMemoryAccumulable(parser, value, event);
        default -> parser.skipChildren();
      }
    }
    require(taskId, "Task ID");
    require(index, "Index");
    require(event.executorId != null, "Executor ID");
  }

  private static Long[] readMetrics(JsonParser parser) throws IOException {
    Long[] values = new Long[TaskMetric.values().length];
    boolean[] sectionSeen = new boolean[TaskMetric.Section.values().length];
    readSection(parser, TaskMetric.Section.TASK, values, sectionSeen);
    for (TaskMetric metric : TaskMetric.values()) {
      if (!sectionSeen[metric.section().ordinal()] && metric.section() != TaskMetric.Section.SHUFFLE_PUSH_READ) {
        // An absent input, output or shuffle section means none of that happened, as Spark reads it.
        values[metric.ordinal()] = 0L;
      }
    }
    return values;
  }

  private static void readSection(JsonParser parser, TaskMetric.Section section, Long[] values,
      boolean[] sectionSeen) throws IOException {
    sectionSeen[section.ordinal()] = true;
    Map<String, TaskMetric> fields = METRICS_BY_FIELD.getOrDefault(section, Map.of());
    for (JsonToken token = parser.nextToken(); token != JsonToken.END_OBJECT; token = parser.nextToken()) {
      String name = parser.currentName();
      JsonToken value = parser.nextToken();
      TaskMetric metric = fields.get(name);
      TaskMetric.Section nested = value == JsonToken.START_OBJECT ? nestedSection(section, name) : null;
      if (metric != null) {
        values[metric.ordinal()] = optionalNumber(parser, value);
      } else if (nested != null) {
        readSection(parser, nested, values, sectionSeen);
      } else {
        parser.skipChildren();
      }
    }
  }

  private static TaskMetric.Section nestedSection(TaskMetric.Section parent, String name) {
    for (TaskMetric.Section section : TaskMetric.Section.values()) {
      if (name.equals(section.jsonField())
          && (section == TaskMetric.Section.SHUFFLE_PUSH_READ) == (parent == TaskMetric.Section.SHUFFLE_READ)) {
        return section;
      }
    }
    return null;
  }

  private static void readExecutorMetrics(JsonParser parser, JsonToken value, TaskEvent event) throws IOException {
    if (value != JsonToken.START_OBJECT) {
      parser.skipChildren();
      return;
    }
    event.hasExecutorMetrics = true;
    for (JsonToken token = parser.nextToken(); token != JsonToken.END_OBJECT; token = parser.nextToken()) {
      String name = parser.currentName();
      JsonToken metric = parser.nextToken();
      if (metric != JsonToken.VALUE_NUMBER_INT) {
        parser.skipChildren();
        continue;
      }
      if (event.executorMetricCount == event.executorMetricNames.length) {
        event.executorMetricNames = Arrays.copyOf(event.executorMetricNames, event.executorMetricCount * 2);
        event.executorMetricValues = Arrays.copyOf(event.executorMetricValues, event.executorMetricCount * 2);
      }
      event.executorMetricNames[event.executorMetricCount] = name;
      event.executorMetricValues[event.executorMetricCount++] = parser.getLongValue();
    }
  }

  private static void readPeakMemoryAccumulable(JsonParser parser, JsonToken value, TaskEvent event)
      throws IOException {
    if (value != JsonToken.START_ARRAY) {
      parser.skipChildren();
      return;
    }
    for (JsonToken token = parser.nextToken(); token != JsonToken.END_ARRAY; token = parser.nextToken()) {
      if (token != JsonToken.START_OBJECT) {
        parser.skipChildren();
        continue;
      }
      boolean peak = false;
      Long update = null;
      Long total = null;
      for (JsonToken field = parser.nextToken(); field != JsonToken.END_OBJECT; field = parser.nextToken()) {
        String name = parser.currentName();
        JsonToken fieldValue = parser.nextToken();
        switch (name) {
          case "Name" -> peak = fieldValue == JsonToken.VALUE_STRING && PEAK_EXECUTION_MEMORY.equals(parser.getText());
          case "Update" -> update = optionalNumber(parser, fieldValue);
          case "Value" -> total = optionalNumber(parser, fieldValue);
          default -> parser.skipChildren();
        }
      }
      if (peak) {
        event.peakMemoryAccumulable = update != null ? update : total;
      }
    }
  }

  /** Every (ID, Update) pair whose values are longs, as Spark's SQL listener reads them from a log. */
  private static void readAccumulatorUpdates(String array, TaskEvent event) throws IOException {
    try (JsonParser parser = FACTORY.createParser(array)) {
      expect(parser, parser.nextToken(), JsonToken.START_ARRAY);
      for (JsonToken token = parser.nextToken(); token != JsonToken.END_ARRAY; token = parser.nextToken()) {
        if (token == null) {
          throw new JsonParseException(parser, "unterminated accumulables");
        }
        if (token != JsonToken.START_OBJECT) {
          parser.skipChildren();
          continue;
        }
        Long id = null;
        Long update = null;
        for (JsonToken field = parser.nextToken(); field != JsonToken.END_OBJECT; field = parser.nextToken()) {
          expect(parser, field, JsonToken.FIELD_NAME);
          String name = parser.currentName();
          JsonToken value = parser.nextToken();
          if (name.equals("ID")) {
            id = longValue(parser, value);
          } else if (name.equals("Update")) {
            update = value == JsonToken.VALUE_STRING ? TaskEvent.parseUpdate(parser.getText()) : longValue(parser, value);
          } else {
            parser.skipChildren();
          }
        }
        if (id != null && update != null) {
          event.addAccumulable(id, update);
        }
      }
    }
  }

  private static Long longValue(JsonParser parser, JsonToken value) throws IOException {
    if (value == JsonToken.VALUE_NUMBER_INT && parser.getNumberType() != JsonParser.NumberType.BIG_INTEGER) {
      return parser.getLongValue();
    }
    parser.skipChildren();
    return null;
  }

  private static long number(JsonParser parser, JsonToken value, String field) throws IOException {
    Long number = optionalNumber(parser, value);
    if (number == null) {
      throw new Json.MissingFieldException(field);
    }
    return number;
  }

  /** A number, or a string holding one (some writers quote numbers); null for anything else. */
  private static Long optionalNumber(JsonParser parser, JsonToken value) throws IOException {
    if (value == JsonToken.VALUE_NUMBER_INT) {
      return parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER ? null : parser.getLongValue();
    }
    if (value == JsonToken.VALUE_STRING) {
      try {
        return Long.parseLong(parser.getText().trim());
      } catch (NumberFormatException e) {
        return null;
      }
    }
    parser.skipChildren();
    return null;
  }

  private static String text(JsonParser parser, JsonToken value) throws IOException {
    if (value == JsonToken.VALUE_NULL) {
      return null;
    }
    if (value.isScalarValue()) {
      return parser.getText();
    }
    parser.skipChildren();
    return null;
  }

  private static void expect(JsonParser parser, JsonToken actual, JsonToken expected) throws IOException {
    if (actual != expected) {
      throw new JsonParseException(parser, "expected " + expected + ", found " + actual);
    }
  }

  private static void require(boolean present, String field) {
    if (!present) {
      throw new Json.MissingFieldException(field);
    }
  }
}
