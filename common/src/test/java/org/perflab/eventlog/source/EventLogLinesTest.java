package org.perflab.eventlog.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.perflab.eventlog.fixture.LogFixtures;

class EventLogLinesTest {
  private static final Configuration CONF = new Configuration();

  @TempDir Path dir;

  @Test
  void aStreamGivesItsLinesAsBytesAndAsTextAcrossBufferBoundaries() throws IOException {
    // Lines longer than the 64 KiB read buffer, a CR before a newline, characters beyond ASCII, an unterminated end.
    String longLine = "x".repeat(70_000) + "\u00e9";
    String text = "a\r\n" + longLine + "\n\u20ac b\n\nlast";
    EventLogLines lines =
        EventLogLines.of(new java.io.ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), "stream");
    List<String> read = new ArrayList<>();
    while (lines.advance()) {
      read.add(new String(lines.lineBytes(), lines.lineStart(), lines.lineEnd() - lines.lineStart(),
          StandardCharsets.UTF_8));
    }

    assertThat(read).containsExactly("a", longLine, "\u20ac b", "", "last");
    assertThat(lines.lastLineTerminated()).isFalse();
    assertThat(lines.nextLine()).isNull();
  }

  @Test
  void countsLinesAcrossPartsAndReportsTheirPart() throws IOException {
    List<String> lines = LogFixtures.sampleLines("app-1", 7);
    Path root = LogFixtures.rollingDirectory(dir, "app-1", lines, LogCompression.NONE, 3, false);
    EventLogSource source = discoverOne(root);

    List<String> read = new ArrayList<>();
    List<Long> numbers = new ArrayList<>();
    List<String> parts = new ArrayList<>();
    try (EventLogLines reader = EventLogLines.open(source, CONF)) {
      assertThat(reader.lineNumber()).isZero();
      for (String line = reader.nextLine(); line != null; line = reader.nextLine()) {
        read.add(line);
        numbers.add(reader.lineNumber());
        parts.add(reader.currentPart().substring(reader.currentPart().lastIndexOf('/') + 1));
      }
      assertThat(reader.lastLineTerminated()).isTrue();
      assertThat(reader.nextLine()).isNull();
    }
    assertThat(read).isEqualTo(lines);
    assertThat(numbers).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L);
    assertThat(parts).containsExactly("events_1_app-1", "events_1_app-1", "events_1_app-1", "events_2_app-1",
        "events_2_app-1", "events_2_app-1", "events_3_app-1");
  }

  @Test
  void detectsTruncatedLastLineAndDropsCarriageReturns() throws IOException {
    Path file = dir.resolve("app-1.inprogress");
    Files.writeString(file, "{\"a\":1}\r\n\n{\"b\":2}\n{\"Event\":\"SparkListenerTas", StandardCharsets.UTF_8);

    assertThat(readAll(discoverOne(file))).containsExactly("{\"a\":1}", "", "{\"b\":2}", "{\"Event\":\"SparkListenerTas");
    try (EventLogLines reader = EventLogLines.open(discoverOne(file), CONF)) {
      while (reader.nextLine() != null) {
        assertThat(reader.lastLineTerminated()).isEqualTo(reader.lineNumber() < 4);
      }
      assertThat(reader.lineNumber()).isEqualTo(4);
      assertThat(reader.lastLineTerminated()).isFalse();
    }
  }

  @ParameterizedTest
  @EnumSource(LogCompression.class)
  void readsLinesOfTensOfMegabytes(LogCompression codec) throws IOException {
    String plan = "{\"Event\":\"SparkListenerSQLExecutionStart\",\"physicalPlanDescription\":\""
        + "Project [x#1] \u00e9\u6f22 ".repeat(1_200_000) + "\"}";
    List<String> lines = List.of("{\"a\":1}", plan, "{\"b\":2}");
    Path file = LogFixtures.singleFile(dir, "app-big", lines, codec, false);

    assertThat(readAll(discoverOne(file))).isEqualTo(lines);
  }

  @ParameterizedTest
  @EnumSource(LogCompression.class)
  void zeroByteFileHasNoLines(LogCompression codec) throws IOException {
    Path file = Files.createFile(dir.resolve("app-empty" + codec.suffix()));
    EventLogSource source = discoverOne(file);

    try (EventLogLines reader = EventLogLines.open(source, CONF)) {
      assertThat(reader.nextLine()).isNull();
      assertThat(reader.lineNumber()).isZero();
      assertThat(reader.lastLineTerminated()).isTrue();
    }
  }

  @ParameterizedTest
  @EnumSource(value = LogCompression.class, names = "NONE", mode = EnumSource.Mode.EXCLUDE)
  void binaryJunkUnderACodecSuffixFailsWithAClearMessage(LogCompression codec) throws IOException {
    byte[] junk = new byte[200_000];
    new Random(42).nextBytes(junk);
    Path file = dir.resolve("app-junk" + codec.suffix());
    Files.write(file, junk);

    assertFailsToDecode(file, codec);
  }

  @ParameterizedTest
  @EnumSource(value = LogCompression.class, names = "NONE", mode = EnumSource.Mode.EXCLUDE)
  void plainTextUnderACodecSuffixFailsWithAClearMessage(LogCompression codec) throws IOException {
    Path file = dir.resolve("app-plain" + codec.suffix());
    LogFixtures.write(file, LogFixtures.sampleLines("app-plain", 500), LogCompression.NONE);

    assertFailsToDecode(file, codec);
  }

  @ParameterizedTest
  @EnumSource(value = LogCompression.class, names = "NONE", mode = EnumSource.Mode.EXCLUDE)
  void corruptedMiddleOfACompressedStreamFailsWithAClearMessage(LogCompression codec) throws IOException {
    List<String> lines = LogFixtures.sampleLines("app-c", 3000);
    Path file = LogFixtures.singleFile(dir, "app-c", lines, codec, false);
    byte[] bytes = Files.readAllBytes(file);
    for (int i = bytes.length / 2; i < bytes.length / 2 + 64; i++) {
      bytes[i] ^= 0x5A;
    }
    Files.write(file, bytes);

    assertFailsToDecode(file, codec);
  }

  @ParameterizedTest
  @EnumSource(LogCompression.class)
  void truncatedInProgressFileYieldsAPrefixWithoutError(LogCompression codec) throws IOException {
    List<String> lines = LogFixtures.sampleLines("app-t", 5000);
    Path file = cutAtThreeFifths(LogFixtures.singleFile(dir, "app-t", lines, codec, true));

    List<String> read = new ArrayList<>();
    assertTimeoutPreemptively(Duration.ofSeconds(30), () -> readInto(discoverOne(file), lines, read));

    assertThat(read).isEqualTo(lines.subList(0, read.size()));
    assertThat(read.size()).as("readable prefix").isGreaterThan(1000);
  }

  @ParameterizedTest
  @EnumSource(value = LogCompression.class, names = "NONE", mode = EnumSource.Mode.EXCLUDE)
  void truncatedCompletedFileYieldsAPrefixThenFailsNamingTheCodecAndOffset(LogCompression codec) throws IOException {
    List<String> lines = LogFixtures.sampleLines("app-t", 5000);
    Path file = cutAtThreeFifths(LogFixtures.singleFile(dir, "app-t", lines, codec, false));

    List<String> read = new ArrayList<>();
    assertTimeoutPreemptively(Duration.ofSeconds(30), () -> assertThatThrownBy(
        () -> readInto(discoverOne(file), lines, read))
        .isInstanceOf(IOException.class)
        .hasMessage(String.format(Locale.ROOT,
            "Cannot read event log to its end: truncated %s stream (after %,d compressed bytes of file:%s)",
            codec.shortName(), Files.size(file), file)));

    assertThat(read).isEqualTo(lines.subList(0, read.size()));
    assertThat(read.size()).as("readable prefix").isGreaterThan(1000);
  }

  /** Keeps the first three fifths of the file's bytes. */
  private static Path cutAtThreeFifths(Path file) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    return Files.write(file, Arrays.copyOf(bytes, bytes.length * 3 / 5));
  }

  /** Reads every line into {@code read}, then drops a last line cut short after checking it begins its line. */
  private static void readInto(EventLogSource source, List<String> lines, List<String> read) throws IOException {
    try (EventLogLines reader = EventLogLines.open(source, CONF)) {
      try {
        for (String line = reader.nextLine(); line != null; line = reader.nextLine()) {
          read.add(line);
        }
      } finally {
        if (!reader.lastLineTerminated()) {
          String partial = read.remove(read.size() - 1);
          assertThat(lines.get(read.size())).startsWith(partial);
        }
      }
    }
  }

  @Test
  void binaryJunkInAPlainFileIsReadAsText() throws IOException {
    Path file = dir.resolve("app-junk");
    Files.write(file, new byte[] {(byte) 0xff, (byte) 0xfe, 'a', '\n', 0, 1, 2});

    assertThat(readAll(discoverOne(file))).containsExactly("\ufffd\ufffda", "\u0000\u0001\u0002");
  }

  private static void assertFailsToDecode(Path file, LogCompression codec) {
    assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
      EventLogSource source = discoverOne(file);
      assertThatThrownBy(() -> readAll(source))
          .isInstanceOf(IOException.class)
          .hasMessageStartingWith("Cannot decode " + codec + " stream: ")
          .hasMessageEndingWith("(file:" + file + ")");
    });
  }

  static List<String> readAll(EventLogSource source) throws IOException {
    List<String> lines = new ArrayList<>();
    try (EventLogLines reader = EventLogLines.open(source, CONF)) {
      for (String line = reader.nextLine(); line != null; line = reader.nextLine()) {
        lines.add(line);
      }
    }
    return lines;
  }

  static EventLogSource discoverOne(Path path) throws IOException {
    Discovery found = LogDiscovery.discover(List.of(path.toString()), CONF);
    assertThat(found.logs()).hasSize(1);
    return found.logs().get(0);
  }
}
