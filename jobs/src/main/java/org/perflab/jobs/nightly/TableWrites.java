package org.perflab.jobs.nightly;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.perflab.spark.storage.DeltaCommits;

/**
 * What a step wrote, read from the Delta logs of the output root's tables, not from the step's console: the latest
 * version of every table before the step, then the rows of each commit after it (the {@code operationMetrics} Delta
 * records in every commit). Works the same for a step run in the night's session and for one run as a submission of
 * its own. Reads only the file system, no Spark.
 */
public final class TableWrites {

  private final FileSystem fs;
  private final Path root;

  public TableWrites(FileSystem fs, Path root) {
    this.fs = fs;
    this.root = root;
  }

  /** The commits that leave a table's rows as they were: compaction and vacuum ({@code maintain}). */
  private static final java.util.Set<String> MAINTENANCE = java.util.Set.of("OPTIMIZE", "VACUUM START", "VACUUM END");

  /**
   * The version of the latest commit that changed rows, of every Delta table directly under the root, by table name:
   * {@link #versions()}, less the compaction and vacuum commits made since ({@code maintain}'s, which rewrite files,
   * not rows). A commit whose file cannot be read counts as a change.
   */
  public Map<String, Long> contentVersions() {
    Map<String, Long> content = new TreeMap<>();
    versions().forEach((table, latest) -> {
      long version = latest;
      while (version > 0
          && MAINTENANCE.contains(DeltaCommits.operation(fs, DeltaCommits.commitFile(new Path(root, table), version)))) {
        version--;
      }
      content.put(table, version);
    });
    return content;
  }

  /** The latest committed version of every Delta table directly under the root, by table name. */
  public Map<String, Long> versions() {
    Map<String, Long> versions = new TreeMap<>();
    try {
      if (!fs.exists(root)) {
        return versions;
      }
      for (FileStatus table : fs.listStatus(root)) {
        if (table.isDirectory()) {
          List<Long> commits = DeltaCommits.versions(fs, table.getPath());
          if (!commits.isEmpty()) {
            versions.put(table.getPath().getName(), commits.get(commits.size() - 1));
          }
        }
      }
      return versions;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list the tables under " + root + ": " + e.getMessage(), e);
    }
  }

  /**
   * Rows written per table by the commits made since {@code before} ({@link #versions()} taken earlier), for every
   * table with a newer version: a commit that wrote no rows (OPTIMIZE, a schema change, a delete) counts 0.
   */
  public Map<String, Long> since(Map<String, Long> before) {
    Map<String, Long> rows = new TreeMap<>();
    versions().forEach((table, latest) -> {
      long from = before.getOrDefault(table, -1L) + 1;
      if (latest >= from) {
        long written = 0;
        for (long version = from; version <= latest; version++) {
          written += rowsWritten(fs, DeltaCommits.commitFile(new Path(root, table), version));
        }
        rows.put(table, written);
      }
    });
    return rows;
  }

  /** Rows one commit wrote, from its {@code commitInfo}; 0 when the commit file is gone or records no metrics. */
  static long rowsWritten(FileSystem fs, Path commit) {
    return DeltaCommits.commitInfo(fs, commit)
        .map(info -> rowsWritten(info.path("operation").asText(""), info.path("operationMetrics")))
        .orElse(0L); // removed by log cleanup, or unreadable: the step's other commits still count
  }

  /** Rows written by a commit of {@code operation} with {@code metrics}: new and rewritten-with-changes rows. */
  static long rowsWritten(String operation, JsonNode metrics) {
    return switch (operation) {
      case "MERGE" -> metrics.path("numTargetRowsInserted").asLong(0) + metrics.path("numTargetRowsUpdated").asLong(0);
      case "UPDATE" -> metrics.path("numUpdatedRows").asLong(0);
      case "OPTIMIZE", "DELETE", "VACUUM START", "VACUUM END" -> 0;
      default -> metrics.path("numOutputRows").asLong(0);
    };
  }
}
