package org.perflab.eventlog.parse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.function.IntPredicate;
import org.perflab.table.TaskMetric;

/**
 * The fastest path for task events: a validating scanner over the line's characters that reads the fields the
 * tables need without tokenising into objects. It handles the shape Spark writes (no escapes in the strings it keeps,
 * integral metrics, a successful end reason) and gives up, returning null, on anything else: malformed JSON included.
 * The caller then reads the line with {@link TaskEventReader}, which decides. It never accepts a line that Jackson
 * rejects, and a test holds it to the same result as {@code TaskEventReader} on every line it accepts.
 */
final class TaskLineScanner {
  private static final JsonNode SUCCESS =
      JsonNodeFactory.instance.objectNode().put("Reason", "Success");
  private static final String PEAK_EXECUTION_MEMORY = "internal.metrics.peakExecutionMemory";
  private static final TaskMetric[] METRICS = TaskMetric.values();
  private static final Map<String, TaskMetric.Section> SECTIONS = sections();

  /** Thrown, without a stack trace, when the scanner gives up. */
  private static final class GiveUp extends RuntimeException {
    GiveUp() {
      super(null, null, false, false);
    }
  }

  private static final GiveUp GIVE_UP = new GiveUp();

  private static final String[] TOP_LEVEL_KEYS = {
    "Event", "Stage ID", "Stage Attempt ID", "Task Type", "Task End Reason", "Task Info", "Task Metrics",
    "Task Executor Metrics"
  };
  private static final String[] TASK_INFO_KEYS = {
    "Task ID", "Index", "Attempt", "Partition ID", "Launch Time", "Executor ID", "Host", "Locality", "Speculative",
    "Getting Result Time", "Finish Time", "Failed", "Killed", "Accumulables"
  };
  private static final String PEAK_MEMORY_FIELD = "\"Peak Execution Memory\"";

  private final String s;
  private final int n;
  /** Whether the task metrics carry peak execution memory themselves (Spark 3.0+), so accumulables are skipped. */
  private final boolean peakInMetrics;
  /** The stages whose task ends' accumulator updates the caller wants (SQL stages). */
  private final IntPredicate sqlStages;
  private boolean typeSeen;
  private boolean stageSeen;
  private int p;
  /** Executor metric names of the previous event, reused when the next event has the same name at the same place. */
  private String[] names = new String[0];
  private long number;
  private boolean integral;
  private boolean escaped;

  TaskLineScanner(String line, IntPredicate sqlStages) {
    this.s = line;
    this.n = line.length();
    this.peakInMetrics = line.contains(PEAK_MEMORY_FIELD);
    this.sqlStages = sqlStages;
  }

  private static Map<String, TaskMetric.Section> sections() {
    Map<String, TaskMetric.Section> sections = new HashMap<>();
    for (TaskMetric.Section section : TaskMetric.Section.values()) {
      if (section.jsonField() != null) {
        sections.put(section.jsonField(), section);
      }
    }
    return sections;
  }

  /**
   * The event, or null when the line is not one this scanner takes. The accumulator updates of a task end are read
   * when {@code sqlStages} accepts its stage id.
   */
  static TaskEvent scan(String line, String[] previousExecutorMetricNames, IntPredicate sqlStages) {
    TaskLineScanner scanner = new TaskLineScanner(line, sqlStages);
    scanner.names = previousExecutorMetricNames;
    try {
      return scanner.event();
    } catch (GiveUp | IndexOutOfBoundsException e) {
      return null;
    }
  }

  private TaskEvent event() {
    TaskEvent event = new TaskEvent();
    boolean stage = false;
    boolean attempt = false;
    boolean info = false;
    boolean type = false;
    ws();
    expect('{');
    ws();
    if (peek() != '}') {
      do {
        ws();
        int keyStart = p + 1;
        int keyEnd = string();
        ws();
        expect(':');
        ws();
        switch (known(keyStart, keyEnd, TOP_LEVEL_KEYS)) {
          case "Event" -> {
            int start = p + 1;
            int end = requireString();
            event.end = region(start, end, "SparkListenerTaskEnd");
            type = event.end || region(start, end, "SparkListenerTaskStart");
            typeSeen = true;
          }
          case "Stage ID" -> {
            event.stageId = (int) requireLong();
            stage = true;
            stageSeen = true;
          }
          case "Stage Attempt ID" -> {
            event.stageAttemptId = (int) requireLong();
            attempt = true;
          }
          case "Task Type" -> event.taskType = text();
          case "Task End Reason" -> event.endReason = successReason();
          case "Task Info" -> {
            taskInfo(event);
            info = true;
          }
          case "Task Metrics" -> event.metrics = metrics();
          case "Task Executor Metrics" -> executorMetrics(event);
          default -> skipValue();
        }
        ws();
      } while (next(','));
    }
    expect('}');
    ws();
    if (p != n || !type || !stage || !attempt || !info) {
      throw GIVE_UP;
    }
    if (event.metrics != null && event.metrics[TaskMetric.PEAK_EXECUTION_MEMORY.ordinal()] == null) {
      event.metrics[TaskMetric.PEAK_EXECUTION_MEMORY.ordinal()] = event.peakMemoryAccumulable;
    }
    return event;
  }

  private void taskInfo(TaskEvent event) {
    boolean taskId = false;
    boolean index = false;
    expect('{');
    ws();
    if (peek() != '}') {
      do {
        ws();
        int keyStart = p + 1;
        int keyEnd = string();
        ws();
        expect(':');
        ws();
        switch (known(keyStart, keyEnd, TASK_INFO_KEYS)) {
          case "Task ID" -> {
            event.taskId = requireLong();
            taskId = true;
          }
          case "Index" -> {
            event.index = (int) requireLong();
            index = true;
          }
          case "Attempt" -> event.attempt = (int) requireLong();
          case "Partition ID" -> event.partitionId = (int) requireLong();
          case "Launch Time" -> event.launchTime = requireLong();
          case "Executor ID" -> event.executorId = text();
          case "Host" -> event.host = text();
          case "Locality" -> event.locality = text();
          case "Speculative" -> event.speculative = bool();
          case "Getting Result Time" -> event.gettingResultTime = requireLong();
          case "Finish Time" -> event.finishTime = requireLong();
          case "Failed" -> event.failed = bool();
          case "Killed" -> event.killed = bool();
          case "Accumulables" -> accumulables(event);
          default -> skipValue();
        }
        ws();
      } while (next(','));
    }
    expect('}');
    if (!taskId || !index || event.executorId == null) {
      throw GIVE_UP;
    }
  }

  private Long[] metrics() {
    if (peek() == 'n') {
      literal("null");
      return null;
    }
    Long[] values = new Long[METRICS.length];
    boolean[] seen = new boolean[TaskMetric.Section.values().length];
    section(TaskMetric.Section.TASK, values, seen);
    for (TaskMetric metric : METRICS) {
      if (!seen[metric.section().ordinal()] && metric.section() != TaskMetric.Section.SHUFFLE_PUSH_READ) {
        values[metric.ordinal()] = 0L;
      }
    }
    return values;
  }

  private void section(TaskMetric.Section section, Long[] values, boolean[] seen) {
    seen[section.ordinal()] = true;
    expect('{');
    ws();
    if (peek() != '}') {
      do {
        ws();
        int keyStart = p + 1;
        int keyEnd = string();
        ws();
        expect(':');
        ws();
        TaskMetric metric = metric(section, keyStart, keyEnd);
        TaskMetric.Section nested = peek() == '{' ? nested(section, keyStart, keyEnd) : null;
        if (metric != null) {
          values[metric.ordinal()] = optionalLong();
        } else if (nested != null) {
          section(nested, values, seen);
        } else {
          skipValue();
        }
        ws();
      } while (next(','));
    }
    expect('}');
  }

  private TaskMetric metric(TaskMetric.Section section, int start, int end) {
    for (TaskMetric metric : METRICS) {
      if (metric.section() == section && region(start, end, metric.jsonField())) {
        return metric;
      }
    }
    return null;
  }

  private TaskMetric.Section nested(TaskMetric.Section parent, int start, int end) {
    TaskMetric.Section section = SECTIONS.get(key(start, end));
    if (section == null) {
      return null;
    }
    boolean push = section == TaskMetric.Section.SHUFFLE_PUSH_READ;
    return push == (parent == TaskMetric.Section.SHUFFLE_READ) ? section : null;
  }

  private void executorMetrics(TaskEvent event) {
    if (peek() != '{') {
      skipValue();
      return;
    }
    event.hasExecutorMetrics = true;
    expect('{');
    ws();
    if (peek() != '}') {
      do {
        ws();
        int keyStart = p + 1;
        int keyEnd = string();
        ws();
        expect(':');
        ws();
        if (!numberAhead()) {
          skipValue();
        } else {
          long value = requireLong();
          int i = event.executorMetricCount;
          if (i == event.executorMetricNames.length) {
            event.executorMetricNames = Arrays.copyOf(event.executorMetricNames, i * 2);
            event.executorMetricValues = Arrays.copyOf(event.executorMetricValues, i * 2);
          }
          String name = i < names.length && names[i] != null && region(keyStart, keyEnd, names[i]) ? names[i]
              : key(keyStart, keyEnd);
          event.executorMetricNames[i] = name;
          event.executorMetricValues[i] = value;
          event.executorMetricCount++;
        }
        ws();
      } while (next(','));
    }
    expect('}');
  }

  private void accumulables(TaskEvent event) {
    if (!typeSeen || !stageSeen) {
      // Not Spark's field order: whether the updates are wanted is the reader's to decide.
      throw GIVE_UP;
    }
    boolean sql = event.end && sqlStages.test(event.stageId);
    if (peek() != '[' || (peakInMetrics && !sql)) {
      skipValue();
      return;
    }
    p++;
    ws();
    if (peek() != ']') {
      do {
        ws();
        if (peek() != '{') {
          skipValue();
        } else {
          accumulable(event, sql);
        }
        ws();
      } while (next(','));
    }
    expect(']');
  }

  private void accumulable(TaskEvent event, boolean sql) {
    boolean peak = false;
    Long id = null;
    Long update = null;
    Long total = null;
    expect('{');
    ws();
    if (peek() != '}') {
      do {
        ws();
        int keyStart = p + 1;
        int keyEnd = string();
        ws();
        expect(':');
        ws();
        if (region(keyStart, keyEnd, "Name") && peek() == '"') {
          int start = p + 1;
          int end = string();
          peak = !escaped && region(start, end, PEAK_EXECUTION_MEMORY);
        } else if (region(keyStart, keyEnd, "ID") && sql) {
          id = optionalLong();
        } else if (region(keyStart, keyEnd, "Update")) {
          update = sql ? updateValue() : optionalLong();
        } else if (region(keyStart, keyEnd, "Value") && !peakInMetrics) {
          total = sql ? updateValue() : optionalLong();
        } else {
          skipValue();
        }
        ws();
      } while (next(','));
    }
    expect('}');
    if (peak && !peakInMetrics) {
      event.peakMemoryAccumulable = update != null ? update : total;
    }
    if (sql && id != null && update != null) {
      event.addAccumulable(id, update);
    }
  }

  /**
   * An update as Spark's SQL listener reads it: a string or an integer holding a long; null for anything else. Strings
   * with escapes and numbers that are not plain longs are left to Jackson.
   */
  private Long updateValue() {
    char c = peek();
    if (c == '"') {
      int start = p + 1;
      int end = requireString();
      return TaskEvent.parseUpdate(s.substring(start, end));
    }
    if (!numberAhead()) {
      skipValue();
      return null;
    }
    return requireLong();
  }

  /** {@code {"Reason":"Success"}}, the end reason of almost every task; anything else is left to Jackson. */
  private JsonNode successReason() {
    expect('{');
    ws();
    int keyStart = p + 1;
    int keyEnd = string();
    ws();
    expect(':');
    ws();
    int start = p + 1;
    int end = requireString();
    ws();
    expect('}');
    if (!region(keyStart, keyEnd, "Reason") || !region(start, end, "Success")) {
      throw GIVE_UP;
    }
    return SUCCESS;
  }

  // ---- JSON primitives, validating ----

  private char peek() {
    return s.charAt(p);
  }

  private void ws() {
    while (p < n) {
      char c = s.charAt(p);
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        return;
      }
      p++;
    }
  }

  private void expect(char c) {
    if (p >= n || s.charAt(p) != c) {
      throw GIVE_UP;
    }
    p++;
  }

  private boolean next(char c) {
    if (p < n && s.charAt(p) == c) {
      p++;
      return true;
    }
    return false;
  }

  private boolean region(int start, int end, String text) {
    return !escaped && end - start == text.length() && s.regionMatches(start, text, 0, end - start);
  }

  /**
   * The key if it is one of {@code keys} (the same String instance, so a switch on it is cheap), or an empty string
   * for any other key; keys with escapes are not Spark's and make the scanner give up.
   */
  private String known(int start, int end, String[] keys) {
    if (escaped) {
      throw GIVE_UP;
    }
    for (String key : keys) {
      if (end - start == key.length() && s.regionMatches(start, key, 0, key.length())) {
        return key;
      }
    }
    return "";
  }

  /** A key as a string for switching; keys with escapes are not Spark's and make the scanner give up. */
  private String key(int start, int end) {
    if (escaped) {
      throw GIVE_UP;
    }
    return s.substring(start, end);
  }

  /** Scans a string starting at its opening quote; returns the end of its content. Sets {@link #escaped}. */
  private int string() {
    expect('"');
    escaped = false;
    while (true) {
      char c = s.charAt(p);
      if (c == '"') {
        return p++;
      }
      if (c < 0x20) {
        throw GIVE_UP;
      }
      if (c == '\\') {
        escaped = true;
        char e = s.charAt(p + 1);
        if (e == 'u') {
          for (int i = 2; i < 6; i++) {
            if (Character.digit(s.charAt(p + i), 16) < 0) {
              throw GIVE_UP;
            }
          }
          p += 6;
          continue;
        }
        if ("\"\\/bfnrt".indexOf(e) < 0) {
          throw GIVE_UP;
        }
        p += 2;
        continue;
      }
      p++;
    }
  }

  private int requireString() {
    if (peek() != '"') {
      throw GIVE_UP;
    }
    int end = string();
    if (escaped) {
      throw GIVE_UP;
    }
    return end;
  }

  /** A string value without escapes, or null for a JSON null. */
  private String text() {
    if (peek() == 'n') {
      literal("null");
      return null;
    }
    int start = p + 1;
    int end = requireString();
    return s.substring(start, end);
  }

  private boolean bool() {
    if (peek() == 't') {
      literal("true");
      return true;
    }
    literal("false");
    return false;
  }

  private void literal(String word) {
    if (!s.startsWith(word, p)) {
      throw GIVE_UP;
    }
    p += word.length();
  }

  private boolean numberAhead() {
    char c = peek();
    return c == '-' || (c >= '0' && c <= '9');
  }

  /** Scans a JSON number; sets {@link #number} and {@link #integral} (false for fractions, exponents, overflow). */
  private void scanNumber() {
    boolean negative = next('-');
    int digitsStart = p;
    long value = 0;
    while (p < n && s.charAt(p) >= '0' && s.charAt(p) <= '9') {
      value = value * 10 + (s.charAt(p) - '0');
      p++;
    }
    int digits = p - digitsStart;
    if (digits == 0 || (digits > 1 && s.charAt(digitsStart) == '0')) {
      throw GIVE_UP;
    }
    integral = digits <= 18;
    if (p < n && s.charAt(p) == '.') {
      p++;
      requireDigits();
      integral = false;
    }
    if (p < n && (s.charAt(p) == 'e' || s.charAt(p) == 'E')) {
      p++;
      if (p < n && (s.charAt(p) == '+' || s.charAt(p) == '-')) {
        p++;
      }
      requireDigits();
      integral = false;
    }
    number = negative ? -value : value;
  }

  private void requireDigits() {
    int start = p;
    while (p < n && s.charAt(p) >= '0' && s.charAt(p) <= '9') {
      p++;
    }
    if (p == start) {
      throw GIVE_UP;
    }
  }

  private long requireLong() {
    if (!numberAhead()) {
      throw GIVE_UP;
    }
    scanNumber();
    if (!integral) {
      throw GIVE_UP;
    }
    return number;
  }

  /** An integral number, or null for null; anything else makes the scanner give up (Jackson decides). */
  private Long optionalLong() {
    if (peek() == 'n') {
      literal("null");
      return null;
    }
    return requireLong();
  }

  private void skipValue() {
    char c = peek();
    switch (c) {
      case '{' -> {
        p++;
        ws();
        if (peek() != '}') {
          do {
            ws();
            string();
            ws();
            expect(':');
            ws();
            skipValue();
            ws();
          } while (next(','));
        }
        expect('}');
      }
      case '[' -> {
        p++;
        ws();
        if (peek() != ']') {
          do {
            ws();
            skipValue();
            ws();
          } while (next(','));
        }
        expect(']');
      }
      case '"' -> string();
      case 't' -> literal("true");
      case 'f' -> literal("false");
      case 'n' -> literal("null");
      default -> {
        if (!numberAhead()) {
          throw GIVE_UP;
        }
        scanNumber();
      }
    }
  }
}
