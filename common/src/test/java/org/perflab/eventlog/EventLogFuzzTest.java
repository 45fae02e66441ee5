package org.perflab.eventlog;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.perflab.eventlog.fixture.LogFixtures;
import org.perflab.eventlog.fixture.LogMutations;
import org.perflab.eventlog.fixture.MutatedLines;
import org.perflab.eventlog.parse.ParsedLog;
import org.perflab.eventlog.redact.Redactor;
import org.perflab.eventlog.source.LogCompression;
import org.perflab.eventlog.source.Discovery;
import org.perflab.eventlog.source.EventLogSource;
import org.perflab.eventlog.source.LogDiscovery;
import org.perflab.table.Table;
import org.perflab.table.TableRow;
import org.perflab.testing.SampleLogs;
import org.perflab.testing.SharedData;

/**
 * "Nothing is lost or invented": real logs (the bundled Spark 4.1 samples and, when present, Spark's reference logs)
 * damaged by {@link LogMutations} and read by {@link EventLogReader} from real files, in a seeded random codec. Each
 * damaged log must get exactly the status and counts its damage calls for, never an exception, and every undamaged
 * event must still yield exactly the rows the clean log yields.
 */
class EventLogFuzzTest {
  private static final long SEED = 20261122L;
  private static final Configuration CONF = new Configuration();
  private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final LogCompression[] CODECS = LogCompression.values();

  @TempDir Path dir;

  /** One real log: a name for messages and its decompressed lines. */
  record BaseLog(String name, List<String> lines) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<BaseLog> baseLogs() throws IOException {
    List<BaseLog> logs = new ArrayList<>();
    for (EventLogSource sample : SampleLogs.discover()) {
      logs.add(new BaseLog(sample.path().substring(sample.path().lastIndexOf('/') + 1), SampleLogs.lines(sample)));
    }
    Path reference = SharedData.root().resolve("data/spark-events");
    if (Files.isDirectory(reference)) {
      try (Stream<Path> files = Files.list(reference)) {
        files.filter(Files::isRegularFile).sorted()
            .forEach(f -> logs.add(new BaseLog(f.getFileName().toString(), LogFixtures.readLines(f))));
      }
    }
    return logs.stream();
  }

  /** A parsed log: its rows by table. */
  private record Parsed(Map<Table, List<TableRow>> rows) {
    TableRow status() {
      return rows.get(Table.INGEST_STATUS).get(0);
    }

    List<TableRow> of(Table table) {
      return rows.get(table);
    }

    /** Every data table's rows as sorted strings, status excluded. */
    Map<Table, List<String>> dataRows() {
      Map<Table, List<String>> tables = new EnumMap<>(Table.class);
      for (Table table : Table.values()) {
        if (table != Table.INGEST_STATUS) {
          tables.put(table, rows.get(table).stream().map(ParsedLog::text).sorted().toList());
        }
      }
      return tables;
    }

    long dataRowCount() {
      return rows.entrySet().stream().filter(e -> e.getKey() != Table.INGEST_STATUS)
          .mapToLong(e -> e.getValue().size()).sum();
    }
  }

  /** Reads a log file as ingest does: discovery, then the streaming reader. Any exception fails the test. */
  private static Parsed read(Path file) throws IOException {
    Discovery found = LogDiscovery.discover(List.of(file.toString()), CONF);
    assertThat(found.logs()).as("discovered " + file).hasSize(1);
    Map<Table, List<TableRow>> rows = new EnumMap<>(Table.class);
    for (Table table : Table.values()) {
      rows.put(table, new ArrayList<>());
    }
    EventLogReader.rows(found.logs().get(0), CONF, Redactor.defaults(), CLOCK)
        .forEachRemaining(row -> rows.get(row.table()).add(row));
    assertThat(rows.get(Table.INGEST_STATUS)).as("one status row for " + file).hasSize(1);
    return new Parsed(rows);
  }

  /** The lines as a log in a subdirectory of its own, with the given codec and name; the same name across calls. */
  private Parsed write(String subdir, String appId, List<String> lines, boolean terminated, LogCompression codec,
      boolean inProgress) throws IOException {
    MutatedLines asIs = new MutatedLines(lines, terminated, List.of(), subdir);
    return read(asIs.writeSingleFile(dir.resolve(subdir), appId, codec, inProgress));
  }

  private static LogCompression codec(Random random) {
    return CODECS[random.nextInt(CODECS.length)];
  }

  private static long longOf(TableRow row, String column) {
    return ((Number) row.get(column)).longValue();
  }

  private static List<Long> firstBadLines(TableRow status) {
    return Arrays.asList((Long[]) status.get("first_bad_lines"));
  }

  private static List<Long> firstTen(List<Long> lineNumbers) {
    return lineNumbers.subList(0, Math.min(10, lineNumbers.size()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("baseLogs")
  void garbageLinesAreCountedWhereTheyAreAndNothingElseChanges(BaseLog log) throws IOException {
    Random random = new Random(SEED ^ log.name().hashCode());
    LogCompression codec = codec(random);
    Parsed clean = write("clean", "app", log.lines(), true, codec, false);
    MutatedLines garbage = LogMutations.insertGarbage(log.lines(), 1 + random.nextInt(12), random.nextLong());

    Parsed parsed = write("garbage", "app", garbage.lines(), true, codec, false);

    TableRow status = parsed.status();
    int count = garbage.lineNumbers().size();
    assertThat(status.get("status")).as(garbage.description()).isEqualTo("PARTIAL");
    assertThat(longOf(status, "bad_lines")).isEqualTo(count);
    assertThat(firstBadLines(status)).isEqualTo(firstTen(garbage.lineNumbers()));
    assertThat((String) status.get("reason")).contains(count + " bad lines");
    assertThat(status.get("events")).isEqualTo(clean.status().get("events"));
    assertThat(status.get("unknown_events")).isEqualTo(clean.status().get("unknown_events"));
    assertThat(status.get("truncated_last_line")).isEqualTo(false);
    assertThat(parsed.dataRows()).isEqualTo(clean.dataRows());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("baseLogs")
  void unknownEventsAreCountedAndTheLogStaysAsItWas(BaseLog log) throws IOException {
    Random random = new Random(SEED ^ log.name().hashCode() ^ 1);
    LogCompression codec = codec(random);
    Parsed clean = write("clean", "app", log.lines(), true, codec, false);
    MutatedLines unknown = LogMutations.insertUnknownEvents(log.lines(), 1 + random.nextInt(20), random.nextLong());

    Parsed parsed = write("unknown", "app", unknown.lines(), true, codec, false);

    TableRow status = parsed.status();
    assertThat(clean.status().get("status")).isEqualTo("OK");
    assertThat(status.get("status")).as(unknown.description()).isEqualTo("OK");
    assertThat(status.get("reason")).isNull();
    assertThat(longOf(status, "unknown_events"))
        .isEqualTo(longOf(clean.status(), "unknown_events") + unknown.lineNumbers().size());
    assertThat(status.get("events")).isEqualTo(clean.status().get("events"));
    assertThat(longOf(status, "bad_lines")).isZero();
    assertThat(parsed.dataRows()).isEqualTo(clean.dataRows());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("baseLogs")
  void truncatedLastLineIsPartialInACompletedLogAndOkInAnInProgressOne(BaseLog log) throws IOException {
    Random random = new Random(SEED ^ log.name().hashCode() ^ 2);
    LogCompression codec = codec(random);
    int line = 2 + random.nextInt(log.lines().size() - 1);
    while (log.lines().get(line - 1).length() < 2) {
      line--;
    }
    MutatedLines truncated = LogMutations.truncateMidLine(log.lines(), line);
    List<String> before = log.lines().subList(0, line - 1);

    for (boolean inProgress : new boolean[] {false, true}) {
      String name = inProgress ? "in-progress" : "completed";
      Parsed prefix = write("prefix-" + name, "app", before, true, codec, inProgress);
      Parsed parsed = write("truncated-" + name, "app", truncated.lines(), false, codec, inProgress);

      TableRow status = parsed.status();
      assertThat(status.get("truncated_last_line")).as(name + ": " + truncated.description()).isEqualTo(!inProgress);
      assertThat(longOf(status, "bad_lines")).as(name).isZero();
      assertThat(status.get("events")).as(name).isEqualTo(prefix.status().get("events"));
      assertThat(parsed.dataRows()).as(name).isEqualTo(prefix.dataRows());
      if (inProgress) {
        assertThat(status.get("status")).as(name + ": " + status.get("reason")).isEqualTo("OK");
      } else {
        assertThat(status.get("status")).as(name).isEqualTo("PARTIAL");
        assertThat((String) status.get("reason")).contains("truncated last line");
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("baseLogs")
  void taskEndWithoutItsRequiredTaskIdIsABadLineAndItsTaskStaysRunning(BaseLog log) throws IOException {
    Random random = new Random(SEED ^ log.name().hashCode() ^ 3);
    LogCompression codec = codec(random);
    Parsed clean = write("clean", "app", log.lines(), true, codec, false);
    MutatedLines deleted = LogMutations.deleteField(log.lines(), "SparkListenerTaskEnd", "Task Info/Task ID",
        2 + random.nextInt(5));
    Set<Long> damagedTasks = new HashSet<>();
    for (long n : deleted.lineNumbers()) {
      damagedTasks.add(JSON.readTree(log.lines().get((int) n - 1)).at("/Task Info/Task ID").asLong());
    }

    Parsed parsed = write("deleted", "app", deleted.lines(), true, codec, false);

    TableRow status = parsed.status();
    assertThat(deleted.lineNumbers()).isNotEmpty();
    assertThat(status.get("status")).as(deleted.description()).isEqualTo("PARTIAL");
    assertThat(longOf(status, "bad_lines")).isEqualTo(deleted.lineNumbers().size());
    assertThat(firstBadLines(status)).isEqualTo(firstTen(deleted.lineNumbers()));
    assertThat((String) status.get("reason")).contains("missing field 'Task ID' in SparkListenerTaskEnd");
    assertThat(longOf(status, "events")).isEqualTo(longOf(clean.status(), "events") - deleted.lineNumbers().size());
    // The task started, its end is unreadable: it is kept as RUNNING, never dropped and never given an end.
    assertThat(parsed.of(Table.TASKS)).hasSameSizeAs(clean.of(Table.TASKS));
    List<String> cleanUndamaged = taskRows(clean, damagedTasks, false);
    assertThat(taskRows(parsed, damagedTasks, false)).isEqualTo(cleanUndamaged);
    assertThat(parsed.of(Table.TASKS)).filteredOn(t -> damagedTasks.contains((Long) t.get("task_id")))
        .hasSize(damagedTasks.size())
        .allSatisfy(t -> {
          assertThat(t.get("status")).isEqualTo("RUNNING");
          assertThat(t.get("finish_time_ms")).isNull();
        });
    assertThat(parsed.of(Table.APPLICATIONS)).hasSize(1);
    assertThat(parsed.of(Table.STAGES)).hasSameSizeAs(clean.of(Table.STAGES));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("baseLogs")
  void missingOptionalMetricIsNullNotZeroAndTheTaskIsKept(BaseLog log) throws IOException {
    Random random = new Random(SEED ^ log.name().hashCode() ^ 4);
    LogCompression codec = codec(random);
    Parsed clean = write("clean", "app", log.lines(), true, codec, false);
    MutatedLines deleted = LogMutations.deleteField(log.lines(), "SparkListenerTaskEnd",
        "Task Metrics/Executor Run Time", 1 + random.nextInt(4));
    Set<Long> damagedTasks = new HashSet<>();
    for (long n : deleted.lineNumbers()) {
      damagedTasks.add(JSON.readTree(log.lines().get((int) n - 1)).at("/Task Info/Task ID").asLong());
    }

    Parsed parsed = write("deleted", "app", deleted.lines(), true, codec, false);

    assertThat(deleted.lineNumbers()).isNotEmpty();
    assertThat(parsed.status().get("status")).as(deleted.description()).isEqualTo(clean.status().get("status"));
    assertThat(longOf(parsed.status(), "bad_lines")).isZero();
    assertThat(parsed.status().get("events")).isEqualTo(clean.status().get("events"));
    assertThat(taskRows(parsed, damagedTasks, false)).isEqualTo(taskRows(clean, damagedTasks, false));
    assertThat(parsed.of(Table.TASKS)).filteredOn(t -> damagedTasks.contains((Long) t.get("task_id")))
        .hasSize(damagedTasks.size())
        .allSatisfy(t -> assertThat(t.get("executor_run_time_ms")).isNull());
    assertThat(parsed.of(Table.TASKS)).hasSameSizeAs(clean.of(Table.TASKS));
    assertThat(parsed.dataRows().get(Table.JOBS)).isEqualTo(clean.dataRows().get(Table.JOBS));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("baseLogs")
  void compressedLogCutAtAnyByteKeepsOnlyWhatWasWritten(BaseLog log) throws IOException {
    Random random = new Random(SEED ^ log.name().hashCode() ^ 6);
    for (LogCompression codec : CODECS) {
      Parsed clean = write("whole-" + codec, "app", log.lines(), true, codec, false);
      Path full = dir.resolve("whole-" + codec).resolve("app" + codec.suffix());
      byte[] bytes = Files.readAllBytes(full);
      int cut = 1 + random.nextInt(bytes.length - 1);
      for (boolean inProgress : new boolean[] {false, true}) {
        Path file = dir.resolve("cut-" + codec + "-" + inProgress)
            .resolve("app" + codec.suffix() + (inProgress ? ".inprogress" : ""));
        Files.createDirectories(file.getParent());
        Files.write(file, Arrays.copyOf(bytes, cut));

        Parsed parsed = read(file);

        String what = codec + " cut at byte " + cut + " of " + bytes.length + (inProgress ? ", in progress" : "");
        TableRow status = parsed.status();
        long events = longOf(status, "events");
        assertThat(events).as(what).isLessThan(longOf(clean.status(), "events"));
        // A completed log says it was cut (plain text only by a last line cut short); an in-progress one may end
        // anywhere.
        boolean seen = !inProgress && (codec != LogCompression.NONE || bytes[cut - 1] != '\n');
        assertThat(status.get("status")).as(what + ": " + status.get("reason"))
            .isEqualTo(events == 0 ? "FAILED" : seen ? "PARTIAL" : "OK");
        if (seen && codec != LogCompression.NONE) {
          assertThat((String) status.get("reason")).as(what).contains(String.format(Locale.ROOT,
              "truncated %s stream (after %,d compressed bytes of ", codec.shortName(), cut));
        }
        if (events == 0) {
          assertThat(parsed.dataRowCount()).as(what).isZero();
        }
        // Every finished task is one of the clean log's; no task appears that the clean log lacks.
        Set<String> cleanTasks = new HashSet<>(taskRows(clean, Set.of(), false));
        assertThat(parsed.of(Table.TASKS)).as(what)
            .filteredOn(t -> !"RUNNING".equals(t.get("status")))
            .allSatisfy(t -> assertThat(cleanTasks).contains(ParsedLog.text(t)));
        assertThat(parsed.of(Table.TASKS).size()).as(what).isLessThanOrEqualTo(clean.of(Table.TASKS).size());
      }
    }
  }

  /** The task rows, as strings, of the tasks in (or not in) {@code ids}. */
  private static List<String> taskRows(Parsed parsed, Set<Long> ids, boolean in) {
    return parsed.of(Table.TASKS).stream().filter(t -> ids.contains((Long) t.get("task_id")) == in)
        .map(ParsedLog::text).sorted().toList();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("baseLogs")
  void undecodableFilesFailWithAReasonAndInventNothing(BaseLog log) throws IOException {
    Random random = new Random(SEED ^ log.name().hashCode() ^ 5);
    List<Path> files = new ArrayList<>();
    for (LogCompression claimed : CODECS) {
      if (claimed != LogCompression.NONE) {
        files.add(LogMutations.wrongSuffix(dir.resolve("wrong-" + claimed), "app", log.lines(), claimed).file());
      }
    }
    for (LogCompression claimed : CODECS) {
      files.add(LogMutations.binaryJunk(dir.resolve("junk-" + claimed), "app" + claimed.suffix(),
          1000 + random.nextInt(30_000), random.nextLong()).file());
    }

    for (Path file : files) {
      Parsed parsed = read(file);
      TableRow status = parsed.status();
      assertThat(status.get("status")).as(file.toString()).isEqualTo("FAILED");
      assertThat((String) status.get("reason")).as(file.toString()).startsWith("Cannot read event log: ");
      assertThat(longOf(status, "events")).isZero();
      assertThat(parsed.dataRowCount()).as("rows invented for " + file).isZero();
    }
  }

  @Test
  void zeroByteLogsFailAsEmpty() throws IOException {
    for (LogCompression codec : CODECS) {
      Path file = LogMutations.zeroBytes(dir.resolve("empty-" + codec), "app-empty" + codec.suffix()).file();

      Parsed parsed = read(file);

      assertThat(parsed.status().get("status")).isEqualTo("FAILED");
      assertThat(parsed.status().get("reason")).isEqualTo("Cannot read event log: empty log");
      assertThat(parsed.dataRowCount()).isZero();
    }
  }

  @Test
  void textLongerThanJacksonsDefaultStringLimitIsRead() throws IOException {
    List<String> lines = baseLogs().map(BaseLog::lines)
        .filter(l -> l.stream().anyMatch(line -> line.contains("SparkListenerSQLExecutionStart")))
        .findFirst().orElseThrow();
    int index = 0;
    while (!lines.get(index).contains("SparkListenerSQLExecutionStart")) {
      index++;
    }
    com.fasterxml.jackson.databind.node.ObjectNode start =
        (com.fasterxml.jackson.databind.node.ObjectNode) JSON.readTree(lines.get(index));
    long executionId = start.get("executionId").asLong();
    // Spark writes and reads such texts (SPARK-49872 lifted Jackson's 20,000,000-character limit in JsonProtocol).
    start.put("details", start.path("details").asText() + "\n" + "x".repeat(20_000_001));
    List<String> huge = new ArrayList<>(lines);
    huge.set(index, JSON.writeValueAsString(start));
    Parsed clean = write("clean", "app", lines, true, LogCompression.NONE, false);

    Parsed parsed = write("huge", "app", huge, true, LogCompression.ZSTD, false);

    assertThat(parsed.status().get("status")).as("%s", parsed.status().get("reason")).isEqualTo("OK");
    assertThat(parsed.status().get("events")).isEqualTo(clean.status().get("events"));
    assertThat(parsed.of(Table.SQL_EXECUTIONS)).hasSameSizeAs(clean.of(Table.SQL_EXECUTIONS));
    TableRow execution = parsed.of(Table.SQL_EXECUTIONS).stream()
        .filter(row -> ((Number) row.get("execution_id")).longValue() == executionId).findFirst().orElseThrow();
    assertThat(((String) execution.get("details")).length()).isGreaterThan(20_000_000);
  }
}
