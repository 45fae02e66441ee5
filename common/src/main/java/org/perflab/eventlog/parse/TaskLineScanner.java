package org.perflab.eventlog.parse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntPredicate;
import org.perflab.table.TaskMetric;

/**
 * The fastest path for task events: a validating scanner over the line's UTF-8 bytes that reads the fields the tables
 * need without decoding the line or tokenising it into objects. It handles the shape Spark writes (no escapes in the
 * strings it keeps, integral metrics, a successful end reason) and gives up, returning null, on anything else:
 * malformed JSON included. The caller then reads the line with {@link TaskEventReader}, which decides. It never
 * accepts a line that Jackson rejects, and a test holds it to the same result as {@code TaskEventReader} on every line
 * it accepts.
 *
 * <p>Bytes are read as the line decoder would read them: a byte of 0x80 and above only occurs inside a string (outside,
 * it is malformed JSON either way), and the values kept are decoded as UTF-8 with U+FFFD for malformed bytes. One
 * scanner serves the lines of one log in turn, so that the strings events repeat (executor ids, hosts, metric names)
 * are decoded once. Not thread-safe.
 */
final class TaskLineScanner {
  private static final JsonNode SUCCESS =
      JsonNodeFactory.instance.objectNode().put("Reason", "Success");
  private static final TaskMetric[] METRICS = TaskMetric.values();
  private static final TaskMetric.Section[] SECTIONS = TaskMetric.Section.values();
  private static final byte[] PEAK_EXECUTION_MEMORY = utf8("internal.metrics.peakExecutionMemory");
  private static final byte[] TASK_END = utf8("SparkListenerTaskEnd");
  private static final byte[] TASK_START = utf8("SparkListenerTaskStart");
  private static final byte[] REASON = utf8("Reason");
  private static final byte[] SUCCESS_TEXT = utf8("Success");
  private static final byte[] NULL = utf8("null");
  private static final byte[] TRUE = utf8("true");
  private static final byte[] FALSE = utf8("false");
  private static final PeakField PEAK_FIELD = new PeakField(utf8("\"Peak Execution Memory\""));

  /** Thrown, without a stack trace, when the scanner gives up. */
  private static final class GiveUp extends RuntimeException {
    GiveUp() {
      super(null, null, false, false);
    }
  }

  private static final GiveUp GIVE_UP = new GiveUp();

  private static final int EVENT = 0;
  private static final int STAGE_ID = 1;
  private static final int STAGE_ATTEMPT_ID = 2;
  private static final int TASK_TYPE = 3;
  private static final int TASK_END_REASON = 4;
  private static final int TASK_INFO = 5;
  private static final int TASK_METRICS = 6;
  private static final int TASK_EXECUTOR_METRICS = 7;
  private static final JsonKeys TOP_LEVEL_KEYS = new JsonKeys("Event", "Stage ID", "Stage Attempt ID", "Task Type",
      "Task End Reason", "Task Info", "Task Metrics", "Task Executor Metrics");

  private static final int TASK_ID = 0;
  private static final int INDEX = 1;
  private static final int ATTEMPT = 2;
  private static final int PARTITION_ID = 3;
  private static final int LAUNCH_TIME = 4;
  private static final int EXECUTOR_ID = 5;
  private static final int HOST = 6;
  private static final int LOCALITY = 7;
  private static final int SPECULATIVE = 8;
  private static final int GETTING_RESULT_TIME = 9;
  private static final int FINISH_TIME = 10;
  private static final int FAILED = 11;
  private static final int KILLED = 12;
  private static final int ACCUMULABLES = 13;
  private static final JsonKeys TASK_INFO_KEYS = new JsonKeys("Task ID", "Index", "Attempt", "Partition ID",
      "Launch Time", "Executor ID", "Host", "Locality", "Speculative", "Getting Result Time", "Finish Time", "Failed",
      "Killed", "Accumulables");

  private static final int ACCUMULABLE_NAME = 0;
  private static final int ACCUMULABLE_ID = 1;
  private static final int ACCUMULABLE_UPDATE = 2;
  private static final int ACCUMULABLE_VALUE = 3;
  /**
   * The keys read, then the keys Spark writes that no table needs: those are found (and their order learnt, so that the
   * key after them is guessed right) and skipped.
   */
  private static final JsonKeys ACCUMULABLE_KEYS =
      new JsonKeys("Name", "ID", "Update", "Value", "Internal", "Count Failed Values", "Metadata");

  /**
   * Per section, its metrics by JSON field, then the sections that may nest in it, then the keys Spark writes there
   * that no table needs. An index below the section's number of metrics is a position in {@link #SECTION_METRICS}; one
   * above it a position in {@link #NESTED_SECTIONS}, which holds null for the unneeded keys.
   */
  private static final JsonKeys[] METRIC_KEYS = new JsonKeys[SECTIONS.length];
  private static final TaskMetric[][] SECTION_METRICS = new TaskMetric[SECTIONS.length][];
  private static final TaskMetric.Section[][] NESTED_SECTIONS = new TaskMetric.Section[SECTIONS.length][];

  static {
    for (TaskMetric.Section section : SECTIONS) {
      TaskMetric[] metrics = Arrays.stream(METRICS).filter(m -> m.section() == section).toArray(TaskMetric[]::new);
      SECTION_METRICS[section.ordinal()] = metrics;
      List<String> keys = new ArrayList<>(Arrays.stream(metrics).map(TaskMetric::jsonField).toList());
      List<TaskMetric.Section> nested = new ArrayList<>();
      for (TaskMetric.Section child : SECTIONS) {
        // The push-based section nests in the shuffle read section only, the others anywhere else, as the reader
        // takes them.
        boolean push = child == TaskMetric.Section.SHUFFLE_PUSH_READ;
        if (child.jsonField() != null && push == (section == TaskMetric.Section.SHUFFLE_READ)) {
          keys.add(child.jsonField());
          nested.add(child);
        }
      }
      for (String unneeded : switch (section) {
        case TASK -> List.of("Peak On Heap Execution Memory", "Peak Off Heap Execution Memory", "Updated Blocks");
        case INPUT -> List.of("Data Read Method");
        default -> List.<String>of();
      }) {
        keys.add(unneeded);
        nested.add(null);
      }
      METRIC_KEYS[section.ordinal()] = new JsonKeys(keys.toArray(String[]::new));
      NESTED_SECTIONS[section.ordinal()] = nested.toArray(TaskMetric.Section[]::new);
    }
  }

  /** The stages whose task ends' accumulator updates the caller wants (SQL stages). */
  private final IntPredicate sqlStages;
  private final TextCache texts = new TextCache();
  /** By position in a task's executor metrics, the key read there last time (its UTF-8 bytes and its text). */
  private byte[][] executorMetricKeys = new byte[32][];
  private String[] executorMetricNames = new String[32];
  private final KeyOrder topLevelOrder = new KeyOrder(TOP_LEVEL_KEYS);
  private final KeyOrder taskInfoOrder = new KeyOrder(TASK_INFO_KEYS);
  private final KeyOrder accumulableOrder = new KeyOrder(ACCUMULABLE_KEYS);
  private final KeyOrder[] metricOrders = Arrays.stream(METRIC_KEYS).map(KeyOrder::new).toArray(KeyOrder[]::new);
  private byte[] b;
  private int lineStart;
  private int n;
  /** Whether the task metrics held peak execution memory: then the line holds {@code "Peak Execution Memory"}. */
  private boolean peakMetricSeen;
  /** Where the accumulables array of a task end outside SQL stages starts, skipped for now; -1 when none. */
  private int skippedAccumulables;
  /** Whether an accumulable named peak execution memory was read, and the update (else value) of the last one. */
  private boolean peakAccumulableSeen;
  private Long peakAccumulable;
  private boolean typeSeen;
  private boolean stageSeen;
  private int p;
  private long number;
  private boolean integral;
  private boolean escaped;

  /** @param sqlStages the stages whose task ends' accumulator updates are read */
  TaskLineScanner(IntPredicate sqlStages) {
    this.sqlStages = sqlStages;
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /** The event, or null when the line is not one this scanner takes. */
  TaskEvent scan(String line) {
    byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
    if (bytes.length != line.length() && hasSurrogate(line)) {
      // Not text a UTF-8 decoder produces; its bytes would not decode back to it. Jackson decides.
      return null;
    }
    return scan(bytes, 0, bytes.length);
  }

  private static boolean hasSurrogate(String line) {
    for (int i = 0; i < line.length(); i++) {
      if (Character.isSurrogate(line.charAt(i))) {
        return true;
      }
    }
    return false;
  }

  /**
   * The event held in the UTF-8 bytes {@code line[start, end)}, or null when the line is not one this scanner takes.
   * The accumulator updates of a task end are read when the scanner's {@code sqlStages} accepts its stage id.
   */
  TaskEvent scan(byte[] line, int start, int end) {
    b = line;
    lineStart = start;
    n = end;
    p = start;
    peakMetricSeen = false;
    skippedAccumulables = -1;
    peakAccumulableSeen = false;
    peakAccumulable = null;
    typeSeen = false;
    stageSeen = false;
    escaped = false;
    try {
      return event();
    } catch (GiveUp e) {
      return null;
    } finally {
      b = null;
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
    topLevelOrder.previous = -1;
    if (peek() != '}') {
      do {
        ws();
        int key = key(topLevelOrder);
        switch (key) {
          case EVENT -> {
            int start = p + 1;
            int end = requireString();
            event.end = region(start, end, TASK_END);
            type = event.end || region(start, end, TASK_START);
            typeSeen = true;
          }
          case STAGE_ID -> {
            event.stageId = (int) requireLong();
            stage = true;
            stageSeen = true;
          }
          case STAGE_ATTEMPT_ID -> {
            event.stageAttemptId = (int) requireLong();
            attempt = true;
          }
          case TASK_TYPE -> event.taskType = text();
          case TASK_END_REASON -> event.endReason = endReason();
          case TASK_INFO -> {
            taskInfo(event);
            info = true;
          }
          case TASK_METRICS -> event.metrics = metrics();
          case TASK_EXECUTOR_METRICS -> executorMetrics(event);
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
    peakFromAccumulables(event);
    if (event.metrics != null && event.metrics[TaskMetric.PEAK_EXECUTION_MEMORY.ordinal()] == null) {
      event.metrics[TaskMetric.PEAK_EXECUTION_MEMORY.ordinal()] = event.peakMemoryAccumulable;
    }
    return event;
  }

  /**
   * Reads a key, its colon and the whitespace after it; returns its index in the order's keys, or -1 for any other
   * key. Keys with escapes are not Spark's and make the scanner give up.
   */
  private int key(KeyOrder order) {
    int guessed = guessedKey(order);
    if (guessed >= 0) {
      return guessed;
    }
    int found = order.keys.find(b, p + 1, plainKey());
    order.found(found);
    return found;
  }

  /**
   * Spark writes the keys of each kind of object in one order. When the key at {@link #p} is the one that followed the
   * previous key of this kind of object last time, reads it, its colon and the whitespace after it, and returns its
   * index; else returns -1 and leaves {@link #p} where it was. Checking the expected key in place costs one comparison,
   * where finding a key costs a search for its closing quote, a hash and a comparison.
   */
  private int guessedKey(KeyOrder order) {
    int guess = order.expected();
    if (guess < 0 || p >= n || b[p] != '"' || !order.keys.at(guess, b, p + 1, n)) {
      return -1;
    }
    p += order.keys.length(guess) + 2;
    escaped = false;
    ws();
    expect(':');
    ws();
    order.previous = guess;
    return guess;
  }

  /**
   * Per kind of object (the top level, the task info, an accumulable, each metrics section), its keys and the key that
   * followed each of them the last time, learnt as the lines are scanned: a scanner's lines share their writer's order.
   */
  private static final class KeyOrder {
    final JsonKeys keys;
    /** By the previous key's index plus one (0: the object's first key), the next key's index plus one; 0 unknown. */
    private final int[] next;
    /** The index of the object's last known key read; -1 at the object's start. */
    int previous = -1;

    KeyOrder(JsonKeys keys) {
      this.keys = keys;
      this.next = new int[keys.size() + 1];
    }

    int expected() {
      return next[previous + 1] - 1;
    }

    /** Learns that key {@code found} (-1: a key not in the table, which teaches nothing) followed the previous one. */
    void found(int found) {
      if (found >= 0) {
        next[previous + 1] = found + 1;
        previous = found;
      }
    }
  }

  /**
   * Reads a key, its colon and the whitespace after it; returns where the key's text ends (it starts one byte after the
   * position before the call). Keys with escapes are not Spark's and make the scanner give up.
   */
  private int plainKey() {
    int end = string();
    if (escaped) {
      throw GIVE_UP;
    }
    ws();
    expect(':');
    ws();
    return end;
  }

  private void taskInfo(TaskEvent event) {
    boolean taskId = false;
    boolean index = false;
    expect('{');
    ws();
    taskInfoOrder.previous = -1;
    if (peek() != '}') {
      do {
        ws();
        switch (key(taskInfoOrder)) {
          case TASK_ID -> {
            event.taskId = requireLong();
            taskId = true;
          }
          case INDEX -> {
            event.index = (int) requireLong();
            index = true;
          }
          case ATTEMPT -> event.attempt = (int) requireLong();
          case PARTITION_ID -> event.partitionId = (int) requireLong();
          case LAUNCH_TIME -> event.launchTime = requireLong();
          case EXECUTOR_ID -> event.executorId = text();
          case HOST -> event.host = text();
          case LOCALITY -> event.locality = text();
          case SPECULATIVE -> event.speculative = bool();
          case GETTING_RESULT_TIME -> event.gettingResultTime = requireLong();
          case FINISH_TIME -> event.finishTime = requireLong();
          case FAILED -> event.failed = bool();
          case KILLED -> event.killed = bool();
          case ACCUMULABLES -> accumulables(event);
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
      literal(NULL);
      return null;
    }
    Long[] values = new Long[METRICS.length];
    boolean[] seen = new boolean[SECTIONS.length];
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
    KeyOrder order = metricOrders[section.ordinal()];
    TaskMetric[] metrics = SECTION_METRICS[section.ordinal()];
    expect('{');
    ws();
    order.previous = -1;
    if (peek() != '}') {
      do {
        ws();
        int found = key(order);
        if (found >= 0 && found < metrics.length) {
          TaskMetric metric = metrics[found];
          values[metric.ordinal()] = optionalNumber();
          peakMetricSeen |= metric == TaskMetric.PEAK_EXECUTION_MEMORY;
        } else {
          TaskMetric.Section nested = found < 0 ? null : NESTED_SECTIONS[section.ordinal()][found - metrics.length];
          if (nested != null && peek() == '{') {
            section(nested, values, seen);
          } else {
            skipValue();
          }
        }
        ws();
      } while (next(','));
    }
    expect('}');
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
      int position = 0;
      do {
        ws();
        String name = executorMetricName(position++);
        if (!numberAhead()) {
          skipValue();
        } else {
          long value = requireLong();
          int i = event.executorMetricCount;
          if (i == event.executorMetricNames.length) {
            event.executorMetricNames = Arrays.copyOf(event.executorMetricNames, i * 2);
            event.executorMetricValues = Arrays.copyOf(event.executorMetricValues, i * 2);
          }
          event.executorMetricNames[i] = name;
          event.executorMetricValues[i] = value;
          event.executorMetricCount++;
        }
        ws();
      } while (next(','));
    }
    expect('}');
  }

  /**
   * Reads the key of an executor metric, its colon and the whitespace after it, and returns it decoded. Spark writes
   * the metrics in one order: the key at each position is first compared in place with the one read there last time,
   * which holds no quote, backslash or control character, so equal bytes are the same plain key; a hit costs no
   * search for the key's end, no hash and no decoding.
   */
  private String executorMetricName(int position) {
    if (position < executorMetricKeys.length) {
      byte[] last = executorMetricKeys[position];
      if (last != null && p + last.length + 1 < n && b[p] == '"' && b[p + last.length + 1] == '"'
          && Arrays.equals(b, p + 1, p + 1 + last.length, last, 0, last.length)) {
        p += last.length + 2;
        escaped = false;
        ws();
        expect(':');
        ws();
        return executorMetricNames[position];
      }
    } else {
      executorMetricKeys = Arrays.copyOf(executorMetricKeys, position * 2);
      executorMetricNames = Arrays.copyOf(executorMetricNames, position * 2);
    }
    int keyStart = p + 1;
    int keyEnd = plainKey();
    String name = texts.decode(b, keyStart, keyEnd);
    executorMetricKeys[position] = Arrays.copyOfRange(b, keyStart, keyEnd);
    executorMetricNames[position] = name;
    return name;
  }

  private void accumulables(TaskEvent event) {
    if (!typeSeen || !stageSeen) {
      // Not Spark's field order: whether the updates are wanted is the reader's to decide.
      throw GIVE_UP;
    }
    boolean sql = event.end && sqlStages.test(event.stageId);
    if (peek() != '[') {
      skipValue();
    } else if (!sql) {
      // Only peak execution memory is wanted, and only when the task metrics, which follow, lack it.
      skippedAccumulables = p;
      skipValue();
    } else {
      accumulableArray(event, true);
    }
  }

  private void accumulableArray(TaskEvent event, boolean sql) {
    expect('[');
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

  /**
   * Peak execution memory from the accumulables, as the reader takes it: only when the line does not hold
   * {@code "Peak Execution Memory"} (Spark 3.0+ task metrics carry it themselves). The skipped accumulables of a task
   * end outside SQL stages are read now, and the line searched, only when the task metrics did not have it.
   */
  private void peakFromAccumulables(TaskEvent event) {
    if (peakMetricSeen) {
      return;
    }
    if (skippedAccumulables >= 0) {
      p = skippedAccumulables;
      accumulableArray(event, false);
    }
    if (peakAccumulableSeen && !PEAK_FIELD.in(b, lineStart, n)) {
      event.peakMemoryAccumulable = peakAccumulable;
    }
  }

  private void accumulable(TaskEvent event, boolean sql) {
    boolean peak = false;
    Long id = null;
    Long update = null;
    Long total = null;
    expect('{');
    ws();
    accumulableOrder.previous = -1;
    if (peek() != '}') {
      do {
        ws();
        int key = guessedKey(accumulableOrder);
        if (key < 0) {
          int keyStart = p + 1;
          int keyEnd = string();
          boolean plain = !escaped;
          ws();
          expect(':');
          ws();
          key = plain ? ACCUMULABLE_KEYS.find(b, keyStart, keyEnd) : -1;
          accumulableOrder.found(key);
        }
        if (key == ACCUMULABLE_NAME && peek() == '"') {
          int start = p + 1;
          int end = string();
          peak = region(start, end, PEAK_EXECUTION_MEMORY);
        } else if (key == ACCUMULABLE_ID && sql) {
          id = optionalLong();
        } else if (key == ACCUMULABLE_UPDATE) {
          update = sql ? updateValue() : optionalNumber();
        } else if (key == ACCUMULABLE_VALUE) {
          total = sql ? updateValue() : optionalNumber();
        } else {
          skipValue();
        }
        ws();
      } while (next(','));
    }
    expect('}');
    if (peak) {
      peakAccumulableSeen = true;
      peakAccumulable = update != null ? update : total;
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
    byte c = peek();
    if (c == '"') {
      int start = p + 1;
      int end = requireString();
      return TaskEvent.parseUpdate(new String(b, start, end - start, StandardCharsets.UTF_8));
    }
    if (!numberAhead()) {
      skipValue();
      return null;
    }
    return requireLong();
  }

  /**
   * The end reason: {@code {"Reason":"Success"}}, the end reason of almost every task, without building a tree; any
   * other is checked here and handed to Jackson as the reader would read it (failures carry stack traces).
   */
  private JsonNode endReason() {
    if (peek() == 'n') {
      literal(NULL);
      return null;
    }
    int start = p;
    try {
      if (successReason()) {
        return SUCCESS;
      }
    } catch (GiveUp e) {
      // Not the success object: read whole below.
    }
    p = start;
    skipValue();
    try {
      return TaskEventReader.tree(new String(b, start, p - start, StandardCharsets.UTF_8));
    } catch (java.io.IOException e) {
      throw GIVE_UP;
    }
  }

  /** Whether the object here is exactly {@code {"Reason":"Success"}}; gives up on malformed JSON. */
  private boolean successReason() {
    expect('{');
    ws();
    int keyStart = p + 1;
    int keyEnd = string();
    boolean plainKey = !escaped;
    ws();
    expect(':');
    ws();
    int start = p + 1;
    int end = requireString();
    ws();
    expect('}');
    return plainKey && region(keyStart, keyEnd, REASON) && region(start, end, SUCCESS_TEXT);
  }

  // ---- JSON primitives over bytes, validating; reading past the line's end gives 0, which no rule accepts ----

  private byte at(int i) {
    return i < n ? b[i] : 0;
  }

  private byte peek() {
    return at(p);
  }

  private void ws() {
    while (p < n) {
      byte c = b[p];
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        return;
      }
      p++;
    }
  }

  private void expect(char c) {
    if (p >= n || b[p] != c) {
      throw GIVE_UP;
    }
    p++;
  }

  private boolean next(char c) {
    if (p < n && b[p] == c) {
      p++;
      return true;
    }
    return false;
  }

  /** Whether the string content just scanned, {@code [start, end)}, is exactly {@code text} with no escapes. */
  private boolean region(int start, int end, byte[] text) {
    return !escaped && Arrays.equals(b, start, end, text, 0, text.length);
  }

  /**
   * Scans a string starting at its opening quote; returns the end of its content and leaves {@link #p} after the
   * closing quote. Sets {@link #escaped}. Bytes of 0x80 and above are the UTF-8 of characters beyond ASCII, which a
   * string may hold; control characters it may not.
   */
  private int string() {
    expect('"');
    escaped = false;
    int i = p;
    while (true) {
      i = Swar.nextSpecialInString(b, i, n);
      byte c = at(i);
      if (c == '"') {
        p = i + 1;
        return i;
      }
      if (c == '\\') {
        p = i;
        escape();
        i = p;
        continue;
      }
      if (c >= 0 && c < 0x20) {
        throw GIVE_UP;
      }
      i++;
    }
  }

  /** Checks the escape sequence at {@link #p} and moves past it. */
  private void escape() {
    escaped = true;
    byte e = at(p + 1);
    if (e == 'u') {
      for (int i = 2; i < 6; i++) {
        if (Character.digit(at(p + i), 16) < 0) {
          throw GIVE_UP;
        }
      }
      p += 6;
      return;
    }
    if (e != '"' && e != '\\' && e != '/' && e != 'b' && e != 'f' && e != 'n' && e != 'r' && e != 't') {
      throw GIVE_UP;
    }
    p += 2;
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
      literal(NULL);
      return null;
    }
    int start = p + 1;
    int end = requireString();
    return texts.decode(b, start, end);
  }

  private boolean bool() {
    if (peek() == 't') {
      literal(TRUE);
      return true;
    }
    literal(FALSE);
    return false;
  }

  private void literal(byte[] word) {
    if (n - p < word.length) {
      throw GIVE_UP;
    }
    for (int i = 0; i < word.length; i++) {
      if (b[p + i] != word[i]) {
        throw GIVE_UP;
      }
    }
    p += word.length;
  }

  private boolean numberAhead() {
    byte c = peek();
    return c == '-' || (c >= '0' && c <= '9');
  }

  /** Scans a JSON number; sets {@link #number} and {@link #integral} (false for fractions, exponents, overflow). */
  private void scanNumber() {
    boolean negative = next('-');
    int digitsStart = p;
    long value = 0;
    int i = p;
    for (byte c = at(i); c >= '0' && c <= '9'; c = at(++i)) {
      value = value * 10 + (c - '0');
    }
    p = i;
    int digits = p - digitsStart;
    if (digits == 0 || (digits > 1 && b[digitsStart] == '0')) {
      throw GIVE_UP;
    }
    integral = digits <= 18;
    if (peek() == '.') {
      p++;
      requireDigits();
      integral = false;
    }
    if (peek() == 'e' || peek() == 'E') {
      p++;
      if (peek() == '+' || peek() == '-') {
        p++;
      }
      requireDigits();
      integral = false;
    }
    number = negative ? -value : value;
  }

  private void requireDigits() {
    int start = p;
    while (p < n && b[p] >= '0' && b[p] <= '9') {
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

  /**
   * A number as the reader takes one: an integral number; a string without escapes holding one (some writers quote
   * numbers), or null when it does not; null for null, a boolean, an array or an object. Fractions, exponents and
   * numbers beyond 18 digits make the scanner give up (Jackson decides).
   */
  private Long optionalNumber() {
    byte c = peek();
    if (c == '"') {
      int start = p + 1;
      int end = requireString();
      try {
        return Long.parseLong(new String(b, start, end - start, StandardCharsets.UTF_8).trim());
      } catch (NumberFormatException e) {
        return null;
      }
    }
    if (c == '[' || c == '{' || c == 't' || c == 'f' || c == 'n') {
      skipValue();
      return null;
    }
    return requireLong();
  }

  /** An integral number, or null for null; anything else makes the scanner give up (Jackson decides). */
  private Long optionalLong() {
    if (peek() == 'n') {
      literal(NULL);
      return null;
    }
    return requireLong();
  }

  private void skipValue() {
    byte c = peek();
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
      case 't' -> literal(TRUE);
      case 'f' -> literal(FALSE);
      case 'n' -> literal(NULL);
      default -> {
        if (!numberAhead()) {
          throw GIVE_UP;
        }
        scanNumber();
      }
    }
  }

  /** A fixed byte string searched for in a line by Horspool's method: most bytes of the line are never read. */
  private static final class PeakField {
    private final byte[] needle;
    private final int[] shift = new int[256];

    PeakField(byte[] needle) {
      this.needle = needle;
      Arrays.fill(shift, needle.length);
      for (int i = 0; i < needle.length - 1; i++) {
        shift[needle[i] & 0xff] = needle.length - 1 - i;
      }
    }

    boolean in(byte[] bytes, int start, int end) {
      int last = needle.length - 1;
      for (int i = start; i + last < end; i += shift[bytes[i + last] & 0xff]) {
        if (bytes[i + last] == needle[last] && Arrays.equals(bytes, i, i + last, needle, 0, last)) {
          return true;
        }
      }
      return false;
    }
  }
}
