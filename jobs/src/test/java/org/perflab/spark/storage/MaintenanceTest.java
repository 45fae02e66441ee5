package org.perflab.spark.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perflab.spark.ingest.SparkTestSession;
import org.perflab.spark.storage.Maintenance.FileStats;
import org.perflab.spark.storage.Maintenance.Outcome;

/** Maintenance's file counts read from Delta's checksum files agree with Delta's own table detail. */
class MaintenanceTest {
  private static final StructType SCHEMA = new StructType().add("log_id", DataTypes.StringType, false)
      .add("value", DataTypes.LongType, true);
  private static SparkSession spark;

  @TempDir Path temp;

  @BeforeAll
  static void startSpark() {
    spark = SparkTestSession.get();
  }

  private TableStore tableOfThreeAppends() {
    TableStore store = new TableStore(spark, temp.toString());
    store.create("t", SCHEMA);
    for (String log : List.of("a", "b", "c")) {
      store.append("t", spark.createDataFrame(List.of(RowFactory.create(log, 1L), RowFactory.create(log, 2L)), SCHEMA)
          .coalesce(1));
    }
    return store;
  }

  @Test
  void theChecksumFileGivesTheSameFilesAndBytesAsTheTableDetailBeforeAndAfterCompaction() {
    TableStore store = tableOfThreeAppends();
    Maintenance maintenance = new Maintenance(spark, store, java.time.Clock.systemUTC(), 3);

    FileStats appended = maintenance.detailStats("t");
    assertThat(appended.files()).isEqualTo(3);
    assertThat(maintenance.checksumStats("t")).contains(appended);

    List<Outcome> outcomes = maintenance.maintainAll(null, TestPause.fromEnvironment());
    FileStats compacted = maintenance.detailStats("t");
    assertThat(compacted.files()).isEqualTo(1);
    assertThat(maintenance.checksumStats("t")).contains(compacted);
    assertThat(outcomes).containsExactly(new Outcome("t", appended, compacted, false));
  }

  /**
   * A table is compacted once it holds the threshold's files, not before: three files stay three under the default
   * (8) and under 4, and become one under 3. What it holds is the same rows either way.
   */
  @Test
  void aTableIsCompactedOnceItHoldsTheThresholdsFiles() {
    TableStore store = tableOfThreeAppends();
    long rows = store.read("t").orElseThrow().count();

    for (int threshold : new int[] {Maintenance.DEFAULT_COMPACT_MIN_FILES, 4}) {
      List<Outcome> kept = new Maintenance(spark, store, java.time.Clock.systemUTC(), threshold)
          .maintainAll(null, TestPause.fromEnvironment());
      assertThat(kept).singleElement().satisfies(o -> assertThat(o.after().files()).as("threshold %d", threshold)
          .isEqualTo(3));
    }
    List<Outcome> compacted = new Maintenance(spark, store, java.time.Clock.systemUTC(), 3)
        .maintainAll(null, TestPause.fromEnvironment());

    assertThat(compacted).singleElement().satisfies(o -> assertThat(o.after().files()).isEqualTo(1));
    assertThat(new Maintenance(spark, store).detailStats("t").files()).isEqualTo(1);
    assertThat(store.read("t").orElseThrow().count()).isEqualTo(rows);
    assertThatThrownBy(() -> new Maintenance(spark, store, java.time.Clock.systemUTC(), 1))
        .isInstanceOf(org.perflab.errors.BadInputException.class)
        .hasMessage("Cannot maintain: a table needs at least 2 files to be compacted (1)");
  }

  @Test
  void withoutTheLatestChecksumFileTheTableDetailIsRead() throws Exception {
    TableStore store = tableOfThreeAppends();
    Maintenance maintenance = new Maintenance(spark, store);
    Path log = temp.resolve("t/_delta_log");
    try (Stream<Path> files = Files.list(log)) {
      for (Path crc : files.filter(f -> f.getFileName().toString().matches("\\d{20}\\.crc")).toList()) {
        Files.delete(crc);
      }
    }

    assertThat(maintenance.checksumStats("t")).isEmpty();
    assertThat(maintenance.fileStats("t")).isEqualTo(maintenance.detailStats("t"));
    assertThat(maintenance.fileStats("t").files()).isEqualTo(3);
  }

  @Test
  void aTableYoungerThanTheRetentionIsNotVacuumed() {
    TableStore store = tableOfThreeAppends();

    List<Outcome> outcomes =
        new Maintenance(spark, store).maintainAll(Duration.ofDays(7), TestPause.fromEnvironment());

    assertThat(outcomes).singleElement().satisfies(outcome -> assertThat(outcome.vacuumed()).isFalse());
  }
}
