package org.perflab.eventlog;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Paths;
import java.time.Clock;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.perflab.eventlog.redact.Redactor;
import org.perflab.eventlog.source.EventLogSource;
import org.perflab.eventlog.source.LogDiscovery;
import org.perflab.table.Table;
import org.perflab.table.TableRow;
import org.perflab.testing.HistoryServerComparison;
import org.perflab.testing.HistoryServerReplay;

/**
 * Every bundled sample log (Spark 4.1, written by PerfLab's own workloads: rolling zstd directories and single
 * files) read through the full reader and compared with Spark's History Server replaying the same log.
 */
class SampleLogsTest {
  static Stream<EventLogSource> sampleLogs() throws IOException {
    String samples = Paths.get("..", "samples", "spark-events").toAbsolutePath().normalize().toString();
    return LogDiscovery.discover(List.of(samples), new Configuration()).logs().stream();
  }

  @ParameterizedTest
  @MethodSource("sampleLogs")
  void everyStageExecutorAndJobEqualsTheHistoryServer(EventLogSource log) throws IOException {
    Map<Table, List<Function<String, Object>>> rows = new EnumMap<>(Table.class);
    for (Table table : Table.values()) {
      rows.put(table, new ArrayList<>());
    }
    Redactor redactor = Redactor.defaults();
    EventLogReader.rows(log, new Configuration(), redactor, Clock.systemUTC())
        .forEachRemaining(row -> rows.get(row.table()).add(getter(row)));

    List<String> differences = HistoryServerComparison.differences(HistoryServerReplay.replay(log.path()),
        rows.get(Table.STAGES), rows.get(Table.EXECUTORS), rows.get(Table.JOBS));

    assertThat(differences).isEmpty();
    assertThat(rows.get(Table.INGEST_STATUS)).singleElement()
        .satisfies(status -> assertThat(status.apply("status")).isEqualTo("OK"));
    assertThat(rows.get(Table.TASKS)).isNotEmpty();
  }

  private static Function<String, Object> getter(TableRow row) {
    return row::get;
  }
}
