package org.perflab.sweep;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;

import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/** Dataset views of {@code sweep_results} and {@code sweep_best} for their readers; no I/O. */
public final class SweepRows {
  /** The columns that hold a point's shuffle settings; null where the grid had no such axis. */
  private static final List<String> SHUFFLE_SETTINGS = List.of("codec", "serializer");

  private SweepRows() {}

  /**
   * The rows at the swept run's own shuffle codec and serializer: those of grids without a codec or serializer axis.
   * A reader that keys points by executors, cores and memory (a heatmap, a recommendation) sees one row per point. A
   * table written before the columns existed keeps every row.
   */
  public static Dataset<Row> atSweptShuffleSettings(Dataset<Row> rows) {
    Dataset<Row> out = withShuffleSettings(rows);
    for (String column : SHUFFLE_SETTINGS) {
      out = out.where(col(column).isNull());
    }
    return out;
  }

  /**
   * The rows with their {@code codec} and {@code serializer} columns: a table written before they existed gets them
   * null (every point at the swept run's own setting).
   */
  public static Dataset<Row> withShuffleSettings(Dataset<Row> rows) {
    Dataset<Row> out = rows;
    for (String column : SHUFFLE_SETTINGS) {
      if (!Arrays.asList(rows.columns()).contains(column)) {
        out = out.withColumn(column, lit(null).cast("string"));
      }
    }
    return out;
  }
}
