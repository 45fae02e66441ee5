package org.perflab.eventlog.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.perflab.errors.BadInputException;
import org.perflab.eventlog.fixture.LogFixtures;

class LogDiscoveryTest {
  private static final Configuration CONF = new Configuration();
  private static final List<String> LINES = LogFixtures.sampleLines("app-1", 20);

  @TempDir Path dir;

  @Test
  void findsSingleFileWithSizeTimeAndQualifiedPath() throws IOException {
    Path file = LogFixtures.singleFile(dir, "app-1", LINES, LogCompression.NONE, false);
    Files.setLastModifiedTime(file, FileTime.fromMillis(1_700_000_000_000L));

    EventLogSource log = single(LogDiscovery.discover(List.of(file.toString()), CONF));

    assertThat(log.path()).isEqualTo("file:" + file);
    assertThat(log.parts()).containsExactly("file:" + file);
    assertThat(log.layout()).isEqualTo(LogLayout.SINGLE_FILE);
    assertThat(log.codec()).isEqualTo(LogCompression.NONE);
    assertThat(log.bytes()).isEqualTo(Files.size(file));
    assertThat(log.modificationTimeMs()).isEqualTo(1_700_000_000_000L);
    assertThat(log.inProgress()).isFalse();
    assertThat(log.sparkVersionHint()).isNull();
  }

  @Test
  void readsCodecAndProgressFromSuffixes() throws IOException {
    for (LogCompression codec : LogCompression.values()) {
      LogFixtures.singleFile(dir, "app-" + codec, LINES, codec, codec == LogCompression.LZF);
    }

    Discovery found = LogDiscovery.discover(List.of(dir.toUri().toString()), CONF);

    assertThat(found.logs())
        .extracting(l -> Path.of(java.net.URI.create(l.path())).getFileName().toString(), EventLogSource::codec,
            EventLogSource::inProgress)
        .containsExactly(
            tuple("app-LZ4.lz4", LogCompression.LZ4, false),
            tuple("app-LZF.lzf.inprogress", LogCompression.LZF, true),
            tuple("app-NONE", LogCompression.NONE, false),
            tuple("app-SNAPPY.snappy", LogCompression.SNAPPY, false),
            tuple("app-ZSTD.zstd", LogCompression.ZSTD, false));
    assertThat(found.skipped()).isEmpty();
  }

  @Test
  void ordersRollingPartsNumericallyAndSumsThem() throws IOException {
    Path root = LogFixtures.rollingDirectory(dir, "app-2", LINES, LogCompression.ZSTD, 2, true);
    Files.setLastModifiedTime(root.resolve("events_7_app-2.zstd"), FileTime.fromMillis(1_800_000_000_000L));
    long partBytes;
    try (var files = Files.list(root)) {
      partBytes = files.filter(f -> f.getFileName().toString().startsWith("events_")).mapToLong(f -> f.toFile().length())
          .sum();
    }

    EventLogSource log = single(LogDiscovery.discover(List.of(root.toString()), CONF));

    assertThat(log.layout()).isEqualTo(LogLayout.ROLLING_DIRECTORY);
    assertThat(log.path()).isEqualTo("file:" + root);
    assertThat(log.parts()).hasSize(10).startsWith("file:" + root + "/events_1_app-2.zstd",
        "file:" + root + "/events_2_app-2.zstd").endsWith("file:" + root + "/events_10_app-2.zstd");
    assertThat(log.codec()).isEqualTo(LogCompression.ZSTD);
    assertThat(log.inProgress()).isTrue();
    assertThat(log.bytes()).isEqualTo(partBytes);
    assertThat(log.modificationTimeMs()).isEqualTo(1_800_000_000_000L);
  }

  @Test
  void rollingLogIsCompleteWhenAppStatusIsFinal() throws IOException {
    Path root = LogFixtures.rollingDirectory(dir, "app-3", LINES, LogCompression.NONE, 100, false);

    assertThat(single(LogDiscovery.discover(List.of(root.toString()), CONF)).inProgress()).isFalse();
  }

  @Test
  void readsRollingLogFromTheLastCompactedPart() throws IOException {
    Path root = LogFixtures.rollingDirectory(dir, "app-4", LINES, LogCompression.NONE, 5, false);
    Files.move(root.resolve("events_2_app-4"), root.resolve("events_2_app-4.compact"));
    Files.delete(root.resolve("events_1_app-4"));

    EventLogSource log = single(LogDiscovery.discover(List.of(root.toString()), CONF));

    assertThat(log.parts()).extracting(p -> p.substring(p.lastIndexOf('/') + 1))
        .containsExactly("events_2_app-4.compact", "events_3_app-4", "events_4_app-4");
  }

  @Test
  void readsLegacyDirectoryMarkers() throws IOException {
    Path root = LogFixtures.legacyDirectory(dir, "app-5", LINES, LogCompression.LZF, "1.2.1", false);
    Path running = LogFixtures.legacyDirectory(dir, "app-6", LINES, LogCompression.NONE, "1.0.0", true);
    Files.move(root.resolve("COMPRESSION_CODEC_lzf"), root.resolve("COMPRESSION_CODEC_org.apache.spark.io.LZFCompressionCodec"));

    Discovery found = LogDiscovery.discover(List.of(dir.toString()), CONF);

    assertThat(found.logs()).extracting(EventLogSource::path, EventLogSource::layout, EventLogSource::codec,
            EventLogSource::inProgress, EventLogSource::sparkVersionHint, EventLogSource::bytes)
        .containsExactly(
            tuple("file:" + root, LogLayout.LEGACY_DIRECTORY, LogCompression.LZF, false, "1.2.1",
                Files.size(root.resolve("EVENT_LOG_1"))),
            tuple("file:" + running, LogLayout.LEGACY_DIRECTORY, LogCompression.NONE, true, "1.0.0",
                Files.size(running.resolve("EVENT_LOG_1"))));
    assertThat(found.logs().get(0).parts()).containsExactly("file:" + root + "/EVENT_LOG_1");
  }

  @ParameterizedTest
  @ValueSource(strings = {"tree", "flat"})
  void archiveFindsEachLogOnceAndSkipsForeignCodecs(String listing) throws IOException {
    Configuration conf = new Configuration();
    conf.set(LogDiscovery.LISTING_KEY, listing);
    LogFixtures.singleFile(dir, "app-a", LINES, LogCompression.NONE, false);
    LogFixtures.singleFile(dir.resolve("2026/11"), "app-b", LINES, LogCompression.SNAPPY, false);
    LogFixtures.rollingDirectory(dir.resolve("2026/11"), "app-c", LINES, LogCompression.LZ4, 3, false);
    LogFixtures.legacyDirectory(dir.resolve("old"), "app-d", LINES, LogCompression.NONE, "1.1.0", false);
    Files.write(dir.resolve("app-e.gz"), new byte[] {31, -117, 8});
    Files.createFile(dir.resolve("app-f"));
    Files.write(dir.resolve(".app-a.crc"), new byte[8]);
    Files.write(dir.resolve("2026/11/app-b.snappy.crc"), new byte[8]);
    LogFixtures.singleFile(dir.resolve("_temporary"), "app-g", LINES, LogCompression.NONE, false);
    LogFixtures.singleFile(dir.resolve(".staging"), "app-h", LINES, LogCompression.NONE, false);

    Discovery found = LogDiscovery.discover(List.of(dir.toString()), conf);

    assertThat(found.logs()).extracting(EventLogSource::path, EventLogSource::layout, EventLogSource::codec)
        .containsExactly(
            tuple("file:" + dir.resolve("2026/11/app-b.snappy"), LogLayout.SINGLE_FILE, LogCompression.SNAPPY),
            tuple("file:" + dir.resolve("2026/11/eventlog_v2_app-c"), LogLayout.ROLLING_DIRECTORY, LogCompression.LZ4),
            tuple("file:" + dir.resolve("app-a"), LogLayout.SINGLE_FILE, LogCompression.NONE),
            tuple("file:" + dir.resolve("app-f"), LogLayout.SINGLE_FILE, LogCompression.NONE),
            tuple("file:" + dir.resolve("old/app-d"), LogLayout.LEGACY_DIRECTORY, LogCompression.NONE));
    assertThat(found.logs().get(3).bytes()).isZero();
    assertThat(found.skipped()).containsExactly(new SkippedFile("file:" + dir.resolve("app-e.gz"), 3,
        Files.getLastModifiedTime(dir.resolve("app-e.gz")).toMillis(),
        "Cannot read event log: unsupported codec suffix (.gz; supported: lz4, lzf, snappy, zstd)"));
  }

  @Test
  void globsMatchFilesAndDirectoriesAndOverlapsCountOnce() throws IOException {
    LogFixtures.singleFile(dir, "app-1", LINES, LogCompression.NONE, false);
    LogFixtures.singleFile(dir, "app-2", LINES, LogCompression.ZSTD, false);
    LogFixtures.singleFile(dir, "local-3", LINES, LogCompression.NONE, false);
    LogFixtures.rollingDirectory(dir, "app-4", LINES, LogCompression.NONE, 4, false);

    Discovery found = LogDiscovery.discover(List.of(dir + "/app-*", dir + "/app-{1,2}*", dir + "/eventlog_v2_*"), CONF);

    assertThat(found.logs()).extracting(l -> l.path().substring(l.path().lastIndexOf('/') + 1))
        .containsExactly("app-1", "app-2.zstd", "eventlog_v2_app-4");
  }

  @Test
  void missingPathOrEmptyGlobIsBadInput() throws IOException {
    Files.createDirectories(dir.resolve("empty"));
    for (String pattern : List.of(dir + "/nope", dir + "/nope-*", dir + "/empty", "")) {
      assertThatThrownBy(() -> LogDiscovery.discover(List.of(pattern), CONF))
          .isInstanceOf(BadInputException.class)
          .hasMessage("Cannot find event logs: no file matches the input (" + pattern + ")");
    }
  }

  @Test
  void unknownFileSystemIsBadInput() {
    assertThatThrownBy(() -> LogDiscovery.discover(List.of("nosuchfs://bucket/logs"), CONF))
        .isInstanceOf(BadInputException.class)
        .hasMessageStartingWith("Cannot find event logs: ")
        .hasMessageEndingWith("(nosuchfs://bucket/logs)");
  }

  @Test
  void logIdIsStableHexOfThePath() throws Exception {
    EventLogSource a = new EventLogSource("file:/a", LogLayout.SINGLE_FILE, List.of("file:/a"), 1, 2, LogCompression.NONE,
        false, null);
    EventLogSource b = new EventLogSource("file:/b", LogLayout.SINGLE_FILE, List.of("file:/b"), 1, 2, LogCompression.NONE,
        false, null);

    assertThat(a.logId()).matches("[0-9a-f]{16}").isEqualTo(roundTrip(a).logId()).isNotEqualTo(b.logId());
    // First 8 bytes of SHA-256("file:/a"), computed independently with sha256sum.
    assertThat(a.logId()).isEqualTo(sha256Prefix("file:/a"));
    assertThat(roundTrip(a)).isEqualTo(a);
  }

  private static String sha256Prefix(String text) throws Exception {
    Process p = new ProcessBuilder("sha256sum").start();
    p.getOutputStream().write(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    p.getOutputStream().close();
    return new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII).substring(0, 16);
  }

  private static EventLogSource roundTrip(EventLogSource source) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(source);
    }
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      return (EventLogSource) in.readObject();
    }
  }

  private static EventLogSource single(Discovery found) {
    assertThat(found.skipped()).isEmpty();
    assertThat(found.logs()).hasSize(1);
    return found.logs().get(0);
  }
}
