package org.perflab.table;

import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The element type of {@code sql_operators.metric_values}: one SQL metric of a plan node with its value over the
 * execution, as the History Server's SQL tab shows it. Values are in the metric's own unit: bytes for {@code size},
 * ms for {@code timing}, ns for {@code nsTiming}, a count for {@code sum}, tenths for {@code average} (Spark logs
 * averages multiplied by 10).
 */
public final class SqlMetricInfo {
  private SqlMetricInfo() {}

  /** Field order of a metric struct; values are built positionally in this order. */
  public static final StructType STRUCT =
      new StructType(
          new StructField[] {
            Column.structField("name", DataTypes.StringType),
            Column.structField("metric_type", DataTypes.StringType),
            Column.structField("accumulator_id", DataTypes.LongType),
            Column.structField("total", DataTypes.LongType),
            Column.structField("min", DataTypes.LongType),
            Column.structField("median", DataTypes.LongType),
            Column.structField("max", DataTypes.LongType),
            Column.structField("num_values", DataTypes.LongType)
          });

  static final DataType TYPE = DataTypes.createArrayType(STRUCT);
}
