package org.perflab.eventlog.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.perflab.eventlog.EventLogReader;
import org.perflab.eventlog.fixture.LogFixtures;
import org.perflab.eventlog.redact.Redactor;
import org.perflab.eventlog.source.EventLogLines;
import org.perflab.eventlog.source.EventLogSource;
import org.perflab.table.Table;

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
  }
}
