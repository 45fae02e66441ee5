package org.perflab.spark.findings;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.perflab.findings.Rule;
import org.perflab.spark.features.FeatureTables;
import org.perflab.spark.ingest.SparkTestSession;
import org.perflab.table.Table;

/**
 * {@code SPILL} under the static memory manager ({@link StaticMemory}): one spilling stage (spill ratio 0.6, 4 GiB
 * executors) in applications that differ only in their Spark version and memory properties, through one
 * {@link Findings#graded} on local[2].
 */
class StaticMemoryTest {
  private static final long MIB = 1L << 20;
  private static final FindingRows APPS = new FindingRows(FeatureTables.APP_FEATURES);
  private static final FindingRows STAGES = new FindingRows(FeatureTables.STAGE_FEATURES);
  private static final FindingRows STATUS = new FindingRows(Table.INGEST_STATUS.schema());
  private static final FindingRows PROPERTIES = new FindingRows(Table.PROPERTIES.schema());
  private static List<Row> found;

  @BeforeAll
  static void computeFindings() {
    application("static-1.5", "1.5.1");
    application("static-set-1.5", "1.5.1", StaticMemory.SHUFFLE_KEY, "0.3", StaticMemory.STORAGE_KEY, "0.5");
    application("legacy-2.1", "2.1.0", org.perflab.memory.MemoryManager.LEGACY_MODE_KEY, "true");
    application("unified-2.1", "2.1.0", org.perflab.memory.MemoryManager.LEGACY_MODE_KEY, "false");
    application("unified-4.1", "4.1.0", StaticMemory.SHUFFLE_KEY, "0.2");
    application("no-room-1.5", "1.5.1", StaticMemory.STORAGE_KEY, "0.1");
    application("no-version", null);
    SparkSession spark = SparkTestSession.get();
    found = Findings.graded(new FindingInputs(APPS.frame(spark), STAGES.frame(spark), STATUS.frame(spark),
        PROPERTIES.frame(spark), Optional.empty(), Optional.empty(), Optional.empty())).collectAsList();
  }

  private static void application(String app, String version, String... properties) {
    APPS.add(app, "executor_memory_bytes", 4096 * MIB);
    STATUS.add(app, "run_id", "R1", "status", "OK", "tasks_reconciled", true, "spark_version", version);
    STAGES.add(app, "stage_id", 3, "stage_attempt_id", 0, "input_bytes", 1_000_000L, "memory_spilled_bytes",
        600_000L, "disk_spilled_bytes", 100 * MIB, "slots", 2);
    for (int i = 0; i < properties.length; i += 2) {
      PROPERTIES.add(app, "category", "SPARK", "key", properties[i], "value", properties[i + 1]);
    }
  }

  @Test
  void aStaticManagersRunMovesMemoryFromStorageToShuffle() {
    assertThat(conf("static-1.5")).containsEntry("spark.shuffle.memoryFraction", "0.40")
        .containsEntry("spark.storage.memoryFraction", "0.40").containsEntry("spark.executor.memory", "6144m");
    // its own 0.3 and 0.5: doubled to 0.6, storage keeps the other 0.2
    assertThat(conf("static-set-1.5")).containsEntry("spark.shuffle.memoryFraction", "0.60")
        .containsEntry("spark.storage.memoryFraction", "0.20");
    assertThat(conf("legacy-2.1")).containsEntry("spark.shuffle.memoryFraction", "0.40")
        .containsEntry("spark.storage.memoryFraction", "0.40");
    for (String app : List.of("static-1.5", "static-set-1.5", "legacy-2.1")) {
      assertThat(spill(app).<String>getAs("recommendation")).as(app).endsWith(StaticMemory.ADVICE);
    }
  }

  @Test
  void aUnifiedOrUnknownRunOrOneWithoutStorageToSpareKeepsTheExecutorMemoryAlone() {
    for (String app : List.of("unified-2.1", "unified-4.1", "no-room-1.5", "no-version")) {
      assertThat(conf(app)).as(app).containsEntry("spark.executor.memory", "6144m")
          .doesNotContainKeys("spark.shuffle.memoryFraction", "spark.storage.memoryFraction");
      assertThat(spill(app).<String>getAs("recommendation")).as(app).doesNotContain("static memory manager");
    }
  }

  private static Map<String, String> conf(String app) {
    Row row = spill(app);
    return row.getJavaMap(row.fieldIndex("recommended_conf"));
  }

  private static Row spill(String app) {
    List<Row> rows = found.stream().filter(r -> r.<String>getAs("app_id").equals(app)
        && r.<String>getAs("rule").equals(Rule.SPILL.name())).toList();
    assertThat(rows).as(app).hasSize(1);
    return rows.get(0);
  }
}
