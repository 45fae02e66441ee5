package org.perflab.spark.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.commons.io.FileUtils;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perflab.spark.storage.TableStore;
import org.perflab.eventlog.fixture.LogFixtures;
import org.perflab.eventlog.fixture.LogMutations;
import org.perflab.eventlog.fixture.MutatedLines;
import org.perflab.eventlog.source.LogCompression;
import org.perflab.jobs.PerfLab;
import org.perflab.table.KeyColumns;
import org.perflab.table.Table;
import org.perflab.testing.SampleLogs;

/**
 * The fuzz guarantees end to end, through the ingest command line on Spark: an archive of clean sample logs and
 * damaged copies of them is ingested with exit code 0, each damaged log gets its status and counts, the failed ones
 * add no rows, and the clean logs' tables equal those of ingesting the clean logs alone.
 */
class IngestFuzzTest {
  private static final long SEED = 20261122L;

  @TempDir static Path work;
  private static SparkSession spark;
  private static Path archive;
  private static List<String> cleanLogs;
  private static MutatedLines garbage;
  private static MutatedLines unknown;

  @BeforeAll
  static void buildArchive() throws IOException {
    spark = SparkTestSession.get();
    archive = work.resolve("archive");
    Path clean = archive.resolve("clean");
    Path samples = SampleLogs.directory();
    String plain = "local-1795305472854";
    String zstd = "local-1795305498092.zstd";
    String rolling = "eventlog_v2_local-1795305440515";
    Files.createDirectories(clean);
    Files.copy(samples.resolve(plain), clean.resolve(plain));
    Files.copy(samples.resolve(zstd), clean.resolve(zstd));
    FileUtils.copyDirectory(samples.resolve(rolling).toFile(), clean.resolve(rolling).toFile());
    cleanLogs = List.of(clean.resolve(plain).toString(), clean.resolve(zstd).toString(),
        clean.resolve(rolling).toString());

    Path damaged = archive.resolve("damaged");
    List<String> lines = LogFixtures.readLines(samples.resolve(plain));
    garbage = LogMutations.insertGarbage(LogFixtures.withAppId(lines, "app-garbage"), 7, SEED);
    garbage.writeSingleFile(damaged, "app-garbage", LogCompression.LZ4, false);
    unknown = LogMutations.insertUnknownEvents(LogFixtures.withAppId(lines, "app-unknown"), 5, SEED);
    unknown.writeSingleFile(damaged, "app-unknown", LogCompression.SNAPPY, false);
    LogMutations.truncateMidLine(LogFixtures.withAppId(lines, "app-truncated"), lines.size() / 2)
        .writeSingleFile(damaged, "app-truncated", LogCompression.ZSTD, false);
    LogMutations.zeroBytes(damaged, "app-empty");
    LogMutations.binaryJunk(damaged, "app-junk", 20_000, SEED);
    LogMutations.binaryJunk(damaged, "app-junk-lz4.lz4", 20_000, SEED + 1);
    LogMutations.wrongSuffix(damaged, "app-wrong-suffix", LogFixtures.withAppId(lines, "app-wrong-suffix"),
        LogCompression.ZSTD);
  }

  private static Map<String, Row> statusByFileName(Path output) {
    Map<String, Row> status = new HashMap<>();
    for (Row row : new TableStore(spark, output.toString()).read(Table.INGEST_STATUS).orElseThrow().collectAsList()) {
      String path = row.getAs("log_path");
      status.put(path.substring(path.lastIndexOf('/') + 1), row);
    }
    return status;
  }

  /** The table's rows of these logs, as sorted strings; none when the table has no partition at all. */
  private static List<String> rows(Path output, Table table, Set<String> logIds) {
    return new TableStore(spark, output.toString()).read(table)
        .map(rows -> rows.filter(functions.col(KeyColumns.LOG_ID).isin(logIds.toArray())).collectAsList().stream()
            .map(Row::toString).sorted().toList())
        .orElse(List.of());
  }

  /** The rows of the property sets these logs refer to (rows shared by logs carry no log id), as sorted strings. */
  private static List<String> setRows(Path output, Set<String> logIds) {
    TableStore store = new TableStore(spark, output.toString());
    Object[] setIds = store.read(Table.PROPERTY_SET_REFS).orElseThrow()
        .where(functions.col(KeyColumns.LOG_ID).isin(logIds.toArray())).select("set_id").collectAsList().stream()
        .map(row -> row.get(0)).toArray();
    return store.read(Table.PROPERTY_SETS).orElseThrow().where(functions.col("set_id").isin(setIds))
        .collectAsList().stream().map(Row::toString).sorted().toList();
  }

  @Test
  void damagedLogsAreCountedAndCleanLogsComeOutAsIfAlone() {
    Path mixed = work.resolve("mixed");
    Path alone = work.resolve("alone");

    assertThat(PerfLab.run("ingest", "--input", archive.toString(), "--output", mixed.toString())).isZero();
    String[] cleanArgs = new String[4 + cleanLogs.size()];
    cleanArgs[0] = "ingest";
    cleanArgs[1] = "--output";
    cleanArgs[2] = alone.toString();
    cleanArgs[3] = "--input";
    for (int i = 0; i < cleanLogs.size(); i++) {
      cleanArgs[4 + i] = cleanLogs.get(i);
    }
    assertThat(PerfLab.run(cleanArgs)).isZero();

    Map<String, Row> status = statusByFileName(mixed);
    assertThat(status).hasSize(10);
    for (String clean : cleanLogs) {
      assertThat(status.get(clean.substring(clean.lastIndexOf('/') + 1)).<String>getAs("status")).isEqualTo("OK");
    }
    Row garbageStatus = status.get("app-garbage.lz4");
    assertThat(garbageStatus.<String>getAs("status")).isEqualTo("PARTIAL");
    assertThat(garbageStatus.<Long>getAs("bad_lines")).isEqualTo(7);
    assertThat(garbageStatus.getList(garbageStatus.fieldIndex("first_bad_lines"))).isEqualTo(garbage.lineNumbers());
    Row unknownStatus = status.get("app-unknown.snappy");
    assertThat(unknownStatus.<String>getAs("status")).isEqualTo("OK");
    assertThat(unknownStatus.<Long>getAs("unknown_events")).isEqualTo(5);
    Row truncated = status.get("app-truncated.zstd");
    assertThat(truncated.<String>getAs("status")).isEqualTo("PARTIAL");
    assertThat(truncated.<Boolean>getAs("truncated_last_line")).isTrue();
    assertThat(status.get("app-empty").<String>getAs("reason")).isEqualTo("Cannot read event log: empty log");
    assertThat(status.get("app-wrong-suffix.zstd").<String>getAs("reason"))
        .startsWith("Cannot read event log: Cannot decode ZSTD stream: ");
    Set<String> failed = Set.of("app-empty", "app-junk", "app-junk-lz4.lz4", "app-wrong-suffix.zstd");
    for (String name : failed) {
      assertThat(status.get(name).<String>getAs("status")).as(name).isEqualTo("FAILED");
    }

    Set<String> cleanIds = statusByFileName(alone).values().stream()
        .map(row -> row.<String>getAs(KeyColumns.LOG_ID)).collect(Collectors.toSet());
    assertThat(cleanIds).hasSize(cleanLogs.size());
    Set<String> failedIds = status.entrySet().stream().filter(e -> failed.contains(e.getKey()))
        .map(e -> e.getValue().<String>getAs(KeyColumns.LOG_ID)).collect(Collectors.toSet());
    assertThat(rows(alone, Table.TASKS, cleanIds)).isNotEmpty();
    for (Table table : Arrays.stream(Table.values())
        .filter(t -> t != Table.INGEST_STATUS && t.keys() == Table.Keys.LOG).toList()) {
      assertThat(rows(mixed, table, cleanIds)).as(table.tableName()).isEqualTo(rows(alone, table, cleanIds));
      assertThat(rows(mixed, table, failedIds)).as(table.tableName() + " of failed logs").isEmpty();
    }
    assertThat(setRows(mixed, cleanIds)).as("property sets of the clean logs").isEqualTo(setRows(alone, cleanIds));
  }
}
