package org.perflab.changes;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class RunSettingsTest {
  private static final Map<String, String> CONF = Map.of(RunProfile.SPARK_VERSION, "3.5.1",
      "spark.sql.shuffle.partitions", "200", "spark.app.id", "app-1");

  private static RunSettings settings(Map<String, String> properties, String plan, Map<String, Long> joins) {
    return new RunSettings(properties, plan, joins);
  }

  @Test
  void theSameSettingsUnderAnotherIdChangeNothing() {
    RunSettings before = settings(CONF, "abc", Map.of("SortMergeJoin", 1L));
    RunSettings after = settings(Map.of(RunProfile.SPARK_VERSION, "3.5.1", "spark.app.id", "app-2"), "abc",
        Map.of("SortMergeJoin", 1L));

    assertThat(after.changesSince(before)).isEmpty();
  }

  @Test
  void propertiesComeFirstThenThePlanWithItsJoinsWhenTheyDiffer() {
    RunSettings before = settings(CONF, "abc", Map.of("BroadcastHashJoin", 1L));
    RunSettings after = settings(Map.of(RunProfile.SPARK_VERSION, "3.5.1", "spark.sql.shuffle.partitions", "400",
        "spark.sql.autoBroadcastJoinThreshold", "-1"), "def", Map.of("SortMergeJoin", 2L));

    assertThat(after.changesSince(before)).containsExactly(
        "spark.sql.autoBroadcastJoinThreshold 10MB (default) -> -1", "spark.sql.shuffle.partitions 200 -> 400",
        "SQL plan changed: joins BroadcastHashJoin 1 -> SortMergeJoin 2");
  }

  @Test
  void aPlanChangedWithTheSameJoinsIsNamedWithoutThem() {
    assertThat(settings(CONF, "def", Map.of()).changesSince(settings(CONF, "abc", Map.of())))
        .containsExactly("SQL plan changed");
  }

  /** A run without SQL has no plan to compare: no plan change, whichever side it is on. */
  @Test
  void aRunWithoutSqlIsNoPlanChange() {
    RunSettings sql = settings(CONF, "abc", Map.of("SortMergeJoin", 1L));
    RunSettings none = settings(CONF, "", Map.of());

    assertThat(none.changesSince(sql)).isEmpty();
    assertThat(sql.changesSince(none)).isEmpty();
  }

  @Test
  void aPlanIsShownByItsJoinsAndFingerprintAndNotAtAllWithoutSql() {
    assertThat(settings(CONF, "abc", Map.of("SortMergeJoin", 2L, "BroadcastHashJoin", 1L)).planShown())
        .isEqualTo("joins BroadcastHashJoin 1, SortMergeJoin 2; plan abc");
    assertThat(settings(CONF, "abc", Map.of()).planShown()).isEqualTo("joins none; plan abc");
    assertThat(settings(CONF, "", Map.of()).planShown()).isNull();
  }

  @Test
  void aSparkUpgradeNamesTheVersionAndTheDefaultsItChanged() {
    RunSettings before = settings(Map.of(RunProfile.SPARK_VERSION, "3.1.3"), "", Map.of());
    RunSettings after = settings(Map.of(RunProfile.SPARK_VERSION, "4.1.0"), "", Map.of());

    assertThat(after.changesSince(before)).containsExactly(
        "spark version 3.1.3 -> 4.1.0", "spark.sql.adaptive.enabled false (default) -> true (default)");
  }

  /** A night's summary shows the first change: the weightiest, not the first by key. */
  @Test
  void theWeightiestChangeComesFirst() {
    RunSettings before = settings(Map.of(RunProfile.SPARK_VERSION, "4.1.0", SparkMaster.KEY, "local[2]",
        "spark.custom.flag", "a", "spark.sql.shuffle.partitions", "200", "spark.executor.memory", "1g"), "", Map.of());
    RunSettings after = settings(Map.of(RunProfile.SPARK_VERSION, "4.1.0", SparkMaster.KEY, "spark://h:7077",
        "spark.custom.flag", "b", "spark.sql.shuffle.partitions", "400", "spark.executor.memory", "2g",
        "spark.cores.max", "2"), "", Map.of());

    assertThat(after.changesSince(before)).containsExactly("spark.master local[2] -> spark://h:7077",
        "spark.cores.max unset -> 2", "spark.executor.memory 1g -> 2g", "spark.sql.shuffle.partitions 200 -> 400",
        "spark.custom.flag a -> b");
  }
}
