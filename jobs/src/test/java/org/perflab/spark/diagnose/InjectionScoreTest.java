package org.perflab.spark.diagnose;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.perflab.errors.BadInputException;
import org.perflab.spark.ingest.SparkTestSession;

/** The scorer on a hand-built corpus whose TPR, FPR and cause accuracy are counted by hand below. */
class InjectionScoreTest {
  private static final StructType TASKS = new StructType()
      .add("log_id", DataTypes.StringType).add("app_id", DataTypes.StringType).add("app_attempt_id", DataTypes.StringType)
      .add("stage_id", DataTypes.IntegerType).add("stage_attempt_id", DataTypes.IntegerType)
      .add("task_index", DataTypes.IntegerType).add("task_id", DataTypes.LongType)
      .add("status", DataTypes.StringType);
  private static final StructType STRAGGLERS = new StructType()
      .add("app_id", DataTypes.StringType).add("app_attempt_id", DataTypes.StringType)
      .add("task_id", DataTypes.LongType).add("causes", DataTypes.createArrayType(DataTypes.StringType));
  private static SparkSession spark;

  @BeforeAll
  static void startSpark() {
    spark = SparkTestSession.get();
  }

  /**
   * app-a: stage 1, indices 0-4 (task ids 10-14) and a failed attempt of index 0 (15); GC at 1 and 2, CPU at 4.
   * app-b: stage 0, indices 0-3 (ids 0-3); SLEEP at 3. app-d: stage 0, indices 0-1 (ids 0-1); DATA_SKEW at 0.
   * app-c: not in the ground truth.
   */
  private static Dataset<Row> tasks() {
    List<Row> rows = new ArrayList<>();
    for (int index = 0; index < 5; index++) {
      rows.add(RowFactory.create("log-a", "app-a", "", 1, 0, index, 10L + index, "SUCCESS"));
    }
    rows.add(RowFactory.create("log-a", "app-a", "", 1, 0, 0, 15L, "FAILED"));
    for (int index = 0; index < 4; index++) {
      rows.add(RowFactory.create("log-b", "app-b", "", 0, 0, index, (long) index, "SUCCESS"));
    }
    rows.add(RowFactory.create("log-d", "app-d", "", 0, 0, 0, 0L, "SUCCESS"));
    rows.add(RowFactory.create("log-d", "app-d", "", 0, 0, 1, 1L, "SUCCESS"));
    rows.add(RowFactory.create("log-c", "app-c", "", 0, 0, 0, 0L, "SUCCESS"));
    return spark.createDataFrame(rows, TASKS);
  }

  /** The corpus's CSV layout (an extra {@code log_file}, no {@code log_id}), read by name as the reader does. */
  private static Dataset<Row> groundTruth() {
    StructType csv = new StructType();
    for (String name : List.of("log_file", "app_id", "stage_id", "stage_attempt_id", "task_index", "injection",
        "expected_cause")) {
      csv = csv.add(name, DataTypes.StringType);
    }
    return GroundTruth.normalise(spark.createDataFrame(List.of(
        RowFactory.create("app-a.zstd", "app-a", "1", "0", "1", "GC", "GC"),
        RowFactory.create("app-a.zstd", "app-a", "1", "0", "2", "GC", "gc"),
        RowFactory.create("app-a.zstd", "app-a", "1", "", "4", "CPU", "CPU"),
        RowFactory.create("app-b.zstd", "app-b", "0", "0", "3", "SLEEP", "NONE"),
        RowFactory.create("app-d.zstd", "app-d", "0", "0", "0", "DATA_SKEW", "DATA_SKEW")), csv), "hand");
  }

  private static Row straggler(String app, long taskId, String... causes) {
    return RowFactory.create(app, "", taskId, scala.jdk.javaapi.CollectionConverters.asScala(List.of(causes)).toSeq());
  }

  private static Dataset<Row> stragglers() {
    return spark.createDataFrame(List.of(
        straggler("app-a", 11, "GC", "CPU"), // GC injected, reported, right cause
        straggler("app-a", 13), // other task of app-a: a false positive for GC and for CPU
        straggler("app-a", 14, "GC"), // CPU injected, reported, wrong cause; neither injected nor other for GC
        straggler("app-a", 15, "GC"), // failed attempt: not scored
        straggler("app-b", 3), // SLEEP injected, reported with no cause: right
        straggler("app-b", 0, "CPU"), // other task of app-b: a false positive
        straggler("app-c", 0, "CPU")), // not a log of the corpus
        STRAGGLERS);
  }

  @Test
  void countsEachTypeOverItsOwnLogs() {
    List<Row> rows = InjectionScore.score("hand", tasks(), groundTruth(), stragglers()).collectAsList();

    assertThat(rows).extracting(row -> row.<String>getAs("injection"))
        .containsExactly("CPU", "DATA_SKEW", "GC", "SLEEP");
    // detector, injection, cause, logs, injected, injected reported, other, other reported, cause correct
    assertThat(rows).extracting(row -> List.of(row.get(0), row.get(1), row.get(2), row.get(3), row.get(4),
            row.get(5), row.get(6), row.get(7), row.get(8)))
        .containsExactly(
            List.of("hand", "CPU", "CPU", 1L, 1L, 1L, 2L, 1L, 0L),
            List.of("hand", "DATA_SKEW", "DATA_SKEW", 1L, 1L, 0L, 1L, 0L, 0L),
            List.of("hand", "GC", "GC", 1L, 2L, 1L, 2L, 1L, 1L),
            List.of("hand", "SLEEP", "NONE", 1L, 1L, 1L, 3L, 1L, 1L));
  }

  @Test
  void ratesAreFractionsAndNullWithoutADenominator() {
    List<Row> rows = InjectionScore.score("hand", tasks(), groundTruth(), stragglers()).collectAsList();

    // tpr, fpr, cause accuracy
    assertThat(rows).extracting(row -> java.util.Arrays.asList(row.get(9), row.get(10), row.get(11)))
        .containsExactly(
            java.util.Arrays.asList(1.0, 0.5, 0.0),
            java.util.Arrays.asList(0.0, 0.0, null),
            java.util.Arrays.asList(0.5, 0.5, 1.0),
            java.util.Arrays.asList(1.0, 1.0 / 3, 1.0));
  }

  /** Other tasks reported with a non-empty {@code causes}: app-a's task 13 has none, app-b's task 0 has CPU. */
  @Test
  void causeFprCountsOnlyOtherTasksReportedWithACause() {
    List<Row> rows = InjectionScore.score("hand", tasks(), groundTruth(), stragglers()).collectAsList();

    // injection, other attributed, cause fpr
    assertThat(rows).extracting(row -> List.of(row.get(1), row.getAs("other_attributed"), row.getAs("cause_fpr")))
        .containsExactly(List.of("CPU", 0L, 0.0), List.of("DATA_SKEW", 0L, 0.0), List.of("GC", 0L, 0.0),
            List.of("SLEEP", 1L, 1.0 / 3));
  }

  @Test
  void groundTruthWithoutAStageOrAnApplicationColumnIsBadInput() {
    Dataset<Row> noStage = spark.createDataFrame(List.of(RowFactory.create("app-a", "1", "GC")),
        new StructType().add("app_id", DataTypes.StringType).add("task_index", DataTypes.StringType)
            .add("expected_cause", DataTypes.StringType));
    Dataset<Row> noApplication = spark.createDataFrame(List.of(RowFactory.create("1", "1", "GC")),
        new StructType().add("stage_id", DataTypes.StringType).add("task_index", DataTypes.StringType)
            .add("expected_cause", DataTypes.StringType));

    assertThatThrownBy(() -> GroundTruth.normalise(noStage, "t.csv")).isInstanceOf(BadInputException.class)
        .hasMessage("Cannot read ground truth t.csv: columns missing ([stage_id]; found [app_id, expected_cause, "
            + "task_index])");
    assertThatThrownBy(() -> GroundTruth.normalise(noApplication, "t.csv")).isInstanceOf(BadInputException.class)
        .hasMessage("Cannot read ground truth t.csv: no log_id or app_id column (found [expected_cause, stage_id, "
            + "task_index])");
  }

  @Test
  void reportReadsAsTableSixWithPercentsAndCounts() {
    String report = InjectionScore.report(
        InjectionScore.score("hand", tasks(), groundTruth(), stragglers()).collectAsList());

    assertThat(report.lines()).hasSize(6);
    assertThat(report.lines().toList().get(4))
        .isEqualTo("| hand | GC | GC | 1 | 50.00 | 1 / 2 | 50.00 | 1 / 2 | 100.00 | 1 / 1 | 0.00 | 0 / 2 |");
    assertThat(report.lines().toList().get(5))
        .isEqualTo("| hand | SLEEP | NONE | 1 | 100.00 | 1 / 1 | 33.33 | 1 / 3 | 100.00 | 1 / 1 | 33.33 | 1 / 3 |");
    assertThat(report.lines().toList().get(3))
        .isEqualTo("| hand | DATA_SKEW | DATA_SKEW | 1 | 0.00 | 0 / 1 | 0.00 | 0 / 1 | - | 0 / 0 | 0.00 | 0 / 1 |");
  }
}
