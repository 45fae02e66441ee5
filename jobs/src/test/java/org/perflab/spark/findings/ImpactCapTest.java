package org.perflab.spark.findings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.perflab.findings.FindingLimits;
import org.perflab.findings.Rule;
import org.perflab.spark.features.FeatureTables;
import org.perflab.spark.ingest.SparkTestSession;
import org.perflab.table.Table;

/**
 * The impact bound of {@link Findings#compute}: findings whose metric grades CRITICAL, in applications where what
 * they cost is small, middling or large, each checked by hand against the default limits (MODERATE from 5 % of wall
 * time and 0.05 core-hours, SEVERE 10 % and 0.5, CRITICAL 20 % and 2; 0.2 / 2 / 8 GB-hours). One run on local[2].
 */
class ImpactCapTest {
  private static final long MIB = 1L << 20;
  private static final long GIB = 1L << 30;

  private static final FindingRows APPS = new FindingRows(FeatureTables.APP_FEATURES);
  private static final FindingRows STAGES = new FindingRows(FeatureTables.STAGE_FEATURES);
  private static final FindingRows STATUS = new FindingRows(Table.INGEST_STATUS.schema());
  private static List<Row> found;

  @BeforeAll
  static void computeEveryCase() {
    // 200 partitions of 0.5 MiB on 4 slots of a 20 s application: (200 - 4) × 10 ms ÷ 4 = 0.49 s
    APPS.add("tiny-shuffle", "wall_time_s", 20.0, "slots", 4);
    STAGES.add("tiny-shuffle", "stage_id", 3, "stage_attempt_id", 0, "num_tasks", 200, "slots", 4,
        "shuffle_read_bytes", 200 * FindingLimits.SHUFFLE_TARGET_PARTITION_BYTES / 512);
    // driver-only 95 % of the wall time: 9,500 - 0.3 × 10,000 = 6,500 s on 100 slots = 180 core-hours, 65 %
    APPS.add("driver-large", "wall_time_s", 10_000.0, "driver_only_s", 9_500.0, "slots", 100);
    // the same share of a 100 s application on 10 slots: 65 s = 0.18 core-hours
    APPS.add("driver-small", "wall_time_s", 100.0, "driver_only_s", 95.0, "slots", 10);
    // GC share 0.2: (0.2 - 0.08) × 100,000 s ÷ 100 slots = 120 s = 3.3 core-hours, but 7 % of 1,714 s
    APPS.add("gc-diluted", "wall_time_s", 1_714.0, "executor_run_time_s", 100_000.0, "gc_share", 0.2, "slots", 100);
    // GC share 0.2 with no wall time: bounded by its 3.3 core-hours alone
    APPS.add("gc-no-wall", "executor_run_time_s", 100_000.0, "gc_share", 0.2, "slots", 100);
    // 95 % idle: 95 core-seconds (0.026 core-hours) against 95 % of 100 core-hours
    APPS.add("idle-small", "wall_time_s", 100.0, "utilization", 0.05, "executors", 10,
        "executor_core_s_available", 100.0, "executor_core_s_busy", 5.0);
    APPS.add("idle-large", "wall_time_s", 3_600.0, "utilization", 0.05, "executors", 100,
        "executor_core_s_available", 360_000.0, "executor_core_s_busy", 18_000.0);
    // 8 GiB executors peaking at 0.5 GiB: 10× the need; (8 GiB - 1.25 × 800 MiB) × 1 or 100 executor-hours
    for (String app : List.of("memory-small", "memory-large", "memory-unknown-time")) {
      APPS.add(app, "executor_memory_bytes", 8 * GIB, "peak_jvm_heap_bytes", 500 * MIB, "cores_per_executor",
          app.equals("memory-unknown-time") ? null : 4, "executor_core_s_available",
          app.equals("memory-large") ? 4 * 360_000.0 : 4 * 3_600.0);
    }
    STATUS.add("dropped", "run_id", "R1", "status", "OK", "tasks_reconciled", false, "stages_missing_tasks", 2000L);

    SparkSession spark = SparkTestSession.get();
    found = Findings.compute(new FindingInputs(APPS.frame(spark), STAGES.frame(spark), STATUS.frame(spark),
        new FindingRows(Table.PROPERTIES.schema()).frame(spark), Optional.empty(), Optional.empty(), Optional.empty()))
        .collectAsList();
  }

  private static Row only(String app, Rule rule) {
    List<Row> rows = found.stream().filter(r -> r.<String>getAs("app_id").equals(app)
        && r.<String>getAs("rule").equals(rule.name())).toList();
    assertThat(rows).as("%s of %s", rule, app).hasSize(1);
    return rows.get(0);
  }

  private static String severity(String app, Rule rule) {
    return only(app, rule).getAs("severity");
  }

  private static Map<String, Double> evidence(String app, Rule rule) {
    Row row = only(app, rule);
    return row.getJavaMap(row.fieldIndex("evidence"));
  }

  @Test
  void aFindingThatSavesNothingWorthHavingIsLowWhateverItsMetric() {
    assertThat(severity("tiny-shuffle", Rule.SHUFFLE_PARTITIONS)).isEqualTo("LOW");
    assertThat(evidence("tiny-shuffle", Rule.SHUFFLE_PARTITIONS))
        .containsEntry("factor_off_target", 512.0)
        .hasEntrySatisfying(ImpactCap.CORE_HOURS_SAVED, h -> assertThat(h).isCloseTo(0.49 * 4 / 3600, within(1e-9)));
  }

  @Test
  void timeFindingsAreBoundedByTheirCoreHoursAndTheirShareOfTheWallTime() {
    assertThat(severity("driver-large", Rule.DRIVER_BOUND)).isEqualTo("CRITICAL");
    assertThat(evidence("driver-large", Rule.DRIVER_BOUND).get(ImpactCap.CORE_HOURS_SAVED))
        .isCloseTo(6_500.0 * 100 / 3600, within(1e-9));
    assertThat(severity("driver-small", Rule.DRIVER_BOUND)).as("0.18 core-hours").isEqualTo("MODERATE");
    assertThat(severity("gc-diluted", Rule.GC_PRESSURE)).as("7 % of the wall time").isEqualTo("MODERATE");
    assertThat(severity("gc-no-wall", Rule.GC_PRESSURE)).as("3.3 core-hours, wall unknown").isEqualTo("CRITICAL");
  }

  @Test
  void capacityFindingsAreBoundedByTheCapacityTheyWaste() {
    assertThat(severity("idle-small", Rule.IDLE_EXECUTORS)).isEqualTo("LOW");
    assertThat(severity("idle-large", Rule.IDLE_EXECUTORS)).isEqualTo("CRITICAL");
    assertThat(evidence("idle-large", Rule.IDLE_EXECUTORS).get(ImpactCap.CORE_HOURS_SAVED))
        .isCloseTo(342_000.0 / 3600, within(1e-9));
    double surplusGb = (8 * GIB - 1.25 * 800 * MIB) / 1e9;
    assertThat(evidence("memory-small", Rule.EXECUTOR_MEMORY_OVERSIZED))
        .hasEntrySatisfying(ImpactCap.WASTED_GB_HOURS, h -> assertThat(h).isCloseTo(surplusGb, within(1e-6)))
        .hasEntrySatisfying(ImpactCap.GB_HOURS_SAVED, h -> assertThat(h).isCloseTo(surplusGb, within(1e-6)))
        .doesNotContainKey(ImpactCap.CORE_HOURS_SAVED);
    assertThat(severity("memory-small", Rule.EXECUTOR_MEMORY_OVERSIZED)).as("7.5 GB-hours").isEqualTo("SEVERE");
    assertThat(severity("memory-large", Rule.EXECUTOR_MEMORY_OVERSIZED)).isEqualTo("CRITICAL");
    assertThat(severity("memory-unknown-time", Rule.EXECUTOR_MEMORY_OVERSIZED)).as("waste unknown: no bound")
        .isEqualTo("CRITICAL");
  }

  @Test
  void droppedEventsKeepTheirGrade() {
    assertThat(severity("dropped", Rule.DROPPED_EVENTS)).isEqualTo("CRITICAL");
    assertThat(only("dropped", Rule.DROPPED_EVENTS).<Double>getAs("estimated_savings_s")).isZero();
  }

  @Test
  void theTableKeepsItsSchema() {
    assertThat(found.get(0).schema()).isEqualTo(FindingsTable.SCHEMA);
  }
}
