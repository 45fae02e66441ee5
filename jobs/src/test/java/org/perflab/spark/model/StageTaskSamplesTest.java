package org.perflab.spark.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.perflab.spark.ingest.SparkTestSession;

/** A stage's tasks summarised in Spark: every duration up to the bound, a seeded uniform sample beyond. */
class StageTaskSamplesTest {
  private static final StructType TASKS = new StructType()
      .add("log_id", DataTypes.StringType).add("app_id", DataTypes.StringType)
      .add("app_attempt_id", DataTypes.StringType).add("stage_id", DataTypes.IntegerType)
      .add("task_id", DataTypes.LongType).add("launch_time_ms", DataTypes.LongType)
      .add("finish_time_ms", DataTypes.LongType).add("status", DataTypes.StringType)
      .add("input_bytes", DataTypes.LongType).add("shuffle_remote_read_bytes", DataTypes.LongType)
      .add("shuffle_local_read_bytes", DataTypes.LongType);

  /** Stage 0: 200 successful tasks, task i launched at 1000 + i ms running i ms; one failed task launched first. */
  private static Dataset<Row> tasks(SparkSession spark) {
    List<Row> rows = new ArrayList<>();
    rows.add(RowFactory.create("log", "app", null, 0, 999L, 900L, 950L, "FAILED", 5L, 0L, 0L));
    for (long i = 199; i >= 0; i--) {
      rows.add(RowFactory.create("log", "app", null, 0, i, 1000 + i, 1000 + 2 * i, "SUCCESS", 10L, 1L, 2L));
    }
    return spark.createDataFrame(rows, TASKS);
  }

  @Test
  void aStageUnderTheBoundKeepsEveryDurationInLaunchOrder() {
    Row stage = StageTaskSamples.of(tasks(SparkTestSession.get()), 200, 1).first();
    assertThat(stage.<Long>getAs("successful")).isEqualTo(200L);
    assertThat(stage.<Long>getAs("first_launch_ms")).isEqualTo(900L);
    assertThat(stage.<Long>getAs("input_bytes")).isEqualTo(2000L);
    assertThat(stage.<Long>getAs("shuffle_read_bytes")).isEqualTo(600L);
    assertThat(stage.<Boolean>getAs("sampled")).isFalse();
    assertThat(stage.<Long>getList(stage.fieldIndex("durations_ms"))).containsExactlyElementsOf(
        java.util.stream.LongStream.range(0, 200).boxed().toList());
  }

  @Test
  void aStageOverTheBoundKeepsExactlyTheBoundAsASeededSampleInLaunchOrderAndExactTotals() {
    SparkSession spark = SparkTestSession.get();
    Row one = StageTaskSamples.of(tasks(spark), 50, 1).first();
    List<Long> sample = one.getList(one.fieldIndex("durations_ms"));
    assertThat(one.<Boolean>getAs("sampled")).isTrue();
    assertThat(one.<Long>getAs("successful")).isEqualTo(200L);
    assertThat(one.<Long>getAs("input_bytes")).isEqualTo(2000L);
    assertThat(sample).hasSize(50).isSorted().doesNotHaveDuplicates();
    assertThat(sample).allSatisfy(d -> assertThat(d).isBetween(0L, 199L));
    Row again = StageTaskSamples.of(tasks(spark), 50, 1).first();
    assertThat(again.<Long>getList(again.fieldIndex("durations_ms"))).isEqualTo(sample);
    Row other = StageTaskSamples.of(tasks(spark), 50, 2).first();
    assertThat(other.<Long>getList(other.fieldIndex("durations_ms"))).isNotEqualTo(sample);
  }
}
