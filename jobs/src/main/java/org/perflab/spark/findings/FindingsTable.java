package org.perflab.spark.findings;


import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.perflab.table.KeyColumns;

/** The {@code findings} table's schema, documented column by column in docs/tables.md. */
public final class FindingsTable {
  public static final String NAME = "findings";

  public static final StructType SCHEMA = new StructType()
      .add(KeyColumns.LOG_ID, DataTypes.StringType, false)
      .add(KeyColumns.APP_ID, DataTypes.StringType, false)
      .add(KeyColumns.APP_ATTEMPT_ID, DataTypes.StringType, false)
      .add("stage_id", DataTypes.IntegerType, true)
      .add("stage_attempt_id", DataTypes.IntegerType, true)
      .add("execution_id", DataTypes.LongType, true)
      .add("node_id", DataTypes.LongType, true)
      .add("rule", DataTypes.StringType, false)
      .add("severity", DataTypes.StringType, false)
      .add("evidence", DataTypes.createMapType(DataTypes.StringType, DataTypes.DoubleType, true), false)
      .add("estimated_savings_s", DataTypes.DoubleType, false)
      .add("recommendation", DataTypes.StringType, false)
      .add("recommended_conf", DataTypes.createMapType(DataTypes.StringType, DataTypes.StringType, true), false);

  private FindingsTable() {}

  /** {@code rows} with exactly the table's columns, types and nullability (a null in a required column is a bug). */
  static Dataset<Row> conform(Dataset<Row> rows) {
    return org.perflab.spark.storage.TableStore.conform(rows, SCHEMA);
  }
}
