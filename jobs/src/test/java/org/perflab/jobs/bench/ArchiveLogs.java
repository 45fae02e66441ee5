package org.perflab.jobs.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes logs number {@code from} (inclusive) to {@code to} (exclusive) of the benchmark archive ({@link ArchiveBuilder})
 * into a directory, for benchmarks in shell ({@code bench/nightly-cluster}). Run with
 * {@code bench/run archive-logs DIR FROM TO}; prints the logs written and their bytes on disk.
 */
public final class ArchiveLogs {
  private ArchiveLogs() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 3) {
      throw new IllegalArgumentException("Cannot write logs: usage: archive-logs DIR FROM TO (" + args.length
          + " arguments)");
    }
    int from = Integer.parseInt(args[1]);
    int to = Integer.parseInt(args[2]);
    if (from < 0 || to <= from) {
      throw new IllegalArgumentException("Cannot write logs: need 0 <= FROM < TO (" + from + ", " + to + ")");
    }
    Path dir = Files.createDirectories(Path.of(args[0]));
    ArchiveBuilder.Batch batch = ArchiveBuilder.of(dir).add(from, to);
    System.out.printf("archive-logs: %d logs, %d bytes on disk, in %s%n", batch.logs(), batch.diskBytes(), dir);
  }
}
