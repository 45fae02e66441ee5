package org.perflab.spark.costmodel;

import org.perflab.spark.environment.EffectiveProperties;
import org.perflab.costmodel.Codec;
import org.perflab.costmodel.CodecCostTable;
import org.perflab.costmodel.SerializerKind;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.when;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.perflab.spark.storage.TableStore;
import org.perflab.table.Table;

/**
 * Per codec and serializer, the shuffle sums of the runs under an ingest root ({@code tasks}, {@code properties}), for
 * {@link CodecCostTable}. Aggregated per log on Spark; one row per log reaches the driver. A run's codec and serializer
 * are its SPARK properties, Spark's defaults (lz4, Java) when absent.
 *
 * <p>The write cost is Spark's own Shuffle Write Time. Spark meters no read time for local blocks (decompression and
 * deserialisation run inside the task's iterator), and a fitted per-byte read cost is not identifiable from such runs:
 * every reduce task reads about the same bytes, so a per-stage regression splits their time between the fixed and the
 * per-byte term at random (fit r² near 0 on terasort). The read cost is therefore measured directly: the executor run
 * time of the successful tasks that read shuffle records, per shuffle byte they read. It includes the reduce side's
 * own work, the same in runs that differ only in codec or serializer, so its ratio between two settings understates
 * the change in the read phase alone.
 */
public final class CodecCostSums {
  private static final String CODEC = "spark.io.compression.codec";
  private static final String SERIALIZER = "spark.serializer";

  private CodecCostSums() {}

  /** The sums of every setting with shuffle output, in codec then serializer order. */
  public static List<CodecCostTable.Sums> of(SparkSession spark, String input) {
    TableStore in = new TableStore(spark, input);
    Dataset<Row> tasks = in.read(Table.TASKS).orElseThrow().where(col("status").equalTo("SUCCESS"));
    Map<String, Map<String, String>> props = new HashMap<>();
    for (Row r : EffectiveProperties.spark(in).orElseThrow().where(col("key").isin(CODEC, SERIALIZER))
        .select("log_id", "key", "value").collectAsList()) {
      props.computeIfAbsent(r.getString(0), k -> new HashMap<>()).put(r.getString(1), r.getString(2));
    }
    // one pass over the tasks: per log, the shuffle written, and the run time and bytes of the tasks that read shuffle
    Column reads = col("shuffle_read_records").gt(0);
    Map<String, double[]> acc = new TreeMap<>();
    for (Row r : tasks.groupBy("log_id").agg(sum("shuffle_write_bytes"), sum("shuffle_write_records"),
        sum("shuffle_write_time_ns"), sum(when(reads, col("executor_run_time_ms"))),
        sum(when(reads, col("shuffle_local_read_bytes").plus(col("shuffle_remote_read_bytes"))))).collectAsList()) {
      if (r.isNullAt(2) || r.getLong(2) == 0) {
        continue; // a run without shuffle output says nothing of its setting
      }
      boolean read = !r.isNullAt(4) && !r.isNullAt(5) && r.getLong(5) > 0;
      double[] rd = read ? new double[] {r.getLong(4) * 1e6, r.getLong(5)} : new double[] {0, 0};
      Map<String, String> p = props.getOrDefault(r.getString(0), Map.of());
      String key = Codec.parse(p.getOrDefault(CODEC, "lz4")).name() + "/"
          + SerializerKind.parse(p.getOrDefault(SERIALIZER, SerializerKind.JAVA.className())).name();
      double[] a = acc.computeIfAbsent(key, k -> new double[6]);
      a[0]++;
      a[1] += r.getLong(1);
      a[2] += r.getLong(2);
      a[3] += r.getLong(3);
      a[4] += rd[0];
      a[5] += rd[1];
    }
    List<CodecCostTable.Sums> out = new ArrayList<>();
    acc.forEach((key, a) -> {
      String[] k = key.split("/");
      out.add(new CodecCostTable.Sums(Codec.valueOf(k[0]), SerializerKind.valueOf(k[1]), (int) a[0], a[1], a[2], a[3],
          a[5] > 0 ? a[4] / a[5] : Double.NaN));
    });
    return out;
  }
}
