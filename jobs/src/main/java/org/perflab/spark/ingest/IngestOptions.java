package org.perflab.spark.ingest;

import java.util.List;

/**
 * What {@code ingest} reads and writes.
 *
 * @param inputs paths or globs of logs, rolling or legacy log directories, or archive directories, on any Hadoop
 *     file system
 * @param output root directory of the tables, one Parquet directory per table
 * @param incremental skip logs whose path, size and modification time match an earlier ingest
 * @param redactionPattern regex; property keys or values, and secrets in text, that match it are redacted
 * @param minAgeSeconds skip logs modified less than this many seconds ago (still being written on object stores)
 */
public record IngestOptions(
    List<String> inputs, String output, boolean incremental, String redactionPattern, long minAgeSeconds) {

  public IngestOptions {
    inputs = List.copyOf(inputs);
  }
}
