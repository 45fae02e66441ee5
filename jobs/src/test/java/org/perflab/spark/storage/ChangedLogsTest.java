package org.perflab.spark.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perflab.spark.ingest.SparkTestSession;
import org.perflab.table.Table;

/**
 * A job's rules version in its watermark ({@link ChangedLogs}): one ingest run of one log, and a job's output table,
 * planned by the same job at rules versions 1 and 2.
 */
class ChangedLogsTest {
  private static final List<String> TABLES = List.of("out_table");

  @TempDir
  static Path dir;

  private static TableStore store;

  @BeforeAll
  static void oneIngestedLogAndAnOutputTable() {
    SparkSession spark = SparkTestSession.get();
    store = new TableStore(spark, dir.resolve("root").toString());
    store.overwrite(Table.INGEST_STATUS.tableName(), spark.createDataFrame(List.of(RowFactory.create(
        Table.INGEST_STATUS.newRow().set("log_id", "log-1").set("run_id", "R1").set("status", "OK").values())),
        Table.INGEST_STATUS.schema()));
    store.overwrite(TABLES.get(0), spark.range(1).toDF());
  }

  @Test
  void aWatermarkOfOtherRulesMakesTheRunFullThenTheNewOneIsCurrent() throws Exception {
    ChangedLogs first = new ChangedLogs(store, store, "rules-job");
    first.commit(first.plan(false, TABLES));
    assertThat(first.plan(false, TABLES).mode()).isEqualTo(ChangedLogs.Mode.UP_TO_DATE);

    ChangedLogs second = new ChangedLogs(store, store, "rules-job", 2);
    ChangedLogs.Plan upgraded = second.plan(false, TABLES);
    assertThat(upgraded.mode()).isEqualTo(ChangedLogs.Mode.FULL);
    assertThat(upgraded.reason()).isEqualTo("the rules-job rules changed since the last run (version 1, now 2):"
        + " every log recomputed");
    second.commit(upgraded);
    assertThat(second.plan(false, TABLES).mode()).isEqualTo(ChangedLogs.Mode.UP_TO_DATE);
    assertThat(Files.readString(Path.of(second.watermarkPath().toUri()), StandardCharsets.UTF_8))
        .containsPattern("\"rules_version\" ?: ?2");
    // and back: a root run by newer rules is recomputed by older ones too
    assertThat(first.plan(false, TABLES).mode()).isEqualTo(ChangedLogs.Mode.FULL);
  }

  @Test
  void aWatermarkWrittenBeforeRulesVersionsIsVersionOne() throws Exception {
    ChangedLogs job = new ChangedLogs(store, store, "older-job");
    Path watermark = Path.of(job.watermarkPath().toUri());
    Files.createDirectories(watermark.getParent());
    Files.writeString(watermark, "{\"job\":\"older-job\",\"ingest_run_id\":\"R1\"}", StandardCharsets.UTF_8);
    assertThat(job.plan(false, TABLES).mode()).isEqualTo(ChangedLogs.Mode.UP_TO_DATE);
    assertThat(new ChangedLogs(store, store, "older-job", 2).plan(false, TABLES).mode())
        .isEqualTo(ChangedLogs.Mode.FULL);
  }
}
