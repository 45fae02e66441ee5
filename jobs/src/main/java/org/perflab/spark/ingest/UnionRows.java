package org.perflab.spark.ingest;

import org.apache.spark.sql.Column;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.functions;
import org.perflab.table.KeyColumns;
import org.perflab.table.TableRow;

/**
 * One parse of a log yields rows of every table. They travel through Spark as one pair RDD keyed by their partition
 * ({@link TablePartitioner}), each value a row of that table's own schema; each table becomes a DataFrame of its own
 * schema only, so no task ever encodes the rows of all tables in one wide schema.
 */
final class UnionRows {
  private UnionRows() {}

  /** A table row as Spark's row encoder takes it: Java maps become Scala maps; arrays stay arrays. */
  static Row external(TableRow row) {
    Object[] values = row.values().clone();
    for (int i = 0; i < values.length; i++) {
      if (values[i] instanceof java.util.Map<?, ?> map) {
        values[i] = scala.jdk.javaapi.CollectionConverters.asScala(map);
      }
    }
    return RowFactory.create(values);
  }

  static Column logId() {
    return functions.col(KeyColumns.LOG_ID);
  }
}
