package org.perflab.spark.ingest;

import org.apache.spark.sql.Row;

/** A log as an earlier run recorded it in {@code ingest_status}. */
record PreviousLog(String logId, String path, long bytes, long modificationTimeMs, String status, Row row) {

  static PreviousLog of(Row row) {
    return new PreviousLog(
        row.getAs("log_id"),
        row.getAs("log_path"),
        row.<Long>getAs("log_bytes"),
        row.<Long>getAs("modification_time_ms"),
        row.getAs("status"),
        row);
  }

  /** Whether {@code --incremental} may skip a log found with this size and time. */
  boolean unchanged(long bytes, long modificationTimeMs) {
    return this.bytes == bytes && this.modificationTimeMs == modificationTimeMs && !"SKIPPED".equals(status);
  }
}
