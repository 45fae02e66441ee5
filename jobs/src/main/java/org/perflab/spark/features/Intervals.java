package org.perflab.spark.features;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.min;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.when;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.expressions.Window;
import org.apache.spark.sql.expressions.WindowSpec;
import org.apache.spark.sql.functions;
import org.perflab.spark.storage.AppKeyColumns;

/** Time covered by a set of intervals per application attempt, computed with window functions. */
final class Intervals {
  private Intervals() {}

  /**
   * The length of the union of each application attempt's intervals: overlapping intervals count once.
   *
   * @param intervals key columns plus {@code start_ms} and {@code end_ms} (epoch ms; rows with a null end are
   *     ignored)
   * @return key columns plus {@code covered_ms}, one row per key that has an interval
   */
  static Dataset<Row> coveredMs(Dataset<Row> intervals) {
    WindowSpec ordered = Window.partitionBy(AppKeyColumns.with()).orderBy(col("start_ms"), col("end_ms"));
    Dataset<Row> flagged = intervals.where(col("end_ms").isNotNull().and(col("start_ms").isNotNull()))
        .withColumn("end_ms", functions.greatest(col("end_ms"), col("start_ms")))
        .withColumn("reach_ms", max("end_ms").over(ordered.rowsBetween(Window.unboundedPreceding(), -1)))
        .withColumn("opens", when(col("reach_ms").isNull().or(col("start_ms").gt(col("reach_ms"))), 1).otherwise(0))
        .withColumn("span", sum("opens").over(ordered.rowsBetween(Window.unboundedPreceding(), Window.currentRow())));
    return flagged.groupBy(AppKeyColumns.with("span")).agg(max("end_ms").minus(min("start_ms")).as("length_ms"))
        .groupBy(AppKeyColumns.with()).agg(sum("length_ms").as("covered_ms"));
  }
}
