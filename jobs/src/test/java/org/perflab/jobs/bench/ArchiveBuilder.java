package org.perflab.jobs.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.perflab.eventlog.fixture.LogFixtures;
import org.perflab.eventlog.source.LogCompression;
import org.perflab.eventlog.source.EventLogSource;
import org.perflab.eventlog.source.LogLayout;
import org.perflab.testing.SampleLogs;
import org.perflab.testing.SharedData;

/**
 * Builds an archive of event logs in a directory, a batch at a time, by copying base logs in turn under new
 * application ids ({@code <app id>-copy<number>}), each in its own layout and codec: plain and zstd single files, and
 * zstd rolling directories (split into two parts). The bases are the bundled samples and, when
 * {@code $PERFLAB_SHARED/data/spark-events} holds them, Spark's reference logs (plain files).
 */
public final class ArchiveBuilder {
  /** A log to copy: its decompressed lines and how it is stored. */
  private record Base(String appId, List<String> lines, LogLayout layout, LogCompression codec) {}

  /**
   * Logs added to the archive by one call of {@link #add}.
   *
   * @param logs logs written
   * @param diskBytes their bytes on disk (compressed where the codec compresses), in bytes
   * @param decompressedBytes their decompressed bytes, line terminators included, in bytes
   */
  public record Batch(int logs, long diskBytes, long decompressedBytes) {}

  private final Path dir;
  private final List<Base> bases;

  private ArchiveBuilder(Path dir, List<Base> bases) {
    this.dir = dir;
    this.bases = bases;
  }

  /** A builder writing into {@code dir}, with every base log read into memory. */
  public static ArchiveBuilder of(Path dir) throws IOException {
    List<Base> bases = new ArrayList<>();
    for (EventLogSource sample : SampleLogs.discover()) {
      List<String> lines = SampleLogs.lines(sample);
      bases.add(new Base(LogFixtures.appIdOf(lines), lines, sample.layout(), sample.codec()));
    }
    Path reference = SharedData.root().resolve("data/spark-events");
    if (Files.isDirectory(reference)) {
      try (Stream<Path> files = Files.list(reference)) {
        for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
          List<String> lines = LogFixtures.readLines(file);
          bases.add(new Base(LogFixtures.appIdOf(lines), lines, LogLayout.SINGLE_FILE, LogCompression.NONE));
        }
      }
    }
    return new ArchiveBuilder(dir, bases);
  }

  Path directory() {
    return dir;
  }

  /** A builder with the same bases writing into {@code other}. */
  ArchiveBuilder into(Path other) {
    return new ArchiveBuilder(other, bases);
  }

  /** How many distinct logs are copied in turn. */
  int bases() {
    return bases.size();
  }

  /** Writes logs number {@code from} (inclusive) to {@code to} (exclusive) into the archive. */
  public Batch add(int from, int to) throws IOException {
    long disk = 0;
    long decompressed = 0;
    for (int i = from; i < to; i++) {
      Base base = bases.get(i % bases.size());
      String appId = base.appId() + "-copy" + String.format("%05d", i);
      List<String> lines = LogFixtures.withAppId(base.lines(), appId);
      Path written = base.layout() == LogLayout.ROLLING_DIRECTORY
          ? LogFixtures.rollingDirectory(dir, appId, lines, base.codec(), Math.max(1, lines.size() / 2 + 1), false)
          : LogFixtures.singleFile(dir, appId, lines, base.codec(), false);
      disk += bytesUnder(written);
      for (String line : lines) {
        decompressed += line.getBytes(StandardCharsets.UTF_8).length + 1;
      }
    }
    return new Batch(to - from, disk, decompressed);
  }

  /** Bytes of a file, or of every file under a directory. */
  static long bytesUnder(Path path) throws IOException {
    try (Stream<Path> files = Files.walk(path)) {
      return files.filter(Files::isRegularFile).mapToLong(ArchiveBuilder::size).sum();
    }
  }

  private static long size(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
