package org.perflab.eventlog.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.perflab.eventlog.EventLogReader;
import org.perflab.eventlog.fixture.LogFixtures;
import org.perflab.eventlog.redact.Redactor;
import org.perflab.eventlog.source.EventLogLines;
import org.perflab.eventlog.source.EventLogSource;
import org.perflab.eventlog.source.LogDiscovery;
import org.perflab.table.Table;
import org.perflab.testing.SharedData;

/**
 * The parser reads a log's lines as UTF-8 bytes (scanning task events in place) or as decoded strings: every table
 * row, the status row included, is the same either way, on every bundled sample and Spark reference log.
 */
class Utf8LinesParseTest {
  static Stream<EventLogSource> logs() throws IOException {
    return LogFixtures.samplesAndReferenceLogs().stream();
  }

  @ParameterizedTest
  @MethodSource("logs")
  void bytesAndStringsGiveTheSameRows(EventLogSource source) throws IOException {
    assertSameRows(source);
  }

  /**
   * Lines that are not UTF-8 (a bad continuation byte in a property, a bad lead byte in a stage's name and in a task's
   * host, which the task scanner reads in place), a malformed non-task line and a cut last line: the bytes path reads
   * what the decoded strings read.
   */
  @Test
  void bytesThatAreNotUtf8OrJsonGiveTheSameRowsAsTheirDecodedStrings(@TempDir Path temp) throws IOException {
    Path reference = SharedData.sparkEvents().resolve("local-1422981780767");
    List<byte[]> lines = new ArrayList<>();
    for (String line : Files.readAllLines(reference, StandardCharsets.UTF_8)) {
      lines.add(line.getBytes(StandardCharsets.UTF_8));
    }
    int environment = indexOf(lines, "SparkListenerEnvironmentUpdate");
    int jobStart = indexOf(lines, "SparkListenerJobStart");
    lines.set(environment, replaceFirst(lines.get(environment), "\"Spark Properties\":{",
        "\"Spark Properties\":{\"spark.perflab.bad\":\"caf\u00c3(\","));
    lines.set(jobStart, replaceFirst(lines.get(jobStart), "\"Stage Name\":\"",
        "\"Stage Name\":\"\u00ff\u00fe"));
    int taskEnd = indexOf(lines, "SparkListenerTaskEnd");
    lines.set(taskEnd, replaceFirst(lines.get(taskEnd), "\"Host\":\"", "\"Host\":\"\u00e9\u00ff"));
    lines.add(jobStart + 1, "{\"Event\":\"SparkListenerJobEnd\",\"Job ID\":".getBytes(StandardCharsets.UTF_8));
    byte[] last = lines.get(lines.size() - 1);
    lines.set(lines.size() - 1, Arrays.copyOf(last, last.length / 2));
    Path log = temp.resolve("local-1422981780767");
    try (var out = Files.newOutputStream(log)) {
      for (int i = 0; i < lines.size(); i++) {
        out.write(lines.get(i));
        if (i < lines.size() - 1) {
          out.write('\n');
        }
      }
    }
    EventLogSource source = LogDiscovery.discover(List.of(log.toString()), new Configuration()).logs().get(0);
    ParsedLog fromBytes = assertSameRows(source);
    assertThat(fromBytes.rows(Table.PROPERTIES).toString()).contains("spark.perflab.bad");
  }

  private static int indexOf(List<byte[]> lines, String event) {
    for (int i = 0; i < lines.size(); i++) {
      if (new String(lines.get(i), StandardCharsets.UTF_8).contains("\"Event\":\"" + event + "\"")) {
        return i;
      }
    }
    throw new AssertionError("no " + event);
  }

  /** {@code line} with {@code target} replaced, each char of the replacement written as one byte (Latin-1). */
  private static byte[] replaceFirst(byte[] line, String target, String replacement) {
    String text = new String(line, StandardCharsets.ISO_8859_1);
    int at = text.indexOf(target);
    assertThat(at).as(target).isNotNegative();
    return (text.substring(0, at) + replacement + text.substring(at + target.length()))
        .getBytes(StandardCharsets.ISO_8859_1);
  }

  private static ParsedLog assertSameRows(EventLogSource source) throws IOException {
    Configuration conf = new Configuration();
    List<String> lines = new ArrayList<>();
    boolean terminated;
    try (EventLogLines reader = EventLogLines.open(source, conf)) {
      for (String line = reader.nextLine(); line != null; line = reader.nextLine()) {
        lines.add(line);
      }
      terminated = reader.lastLineTerminated();
    }
    ParsedLog fromStrings = ParsedLog.parse(EventLogReader.identity(source), lines, terminated);
    ParsedLog fromBytes =
        ParsedLog.collect(EventLogReader.rows(source, conf, Redactor.defaults(), ParsedLog.FIXED_CLOCK));

    assertThat(fromBytes.rows(Table.TASKS)).isNotEmpty();
    assertThat(fromBytes.dataRows()).isEqualTo(fromStrings.dataRows());
    assertThat(ParsedLog.text(fromBytes.status())).isEqualTo(ParsedLog.text(fromStrings.status()));
    return fromBytes;
  }
}
