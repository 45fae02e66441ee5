package org.perflab.eventlog.parse;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.perflab.table.Table;
import org.perflab.table.TableRow;

/** What went wrong while reading one log, and the status it earns. */
final class LogHealth {
  static final int MAX_BAD_LINE_NUMBERS = 10;
  private static final String CANNOT_READ = "Cannot read event log";

  long events;
  long unknownEvents;
  long badLines;
  final List<Long> firstBadLines = new ArrayList<>();
  final Map<String, Long> problems = new TreeMap<>();
  boolean truncatedLastLine;
  /** Why reading stopped early (an undecodable or truncated stream), or null. */
  String readFailure;
  long stagesMissingTasks;
  long taskEndsWithoutStart;

  void badLine(long lineNumber, String reason) {
    badLines++;
    if (firstBadLines.size() < MAX_BAD_LINE_NUMBERS) {
      firstBadLines.add(lineNumber);
    }
    problems.merge(reason, 1L, Long::sum);
  }

  boolean tasksReconciled() {
    return stagesMissingTasks == 0 && taskEndsWithoutStart == 0;
  }

  /** OK, PARTIAL or FAILED, and the reason when not OK. */
  String[] statusAndReason() {
    if (events == 0) {
      return new String[] {"FAILED", failure()};
    }
    List<String> reasons = new ArrayList<>();
    if (readFailure != null) {
      reasons.add(readFailure);
    }
    if (badLines > 0) {
      reasons.add(badLines + " bad lines " + problems);
    }
    if (truncatedLastLine) {
      reasons.add("truncated last line in a completed log");
    }
    if (!tasksReconciled()) {
      reasons.add(
          "task counts do not reconcile (" + stagesMissingTasks + " completed stages missing tasks, "
              + taskEndsWithoutStart + " task ends without start): events were dropped");
    }
    return reasons.isEmpty()
        ? new String[] {"OK", null}
        : new String[] {"PARTIAL", String.join("; ", reasons)};
  }

  /** Why a log without a single valid event failed, in the form {@code Cannot read event log...: <reason>}. */
  private String failure() {
    if (readFailure != null && readFailure.startsWith(CANNOT_READ)) {
      return readFailure;
    }
    String reason = readFailure != null ? readFailure : badLines > 0 ? "no valid event among " + badLines
        + " lines" : "empty log";
    return CANNOT_READ + ": " + reason;
  }

  TableRow toRow(LogIdentity log, String sparkVersion, long ingestedAtMs) {
    String[] status = statusAndReason();
    return Table.INGEST_STATUS
        .newRow()
        .set("log_path", log.path())
        .set("layout", log.layout())
        .set("codec", log.codec())
        .set("log_bytes", log.bytes())
        .set("modification_time_ms", log.modificationTimeMs())
        .set("in_progress", log.inProgress())
        .set("status", status[0])
        .set("reason", status[1])
        .set("spark_version", sparkVersion)
        .set("events", events)
        .set("unknown_events", unknownEvents)
        .set("bad_lines", badLines)
        .set("first_bad_lines", firstBadLines.toArray(new Long[0]))
        .set("problems", new TreeMap<>(problems))
        .set("truncated_last_line", truncatedLastLine)
        .set("tasks_reconciled", tasksReconciled())
        .set("stages_missing_tasks", stagesMissingTasks)
        .set("task_ends_without_start", taskEndsWithoutStart)
        .set("ingested_at_ms", ingestedAtMs);
  }
}
