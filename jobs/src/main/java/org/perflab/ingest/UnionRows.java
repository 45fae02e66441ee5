package org.perflab.ingest;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.perflab.table.KeyColumns;
import org.perflab.table.Table;
import org.perflab.table.TableRow;

/**
 * One parse of a log yields rows of every table. They travel through Spark as one dataset whose rows name their
 * table and carry their values in that table's struct column; each table is then selected out of it.
 */
final class UnionRows {
  static final String TABLE = "table";
  static final StructType SCHEMA = schema();

  private UnionRows() {}

  private static StructType schema() {
    List<StructField> fields = new ArrayList<>();
    fields.add(DataTypes.createStructField(TABLE, DataTypes.StringType, false));
    for (Table table : Table.values()) {
      fields.add(DataTypes.createStructField(table.tableName(), table.schema(), true));
    }
    return new StructType(fields.toArray(new StructField[0]));
  }

  static Row pack(TableRow row) {
    Object[] values = new Object[1 + Table.values().length];
    values[0] = row.table().tableName();
    values[1 + row.table().ordinal()] = external(row);
    return RowFactory.create(values);
  }

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

  /** The rows of one table, with its own schema. */
  static Dataset<Row> select(Dataset<Row> union, Table table) {
    return union.filter(functions.col(TABLE).equalTo(table.tableName())).select(table.tableName() + ".*");
  }

  static Column logId() {
    return functions.col(KeyColumns.LOG_ID);
  }
}
