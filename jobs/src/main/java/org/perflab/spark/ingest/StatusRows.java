package org.perflab.spark.ingest;

import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.perflab.eventlog.source.EventLogSource;
import org.perflab.eventlog.source.SkippedFile;
import org.perflab.table.KeyColumns;
import org.perflab.table.Table;
import org.perflab.table.TableRow;

/** {@code ingest_status} rows made on the driver: for files skipped before parsing, and for superseded copies. */
final class StatusRows {
  private static final Table STATUS = Table.INGEST_STATUS;

  private StatusRows() {}

  static Row skippedFile(SkippedFile file, Clock clock) {
    TableRow row = STATUS.newRow()
        .set(KeyColumns.LOG_ID, EventLogSource.logIdOf(file.path()))
        .set(KeyColumns.APP_ID, "")
        .set(KeyColumns.APP_ATTEMPT_ID, "")
        .set("log_path", file.path())
        .set("log_bytes", file.bytes())
        .set("modification_time_ms", file.modificationTimeMs())
        .set("status", "SKIPPED")
        .set("reason", file.reason())
        .set("events", 0L)
        .set("unknown_events", 0L)
        .set("bad_lines", 0L)
        .set("first_bad_lines", new Long[0])
        .set("problems", new TreeMap<String, Long>())
        .set("ingested_at_ms", clock.millis());
    return UnionRows.external(row);
  }

  /** The status row of a log whose application attempt another log holds better. */
  static Row superseded(Row status, String winnerPath) {
    Object[] values = new Object[status.length()];
    for (int i = 0; i < values.length; i++) {
      values[i] = status.get(i);
    }
    values[STATUS.indexOf("status")] = "SKIPPED";
    values[STATUS.indexOf("reason")] =
        "Cannot use this copy: another log holds the same application attempt more completely (" + winnerPath + ")";
    values[STATUS.indexOf("superseded_by")] = winnerPath;
    return RowFactory.create(values);
  }

  /** The rows with {@code run_id} set to {@code runId}. */
  static List<Row> withRunId(List<Row> rows, String runId) {
    int column = STATUS.indexOf("run_id");
    List<Row> stamped = new ArrayList<>(rows.size());
    for (Row row : rows) {
      Object[] values = new Object[row.length()];
      for (int i = 0; i < values.length; i++) {
        values[i] = row.get(i);
      }
      values[column] = runId;
      stamped.add(RowFactory.create(values));
    }
    return stamped;
  }

  /** One row per log, the last given for it, in first-seen order: ingest_status holds one row per log. */
  static List<Row> lastPerLog(List<Row> rows) {
    Map<String, Row> byLog = new LinkedHashMap<>();
    for (Row row : rows) {
      byLog.put(row.getString(STATUS.indexOf(KeyColumns.LOG_ID)), row);
    }
    return new ArrayList<>(byLog.values());
  }

  static Map<String, Long> countByStatus(Iterable<Row> rows) {
    Map<String, Long> counts = new TreeMap<>();
    for (Row row : rows) {
      counts.merge(row.getString(STATUS.indexOf("status")), 1L, Long::sum);
    }
    return counts;
  }
}
