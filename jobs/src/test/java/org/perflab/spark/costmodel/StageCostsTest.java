package org.perflab.spark.costmodel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perflab.spark.ingest.SparkTestSession;
import org.perflab.spark.storage.ChangedLogs;
import org.perflab.table.Table;
import org.perflab.table.TableRow;

/**
 * {@code stage_costs} on a test-built ingest root: a 30-task map stage whose run times follow 20 ns per input byte and
 * 500 ns per record (to the millisecond), a 3-task stage too small to fit, and a failed task that is left out; the
 * second run is up to date.
 */
class StageCostsTest {
  @TempDir
  Path dir;

  private static Row task(int stage, long id, String status, long inputBytes, long records, long runMs,
      Long durationMs) {
    TableRow r = Table.TASKS.newRow().set("log_id", "log1").set("app_id", "app-1").set("app_attempt_id", "")
        .set("stage_id", stage).set("stage_attempt_id", 0).set("task_id", id).set("status", status)
        .set("executor_run_time_ms", runMs).set("input_bytes", inputBytes).set("input_records", records)
        .set("jvm_gc_time_ms", 1L).set("duration_ms", durationMs);
    return RowFactory.create(r.values());
  }

  @Test
  void estimatesEachStageAndSaysWhatItCouldNot() {
    SparkSession spark = SparkTestSession.get();
    List<Row> tasks = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      long bytes = 10_000_000L + 3_000_000L * i;
      long records = bytes / 100 + 20_000L * (i * 7 % 13);
      long runMs = Math.round(30 + bytes * 20e-6 + records * 500e-6);
      // 10 to 90 ms outside the run time, 50 ms the median; the first task's 900 ms (a cold JVM) is an
      // outlier the median ignores
      tasks.add(task(0, i, "SUCCESS", bytes, records, runMs, runMs + (i == 0 ? 900 : 10 + 10 * (i % 9))));
    }
    tasks.add(task(0, 99, "FAILED", 1, 1, 1_000_000, 1_000_000L));
    for (int i = 0; i < 3; i++) {
      tasks.add(task(1, 100 + i, "SUCCESS", 1000 * (i + 1), 10 * ((i * 2) % 3 + 1), 5 + i, null));
    }
    String root = dir.toString();
    spark.createDataFrame(tasks, Table.TASKS.schema()).coalesce(1).write().format("delta")
        .save(dir.resolve("tasks").toString());
    Row status = RowFactory.create(Table.INGEST_STATUS.newRow().set("log_id", "log1")
        .set("run_id", "20261126T000000000Z-aaaaaa").values());
    spark.createDataFrame(List.of(status), Table.INGEST_STATUS.schema()).write().format("delta")
        .save(dir.resolve("ingest_status").toString());

    StageCosts.Summary first = StageCosts.run(spark, new StageCosts.Options(root, root, false), Clock.systemUTC());
    assertThat(first.plan().mode()).isEqualTo(ChangedLogs.Mode.FULL);
    assertThat(first.rows()).isEqualTo(2);
    List<Row> rows = spark.read().format("delta").load(dir.resolve("stage_costs").toString()).orderBy("stage_id")
        .collectAsList();
    assertThat(rows.get(0).schema().fieldNames()).containsExactly(StageCosts.SCHEMA.fieldNames());
    Row map = rows.get(0);
    assertThat(map.<Integer>getAs("tasks")).isEqualTo(30);
    assertThat(map.<Double>getAs("hdfs_read_ns_per_byte")).isCloseTo(20, within(0.5));
    assertThat(map.<Double>getAs("compute_ns_per_record")).isCloseTo(500, within(25.0));
    assertThat(map.<Double>getAs("read_in_pair_width_bytes")).isGreaterThan(50).isLessThan(100);
    assertThat(map.<Double>getAs("fit_r2")).isGreaterThan(0.999);
    assertThat(map.getList(map.fieldIndex("missing"))).contains("network_ns_per_byte", "shuffle_write_ns_per_byte",
        "spill_disk_ratio").doesNotContain("hdfs_read_ns_per_byte", "fixed_ns_per_task", StageCosts.OVERHEAD);
    assertThat(map.<Double>getAs(StageCosts.OVERHEAD)).isEqualTo(50e6);
    // input bytes 10 MB + 3 MB × i, i = 0..29: the quantiles 0.1 … 0.9 are at i = 2.9, 8.7, 14.5, 20.3, 26.1
    List<Double> sizes = map.getList(map.fieldIndex(StageCosts.SIZE_RATIOS));
    double mean = 10 + 3 * 14.5;
    assertThat(sizes).hasSize(5);
    for (int k = 0; k < 5; k++) {
      assertThat(sizes.get(k)).isCloseTo((10 + 3 * (2.9 + 5.8 * k)) / mean, within(1e-9));
    }
    Row small = rows.get(1);
    assertThat(small.<Double>getAs("fixed_ns_per_task")).isNull();
    assertThat(small.<Double>getAs(StageCosts.OVERHEAD)).as("no task duration").isNull();
    assertThat(small.getList(small.fieldIndex("missing"))).contains("fixed_ns_per_task", "hdfs_read_ns_per_byte",
        StageCosts.OVERHEAD);

    StageCosts.Summary second = StageCosts.run(spark, new StageCosts.Options(root, root, false), Clock.systemUTC());
    assertThat(second.plan().mode()).isEqualTo(ChangedLogs.Mode.UP_TO_DATE);
    assertThat(spark.read().format("delta").load(dir.resolve("stage_costs").toString()).count()).isEqualTo(2);
  }

  /**
   * A stage of more tasks than the bound keeps its exact sums (the task count and every ratio) and fits its costs
   * from a sample that does not depend on the order the tasks arrive in and still finds the costs the tasks were
   * made with; a stage within the bound gets the rows of the whole stage.
   */
  @Test
  void aStageBeyondTheBoundKeepsItsSumsAndFitsFromAnOrderFreeSample() {
    SparkSession spark = SparkTestSession.get();
    List<Row> tasks = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      long bytes = 10_000_000L + 3_000_000L * (i * 17 % 60);
      long records = bytes / 100 + 20_000L * (i * 7 % 13);
      long runMs = Math.round(30 + bytes * 20e-6 + records * 500e-6);
      tasks.add(task(0, i, "SUCCESS", bytes, records, runMs, runMs + 10 + 10 * (i % 9)));
    }
    org.apache.spark.sql.Dataset<Row> all = spark.createDataFrame(tasks, Table.TASKS.schema());
    Row whole = StageCosts.of(all.coalesce(1)).first();
    assertThat(StageCosts.of(all.coalesce(1), 60).first()).as("a stage within the bound").isEqualTo(whole);

    Row sampled = StageCosts.of(all.orderBy("task_id").coalesce(1), 20).first();
    Row reordered = StageCosts.of(all.repartition(3), 20).first();
    assertThat(reordered).as("the same sample whatever the order").isEqualTo(sampled);
    assertThat(sampled).isNotEqualTo(whole);
    assertThat(sampled.<Integer>getAs("tasks")).isEqualTo(60);
    for (String ratio : List.of("read_in_pair_width_bytes", "gc_share")) {
      assertThat(sampled.<Double>getAs(ratio)).as(ratio).isCloseTo(whole.getAs(ratio), within(1e-12));
    }
    assertThat(sampled.<Double>getAs("hdfs_read_ns_per_byte")).isCloseTo(20, within(0.5));
    assertThat(sampled.<Double>getAs("compute_ns_per_record")).isCloseTo(500, within(25.0));
    assertThat(sampled.getList(sampled.fieldIndex(StageCosts.SIZE_RATIOS))).hasSize(5);
  }
}
