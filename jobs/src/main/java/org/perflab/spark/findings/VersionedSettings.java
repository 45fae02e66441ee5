package org.perflab.spark.findings;

import static org.apache.spark.sql.functions.array_join;
import static org.apache.spark.sql.functions.array_sort;
import static org.apache.spark.sql.functions.broadcast;
import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.concat;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.map_filter;
import static org.apache.spark.sql.functions.map_keys;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.size;
import static org.apache.spark.sql.functions.udf;
import static org.apache.spark.sql.functions.when;

import java.util.Map;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.expressions.UserDefinedFunction;
import org.apache.spark.sql.types.DataTypes;
import org.perflab.eventlog.SparkVersion;
import org.perflab.table.KeyColumns;

/**
 * Findings' recommended settings in the keys their application's Spark version reads: a key that version does not
 * have is left out of {@code recommended_conf}, and the recommendation says which and why, so that a finding on a
 * Spark 1.5 run does not ask for adaptive query execution. A run whose version is unknown keeps every key. A transform,
 * no I/O.
 */
final class VersionedSettings {
  /**
   * The first Spark version, as major × 100 + minor, that reads each key or key prefix (ending in a dot): adaptive
   * query execution's skew-join and partition-coalescing settings from 3.0 (2.x's experimental AQE had other keys),
   * {@code spark.sql.files.maxPartitionBytes} from 2.0, the listener bus queue's capacity from 2.3.
   */
  static final Map<String, Integer> SINCE = Map.of(
      "spark.sql.adaptive.", 300,
      "spark.sql.files.maxPartitionBytes", 200,
      "spark.scheduler.listenerbus.eventqueue.capacity", 203);
  static final String VERSION = "__spark_version";
  static final String MINOR = "__spark_minor";
  /** {@link SparkVersion#minor}, null where it is -1 (unknown). */
  private static final UserDefinedFunction MINOR_OF = udf((UDF1<String, Integer>) v -> {
    int minor = SparkVersion.minor(v);
    return minor < 0 ? null : minor;
  }, DataTypes.IntegerType);

  private VersionedSettings() {}

  /**
   * {@code findings} (the findings schema) with each row's settings cut to its application's Spark version, from
   * {@code versions} ({@link #versions} of {@code ingest_status}) by log.
   */
  static Dataset<Row> apply(Dataset<Row> findings, Dataset<Row> versions) {
    Column version = col(MINOR);
    Column conf = col("recommended_conf");
    Column missing = map_filter(conf, (k, v) -> unread(k, version));
    Column dropped = array_join(array_sort(map_keys(missing)), ", ");
    return findings.join(broadcast(versions), new String[] {KeyColumns.LOG_ID}, "left")
        .withColumn("recommendation", when(size(map_keys(missing)).gt(0), concat(col("recommendation"),
            lit(" (Spark "), col(VERSION), lit(" does not read "), dropped, lit(": left out of the settings.)")))
            .otherwise(col("recommendation")))
        .withColumn("recommended_conf", map_filter(conf, (k, v) -> unread(k, version).unary_$bang()))
        .drop(VERSION, MINOR);
  }

  /**
   * One row per log of {@code ingestStatus}: {@code log_id}, its Spark version ({@value #VERSION}, the greatest
   * recorded) and that version as major × 100 + minor ({@value #MINOR}, null when unknown).
   */
  static Dataset<Row> versions(Dataset<Row> ingestStatus) {
    return ingestStatus.groupBy(KeyColumns.LOG_ID).agg(max(col("spark_version")).as(VERSION))
        .withColumn(MINOR, MINOR_OF.apply(col(VERSION)));
  }

  /** Whether a run of {@code version} (null: unknown) does not read {@code key}. */
  private static Column unread(Column key, Column version) {
    Column out = lit(false);
    for (Map.Entry<String, Integer> e : SINCE.entrySet()) {
      Column matches = e.getKey().endsWith(".") ? key.startsWith(e.getKey()) : key.equalTo(e.getKey());
      out = out.or(matches.and(coalesce(version.lt(e.getValue()), lit(false))));
    }
    return out;
  }
}
