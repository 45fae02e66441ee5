package org.perflab.eventlog.parse;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.function.BooleanSupplier;
import org.perflab.eventlog.redact.Redactor;
import org.perflab.table.KeyColumns;
import org.perflab.table.Table;
import org.perflab.table.TableRow;

/**
 * Turns the lines of one event log into table rows, streaming: task rows come out as their task-end events are read,
 * and the aggregated rows (application, jobs, stages, executors, properties, SQL executions, status) at the end. Memory
 * grows with the number of stages, jobs and executors, never with the number of tasks or the size of the log.
 *
 * <p>Bad input never throws: a line that is not JSON, lacks the {@code Event} field or lacks a required field is
 * counted in the status row and skipped; an unknown event type is counted and skipped; a stream that cannot be decoded,
 * or that a cut file ends early, ends the log with what was read so far.
 */
public final class EventLogParser implements Iterator<TableRow> {
  private static final int[][] KEY_COLUMNS = keyColumns();
  private static final String ENVIRONMENT_UPDATE = "SparkListenerEnvironmentUpdate";
  private static final String ENVIRONMENT_PREFIX = "{\"Event\":\"" + ENVIRONMENT_UPDATE + "\"";
  private final LogIdentity log;
  /** The lines as strings, or null when they come as bytes. */
  private final Iterator<String> lines;
  /** The lines as UTF-8 bytes, or null when they come as strings. */
  private final Utf8Lines utf8Lines;
  private final BooleanSupplier lastLineTerminated;
  private final Clock clock;
  private final Redactor redactor;
  private final LogHealth health = new LogHealth();
  private final ApplicationAccumulator app;
  private final SchedulerEvents scheduler;
  private final ArrayDeque<TableRow> pending = new ArrayDeque<>();
  private long lineNumber;
  private long deferredBadLine = -1;
  private String deferredReason;
  private boolean finished;
  private final TaskLineScanner scanner;

  /**
   * @param log the log's identity and metadata
   * @param lines its decompressed lines, in order; an {@code UncheckedIOException} from it ends the log
   * @param lastLineTerminated asked at the end: whether the final line ended with a newline
   * @param redactor applied to every property, description, plan and message before it leaves the parser
   * @param clock gives {@code ingested_at_ms}
   */
  public EventLogParser(
      LogIdentity log,
      Iterator<String> lines,
      BooleanSupplier lastLineTerminated,
      Redactor redactor,
      Clock clock) {
    this(log, lines, null, lastLineTerminated, redactor, clock);
  }

  /**
   * A parser over UTF-8 lines, the faster input: task events, most of a log, are scanned without being decoded.
   *
   * @param log the log's identity and metadata
   * @param lines its decompressed lines, in order; an {@code UncheckedIOException} from it ends the log
   * @param redactor applied to every property, description, plan and message before it leaves the parser
   * @param clock gives {@code ingested_at_ms}
   */
  public EventLogParser(LogIdentity log, Utf8Lines lines, Redactor redactor, Clock clock) {
    this(log, null, lines, lines::lastLineTerminated, redactor, clock);
  }

  private EventLogParser(LogIdentity log, Iterator<String> lines, Utf8Lines utf8Lines,
      BooleanSupplier lastLineTerminated, Redactor redactor, Clock clock) {
    this.log = log;
    this.lines = lines;
    this.utf8Lines = utf8Lines;
    this.lastLineTerminated = lastLineTerminated;
    this.clock = clock;
    this.redactor = redactor;
    this.app = new ApplicationAccumulator(log.fallbackAppId(), log.sparkVersionHint());
    this.scheduler = new SchedulerEvents(app, health, redactor, pending::add);
    this.scanner = new TaskLineScanner(scheduler::wantsAccumulables);
  }

  @Override
  public boolean hasNext() {
    while (pending.isEmpty() && !finished) {
      step();
    }
    return !pending.isEmpty();
  }

  @Override
  public TableRow next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    return withKeys(pending.poll());
  }

  private TableRow withKeys(TableRow row) {
    int[] keys = KEY_COLUMNS[row.table().ordinal()];
    if (keys == null) {
      return row;
    }
    Object[] values = row.values();
    values[keys[0]] = log.logId();
    values[keys[1]] = app.appId;
    values[keys[2]] = app.attemptId;
    return row;
  }

  /** Per table, the positions of its log, application and attempt id columns; null for tables not keyed by log. */
  private static int[][] keyColumns() {
    int[][] columns = new int[Table.values().length][];
    for (Table table : Table.values()) {
      if (table.keys() == Table.Keys.LOG) {
        columns[table.ordinal()] = new int[] {
          table.indexOf(KeyColumns.LOG_ID), table.indexOf(KeyColumns.APP_ID), table.indexOf(KeyColumns.APP_ATTEMPT_ID)
        };
      }
    }
    return columns;
  }

  private void step() {
    String line = null;
    try {
      if (!(utf8Lines != null ? utf8Lines.advance() : lines.hasNext())) {
        finish();
        return;
      }
      if (utf8Lines == null) {
        line = lines.next();
      }
    } catch (RuntimeException e) {
      // The message names the part: its URI may carry a secret.
      health.readFailure = redactor.redactText(e.getMessage() != null ? e.getMessage() : e.toString());
      finish();
      return;
    }
    lineNumber++;
    countDeferredBadLine();
    if (line != null) {
      handle(line);
    } else {
      handleUtf8(utf8Lines.bytes(), utf8Lines.start(), utf8Lines.end());
    }
  }

  /** A line as bytes: a task event in Spark's field order is scanned in place; anything else is decoded first. */
  private void handleUtf8(byte[] bytes, int start, int end) {
    if (TaskEventReader.isTaskEventLine(bytes, start, end)) {
      TaskEvent event = scanner.scan(bytes, start, end);
      if (event != null) {
        taskEvent(event);
        return;
      }
    }
    handle(new String(bytes, start, end - start, StandardCharsets.UTF_8));
  }

  private void handle(String line) {
    if (TaskEventReader.isTaskEventLine(line)) {
      handleTaskEvent(line);
      return;
    }
    if (line.startsWith(ENVIRONMENT_PREFIX) && handleEnvironment(line)) {
      return;
    }
    JsonNode event;
    try {
      event = SlimJson.read(line);
    } catch (IOException e) {
      defer(line.isBlank() ? "blank line" : "malformed JSON");
      return;
    }
    String type = event == null ? null : Json.text(event, "Event");
    if (type == null) {
      health.badLine(lineNumber, "no Event field");
      return;
    }
    if (TaskEventReader.isTaskEventType(type)) {
      // A task event whose fields are not in Spark's order: the streaming reader takes any order.
      handleTaskEvent(line);
      return;
    }
    try {
      if (dispatch(EventTypes.shortName(type), event)) {
        health.events++;
      } else {
        health.unknownEvents++;
      }
    } catch (Json.MissingFieldException e) {
      health.badLine(lineNumber, e.getMessage() + " in " + EventTypes.shortName(type));
    } catch (RuntimeException e) {
      health.badLine(lineNumber, "invalid " + EventTypes.shortName(type) + " (" + e.getClass().getSimpleName() + ")");
    }
  }

  /**
   * An environment update, a third of a small application's log, read without a tree for its property sections; the
   * same result as the generic path. Returns false, having done nothing, when the line is to be read that way (its
   * event type turns out to be another).
   */
  private boolean handleEnvironment(String line) {
    SlimJson.Environment environment;
    try {
      environment = SlimJson.readEnvironment(line, ApplicationAccumulator.SECTION_FIELDS);
    } catch (IOException e) {
      defer("malformed JSON");
      return true;
    }
    if (environment == null || !ENVIRONMENT_UPDATE.equals(Json.text(environment.event(), "Event"))) {
      return false;
    }
    try {
      app.observeTime(EventTypes.time(environment.event()));
      app.environmentUpdate(environment.sections(), redactor);
      health.events++;
    } catch (RuntimeException e) {
      health.badLine(lineNumber, "invalid " + ENVIRONMENT_UPDATE + " (" + e.getClass().getSimpleName() + ")");
    }
    return true;
  }

  /** The fast path for task events, which are most of a log: streamed, no tree. */
  private void handleTaskEvent(String line) {
    TaskEvent event = scanner.scan(line);
    try {
      if (event == null) {
        event = TaskEventReader.read(line, scheduler::wantsAccumulables);
      }
    } catch (IOException e) {
      defer("malformed JSON");
      return;
    } catch (Json.MissingFieldException e) {
      health.badLine(lineNumber, e.getMessage() + " in " + (line.startsWith(TaskEventReader.TASK_END_PREFIX)
          ? "SparkListenerTaskEnd" : "SparkListenerTaskStart"));
      return;
    }
    taskEvent(event);
  }

  private void taskEvent(TaskEvent event) {
    try {
      scheduler.task(event);
      health.events++;
    } catch (Json.MissingFieldException e) {
      health.badLine(lineNumber, e.getMessage() + " in " + (event.end ? "SparkListenerTaskEnd"
          : "SparkListenerTaskStart"));
    }
  }

  /** Returns false for an event type PerfLab does not know. */
  private boolean dispatch(String type, JsonNode event) {
    app.observeTime(EventTypes.time(event));
    if (scheduler.handle(type, event)) {
      return true;
    }
    return EventTypes.isKnownButUnused(type);
  }

  /** A bad line might be the truncated last line; that is decided once we know whether another line follows. */
  private void defer(String reason) {
    deferredBadLine = lineNumber;
    deferredReason = reason;
  }

  private void countDeferredBadLine() {
    if (deferredBadLine >= 0) {
      health.badLine(deferredBadLine, deferredReason);
      deferredBadLine = -1;
    }
  }

  private void finish() {
    finished = true;
    if (deferredBadLine >= 0) {
      if (deferredBadLine == lineNumber && !lastLineTerminated.getAsBoolean()) {
        // An in-progress log is expected to end mid-line; a completed one is not.
        health.truncatedLastLine = !log.inProgress();
        deferredBadLine = -1;
      } else {
        countDeferredBadLine();
      }
    }
    if (health.events > 0) {
      // A log without a single valid event yields its status row and nothing invented beside it.
      scheduler.finish();
      pending.add(app.toRow(log.inProgress()));
      pending.addAll(app.propertyRows());
      scheduler.emitAggregates();
    }
    pending.add(health.toRow(log, app.sparkVersion, clock.millis()));
  }
}
