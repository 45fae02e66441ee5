package org.perflab.spark.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perflab.spark.storage.TableStore;
import org.perflab.errors.BadInputException;
import org.perflab.eventlog.fixture.LogFixtures;
import org.perflab.eventlog.redact.Redactor;
import org.perflab.eventlog.source.LogCompression;
import org.perflab.table.Table;
import org.perflab.testing.HistoryServerComparison;
import org.perflab.testing.HistoryServerReplay;
import org.perflab.testing.SharedData;

/** The ingest job on Spark's reference logs, end to end through Spark and Parquet. */
class IngestTest {
  private static SparkSession spark;

  @TempDir Path temp;

  @BeforeAll
  static void startSpark() {
    spark = SparkTestSession.get();
  }

  private IngestSummary ingest(List<String> inputs, Path output, boolean incremental) throws IOException {
    IngestOptions options = new IngestOptions(inputs, output.toString(), incremental, Redactor.DEFAULT_PATTERN, 0);
    return new Ingest(spark, options, Clock.systemUTC()).run();
  }

  private Dataset<Row> table(Path output, Table table) {
    return new TableStore(spark, output.toString()).read(table).orElseThrow();
  }

  private static List<Function<String, Object>> getters(Dataset<Row> rows) {
    return rows.collectAsList().stream()
        .map(row -> (Function<String, Object>) column -> row.get(row.fieldIndex(column)))
        .collect(Collectors.toList());
  }

  @Test
  void everyReferenceLogMatchesTheHistoryServerAfterParquet() throws IOException {
    Path events = SharedData.sparkEvents();
    Path output = temp.resolve("out");
    IngestSummary summary = ingest(List.of(events.toString()), output, false);

    assertThat(summary.logsParsed()).isEqualTo(4);
    assertThat(summary.statusCounts()).isEqualTo(Map.of("OK", 4L));
    try (Stream<Path> logs = Files.list(events)) {
      for (Path log : logs.toList()) {
        String appId = log.getFileName().toString();
        HistoryServerReplay replay = HistoryServerReplay.replay(log.toString());
        List<String> differences = HistoryServerComparison.differences(replay,
            getters(table(output, Table.STAGES).filter("app_id = '" + appId + "'")),
            getters(table(output, Table.EXECUTORS).filter("app_id = '" + appId + "'")),
            getters(table(output, Table.JOBS).filter("app_id = '" + appId + "'")));
        assertThat(differences).as(appId).isEmpty();
      }
    }
  }

  @Test
  void rerunningReplacesRowsAndIncrementalSkipsUnchangedLogs() throws IOException {
    Path archive = Files.createDirectories(temp.resolve("archive"));
    Path log = SharedData.sparkEvents().resolve("local-1422981780767");
    Files.copy(log, archive.resolve("local-1422981780767"));
    Path output = temp.resolve("out");

    ingest(List.of(archive.toString()), output, false);
    long tasks = table(output, Table.TASKS).count();
    ingest(List.of(archive.toString()), output, false);
    IngestSummary incremental = ingest(List.of(archive.toString()), output, true);

    assertThat(table(output, Table.TASKS).count()).isEqualTo(tasks).isEqualTo(32);
    assertThat(table(output, Table.INGEST_STATUS).count()).isEqualTo(1);
    assertThat(incremental.logsUnchanged()).isEqualTo(1);
    assertThat(incremental.logsParsed()).isZero();

    LogFixtures.copyWithAppId(log, archive, "local-9999");
    IngestSummary grown = ingest(List.of(archive.toString()), output, true);
    assertThat(grown.logsParsed()).isEqualTo(1);
    assertThat(table(output, Table.TASKS).count()).isEqualTo(64);
    assertThat(table(output, Table.APPLICATIONS).count()).isEqualTo(2);
  }

  @Test
  void completedCopyWinsOverInProgressCopyOfTheSameAttempt() throws IOException {
    Path archive = Files.createDirectories(temp.resolve("archive"));
    List<String> lines = LogFixtures.readLines(SharedData.sparkEvents().resolve("local-1422981780767"));
    List<String> partial = lines.subList(0, lines.size() / 2);
    Path output = temp.resolve("out");

    LogFixtures.singleFile(archive, "local-1422981780767", partial, LogCompression.NONE, true);
    ingest(List.of(archive.toString()), output, true);
    assertThat(table(output, Table.APPLICATIONS).first().<Boolean>getAs("completed")).isFalse();

    LogFixtures.singleFile(archive, "local-1422981780767", lines, LogCompression.ZSTD, false);
    IngestSummary summary = ingest(List.of(archive.toString()), output, true);

    assertThat(summary.superseded()).isEqualTo(1);
    assertThat(table(output, Table.APPLICATIONS).count()).isEqualTo(1);
    assertThat(table(output, Table.APPLICATIONS).first().<Boolean>getAs("completed")).isTrue();
    assertThat(table(output, Table.TASKS).count()).isEqualTo(32);
    List<Row> status = table(output, Table.INGEST_STATUS).orderBy("status").collectAsList();
    assertThat(status).extracting(row -> row.<String>getAs("status")).containsExactly("OK", "SKIPPED");
    assertThat(status.get(1).<String>getAs("superseded_by")).endsWith("local-1422981780767.zstd");
  }

  @Test
  void secretsNeverReachParquet() throws IOException {
    Path archive = Files.createDirectories(temp.resolve("archive"));
    List<String> lines = LogFixtures.readLines(SharedData.sparkEvents().resolve("app-20161116163331-0000"));
    String secret = "hunter2-s3cr3t";
    List<String> leaky = lines.stream()
        .map(line -> line.replace("\"spark.app.name\":", "\"fs.azure.account.key.acct.blob.core.windows.net\":\""
            + secret + "\",\"spark.jdbc.url\":\"jdbc:postgresql://db/x?user=u&password=" + secret
            + "\",\"spark.app.name\":"))
        .toList();
    LogFixtures.singleFile(archive, "app-20161116163331-0000", leaky, LogCompression.NONE, false);
    Path output = temp.resolve("out");

    ingest(List.of(archive.toString()), output, false);

    assertThat(table(output, Table.PROPERTIES).filter("key like 'fs.azure.account.key%'").count()).isEqualTo(1);
    try (Stream<Path> files = Files.walk(output)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        assertThat(new String(Files.readAllBytes(file), java.nio.charset.StandardCharsets.ISO_8859_1))
            .as(file.toString()).doesNotContain(secret);
      }
    }
  }

  @Test
  void runKilledBeforeItsStatusWasWrittenIsCompletedByTheNextRun() throws IOException {
    Path archive = Files.createDirectories(temp.resolve("archive"));
    Path log = archive.resolve("local-1422981780767");
    Files.copy(SharedData.sparkEvents().resolve("local-1422981780767"), log);
    Path output = temp.resolve("out");
    ingest(List.of(archive.toString()), output, true);
    // A run killed after committing the data tables but before ingest_status, its last commit, leaves its journal
    // and no status row: the data rows are there, the status is not.
    org.apache.commons.io.FileUtils.deleteDirectory(output.resolve("ingest_status").toFile());
    String logId = org.perflab.eventlog.source.EventLogSource.logIdOf("file:" + log.toAbsolutePath());
    Files.createDirectories(output.resolve(PendingRuns.DIRECTORY));
    Files.writeString(output.resolve(PendingRuns.DIRECTORY).resolve("20260101T000000000Z-000000"), logId);

    IngestSummary next = ingest(List.of(archive.toString()), output, true);

    assertThat(next.logsParsed()).isEqualTo(1);
    assertThat(table(output, Table.TASKS).count()).isEqualTo(32);
    assertThat(table(output, Table.APPLICATIONS).count()).isEqualTo(1);
    assertThat(table(output, Table.INGEST_STATUS).count()).isEqualTo(1);
    assertThat(Files.list(output.resolve(PendingRuns.DIRECTORY)).count()).isZero();
  }

  @Test
  void everyStatusRowCarriesItsRunIdAndRunIdsSortInRunOrder() throws IOException {
    Path archive = Files.createDirectories(temp.resolve("archive"));
    Path log = SharedData.sparkEvents().resolve("local-1422981780767");
    Files.copy(log, archive.resolve("local-1422981780767"));
    Path output = temp.resolve("out");
    IngestSummary first = ingest(List.of(archive.toString()), output, true);
    LogFixtures.copyWithAppId(log, archive, "local-9999");
    IngestSummary second = ingest(List.of(archive.toString()), output, true);

    assertThat(second.runId()).isGreaterThan(first.runId());
    List<Row> changed = table(output, Table.INGEST_STATUS).filter("run_id > '" + first.runId() + "'").collectAsList();
    assertThat(changed).hasSize(1);
    assertThat(changed.get(0).<String>getAs("log_path")).endsWith("local-9999");
    assertThat(table(output, Table.INGEST_STATUS).filter("run_id = '" + first.runId() + "'").count()).isEqualTo(1);
  }

  @Test
  void commandLineMapsBadInputToExitCodeTwo() {
    String output = temp.resolve("o").toString();
    assertThat(org.perflab.jobs.PerfLab.run("ingest", "--input", temp.resolve("none").toString(), "--output", output))
        .isEqualTo(2);
    assertThat(org.perflab.jobs.PerfLab.run("ingest", "--input", temp.toString(), "--redaction-regex", "(unclosed"))
        .isEqualTo(2);
    assertThat(org.perflab.jobs.PerfLab.run("ingest", "--min-age-seconds", "-5")).isEqualTo(2);
    assertThat(org.perflab.jobs.PerfLab.run("ingest", "--no-such-option")).isEqualTo(2);
  }

  @Test
  void inputThatMatchesNothingIsBadInput() {
    assertThatThrownBy(() -> ingest(List.of(temp.resolve("nothing-here").toString()), temp.resolve("o"), false))
        .isInstanceOf(BadInputException.class)
        .hasMessageStartingWith("Cannot find event logs");
  }
}
