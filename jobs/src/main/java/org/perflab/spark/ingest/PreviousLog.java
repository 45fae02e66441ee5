package org.perflab.spark.ingest;

import java.util.stream.Stream;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;

/** A log as an earlier run recorded it in {@code ingest_status}. */
record PreviousLog(String logId, String path, long bytes, long modificationTimeMs, String status) {
  /** The {@code ingest_status} columns {@link #of} reads. */
  static final Column[] COLUMNS = Stream.of("log_id", "log_path", "log_bytes", "modification_time_ms", "status")
      .map(functions::col).toArray(Column[]::new);

  static PreviousLog of(Row row) {
    return new PreviousLog(
        row.getAs("log_id"),
        row.getAs("log_path"),
        row.<Long>getAs("log_bytes"),
        row.<Long>getAs("modification_time_ms"),
        row.getAs("status"));
  }

  /** Whether {@code --incremental} may skip a log found with this size and time. */
  boolean unchanged(long bytes, long modificationTimeMs) {
    return this.bytes == bytes && this.modificationTimeMs == modificationTimeMs && !"SKIPPED".equals(status);
  }
}
