package org.perflab.spark.costmodel;

import org.perflab.costmodel.Codec;
import org.perflab.costmodel.CodecCostTable;
import org.perflab.costmodel.SerializerKind;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perflab.spark.ingest.SparkTestSession;
import org.perflab.table.Table;
import org.perflab.table.TableRow;

/**
 * {@link CodecCostSums} on a test-built ingest root: two lz4 / Java runs (one sets nothing, so Spark's defaults apply),
 * one zstd / Kryo run, and a run without shuffle. Writes are summed from Spark's Shuffle Write Time; the read cost is
 * the run time of the tasks that read shuffle records per byte they read; failed tasks and tasks that read nothing are
 * left out.
 */
class CodecCostSumsTest {
  @TempDir
  Path dir;

  private static Row task(String log, int stage, long id, String status, long runMs, long written, long writtenRecs,
      long writeNs, long localRead, long remoteRead, long readRecs) {
    TableRow r = Table.TASKS.newRow().set("log_id", log).set("app_id", "app-" + log).set("app_attempt_id", "")
        .set("stage_id", stage).set("stage_attempt_id", 0).set("task_id", id).set("status", status)
        .set("executor_run_time_ms", runMs).set("shuffle_write_bytes", written)
        .set("shuffle_write_records", writtenRecs).set("shuffle_write_time_ns", writeNs)
        .set("shuffle_local_read_bytes", localRead).set("shuffle_remote_read_bytes", remoteRead)
        .set("shuffle_read_records", readRecs);
    return RowFactory.create(r.values());
  }

  private static Row property(String log, String key, String value) {
    return RowFactory.create(Table.PROPERTIES.newRow().set("log_id", log).set("app_id", "app-" + log)
        .set("app_attempt_id", "").set("category", "SPARK").set("key", key).set("value", value).values());
  }

  /** A map task writing {@code written} bytes of 1,000 records in {@code writeNs}, a reduce task reading them. */
  private static void run(List<Row> tasks, String log, long written, long writeNs, long reduceMs) {
    tasks.add(task(log, 0, 1, "SUCCESS", 500, written, 1000, writeNs, 0, 0, 0));
    tasks.add(task(log, 1, 2, "SUCCESS", reduceMs, 0, 0, 0, written / 2, written / 2, 1000));
    // neither counts: a failed attempt, and a reduce task whose partition was empty
    tasks.add(task(log, 1, 3, "FAILED", 99_000, 0, 0, 0, written, 0, 1000));
    tasks.add(task(log, 1, 4, "SUCCESS", 7_000, 0, 0, 0, 0, 0, 0));
  }

  @Test
  void sumsEachSettingsWritesAndItsReduceTasksTimePerByteRead() {
    SparkSession spark = SparkTestSession.get();
    List<Row> tasks = new ArrayList<>();
    run(tasks, "lz4a", 100_000, 400_000, 20);
    run(tasks, "lz4b", 100_000, 600_000, 40);
    run(tasks, "zstd", 70_000, 700_000, 35);
    tasks.add(task("noshuffle", 0, 1, "SUCCESS", 100, 0, 0, 0, 0, 0, 0));
    spark.createDataFrame(tasks, Table.TASKS.schema()).coalesce(1).write().format("delta")
        .save(dir.resolve("tasks").toString());
    spark.createDataFrame(List.of(property("lz4b", "spark.io.compression.codec", "lz4"),
            property("zstd", "spark.io.compression.codec", "zstd"),
            property("zstd", "spark.serializer", "org.apache.spark.serializer.KryoSerializer")),
        Table.PROPERTIES.schema()).write().format("delta").save(dir.resolve("properties").toString());

    List<CodecCostTable.Sums> sums = CodecCostSums.of(spark, dir.toString());

    assertThat(sums).extracting(CodecCostTable.Sums::codec, CodecCostTable.Sums::serializer)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(Codec.LZ4, SerializerKind.JAVA),
            org.assertj.core.groups.Tuple.tuple(Codec.ZSTD, SerializerKind.KRYO));
    CodecCostTable.Sums lz4 = sums.get(0);
    assertThat(lz4.runs()).isEqualTo(2);
    assertThat(lz4.writtenBytes()).isEqualTo(200_000);
    assertThat(lz4.writtenRecords()).isEqualTo(2000);
    assertThat(lz4.writeNs()).isEqualTo(1_000_000);
    // (20 + 40) ms over 200,000 bytes read, local and remote
    assertThat(lz4.readNsPerByte()).isCloseTo(60e6 / 200_000, within(1e-9));
    CodecCostTable.Sums zstd = sums.get(1);
    assertThat(zstd.runs()).isEqualTo(1);
    assertThat(zstd.readNsPerByte()).isCloseTo(35e6 / 70_000, within(1e-9));

    CodecCostTable table = CodecCostTable.of(sums, Codec.LZ4, SerializerKind.JAVA);
    CodecCostTable.Entry z = table.get(Codec.ZSTD, SerializerKind.KRYO).orElseThrow();
    assertThat(z.bytesFactor()).isCloseTo(0.7, within(1e-12));
    assertThat(z.writeFactor()).isCloseTo(700.0 / 500.0, within(1e-12));
    // reduce time per record: 35 ms per 1,000 against 30 ms per 1,000
    assertThat(z.readFactor()).isCloseTo(35.0 / 30.0, within(1e-12));
  }
}
