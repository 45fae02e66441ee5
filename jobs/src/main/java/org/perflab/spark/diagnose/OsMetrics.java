package org.perflab.spark.diagnose;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.floor;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The optional OS-metrics input of {@code diagnose --os-metrics}: a sar-style CSV with a header, one row per host
 * and second (docs/stragglers.md#os-metrics):
 *
 * <pre>
 * host,epoch_s,cpu_util,io_util,net_util
 * worker-1,1700000000,0.42,0.05,0.10
 * </pre>
 *
 * {@code host} as the event log names it (the {@code tasks.host} column); {@code epoch_s} the sample's second since
 * the epoch, UTC, on the clock of the event log (decimals are floored); {@code cpu_util} the user-CPU fraction
 * (mpstat %usr / 100), {@code io_util} the I/O-time fraction (iostat %util / 100 or mpstat %iowait / 100),
 * {@code net_util} the NIC's utilisation, (rx + tx bytes/s) / link bytes/s. Fractions in [0, 1]; an empty cell is
 * not measured.
 */
public final class OsMetrics {
  static final String CPU = "cpu_util";
  static final String IO = "io_util";
  static final String NETWORK = "net_util";

  /** The CSV's columns, in order. */
  public static final StructType SCHEMA = new StructType()
      .add("host", DataTypes.StringType, false)
      .add("epoch_s", DataTypes.DoubleType, false)
      .add(CPU, DataTypes.DoubleType, true)
      .add(IO, DataTypes.DoubleType, true)
      .add(NETWORK, DataTypes.DoubleType, true);

  private OsMetrics() {}

  /** The samples under {@code path} (a file, directory or glob), one row per host and whole second (averaged). */
  public static Dataset<Row> read(SparkSession spark, String path) {
    Dataset<Row> rows = spark.read().option("header", "true").option("mode", "FAILFAST").schema(SCHEMA).csv(path);
    return rows.filter(col("host").isNotNull().and(col("epoch_s").isNotNull()))
        .withColumn("epoch_s", floor(col("epoch_s")))
        .groupBy("host", "epoch_s")
        .agg(org.apache.spark.sql.functions.avg(CPU).as(CPU), org.apache.spark.sql.functions.avg(IO).as(IO),
            org.apache.spark.sql.functions.avg(NETWORK).as(NETWORK));
  }
}
