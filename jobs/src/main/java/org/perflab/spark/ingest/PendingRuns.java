package org.perflab.spark.ingest;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The journal of ingest runs that have not finished: {@code <root>/_perflab_ingest/pending/<run id>}, one log id per
 * line, written before a run's first table commit and deleted after its {@code ingest_status} commit. A run that was
 * killed leaves its journal; the next run treats those logs as possibly written and replaces their rows, so a rerun
 * never duplicates a row.
 */
final class PendingRuns {
  static final String DIRECTORY = "_perflab_ingest/pending";

  private final FileSystem fs;
  private final Path dir;

  PendingRuns(FileSystem fs, Path root) {
    this.fs = fs;
    this.dir = new Path(root, DIRECTORY);
  }

  /** The journals left by earlier runs. */
  List<Path> journals() {
    try {
      if (!fs.exists(dir)) {
        return List.of();
      }
      return java.util.Arrays.stream(fs.listStatus(dir)).filter(FileStatus::isFile).map(FileStatus::getPath)
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list unfinished ingest runs: " + e.getMessage() + " (" + dir + ")", e);
    }
  }

  /** The log ids in these journals. */
  Set<String> logIds(Collection<Path> journals) {
    Set<String> ids = new TreeSet<>();
    for (Path journal : journals) {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(fs.open(journal), StandardCharsets.UTF_8))) {
        in.lines().map(String::trim).filter(line -> !line.isEmpty()).forEach(ids::add);
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read unfinished ingest run: " + e.getMessage() + " (" + journal + ")",
            e);
      }
    }
    return ids;
  }

  /** Records that run {@code runId} is about to write rows of these logs. */
  Path start(String runId, Collection<String> logIds) {
    Path journal = new Path(dir, runId);
    try (OutputStream out = fs.create(journal, true)) {
      out.write(String.join("\n", new TreeSet<>(logIds)).getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot record ingest run: " + e.getMessage() + " (" + journal + ")", e);
    }
    return journal;
  }

  /** Deletes journals whose logs the finished run has committed. */
  void finish(Collection<Path> journals) {
    for (Path journal : journals) {
      try {
        fs.delete(journal, false);
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot clear ingest run: " + e.getMessage() + " (" + journal + ")", e);
      }
    }
  }
}
