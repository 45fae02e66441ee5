package org.perflab.spark.findings;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Rows of a real table schema for one application, built from the values a test names: the key columns from the
 * application id, every other required column a zero (0, "", false, empty), every other nullable column null.
 */
final class FindingRows {
  /** The shape of ingest's {@code sql_operators} (branch i10-sqlops), the columns the SQL rules read. */
  static final StructType SQL_OPERATORS = new StructType()
      .add("log_id", DataTypes.StringType, false)
      .add("app_id", DataTypes.StringType, false)
      .add("app_attempt_id", DataTypes.StringType, false)
      .add("execution_id", DataTypes.LongType)
      .add("node_id", DataTypes.LongType)
      .add("node_name", DataTypes.StringType)
      .add("is_cluster", DataTypes.BooleanType)
      .add("child_node_ids", DataTypes.createArrayType(DataTypes.LongType))
      .add("input_rows", DataTypes.LongType)
      .add("output_rows", DataTypes.LongType)
      .add("time_ms", DataTypes.LongType)
      .add("metrics", DataTypes.createMapType(DataTypes.StringType, DataTypes.LongType));

  private final StructType schema;
  private final List<Row> rows = new ArrayList<>();

  FindingRows(StructType schema) {
    this.schema = schema;
  }

  /** Adds a row of application {@code appId} (log id "log-" + appId) with the named values (name, value, ...). */
  FindingRows add(String appId, Object... namesAndValues) {
    Map<String, Object> values = new HashMap<>();
    values.put("log_id", "log-" + appId);
    values.put("app_id", appId);
    values.put("app_attempt_id", "");
    for (int i = 0; i < namesAndValues.length; i += 2) {
      values.put((String) namesAndValues[i], namesAndValues[i + 1]);
    }
    Object[] row = new Object[schema.size()];
    StructField[] fields = schema.fields();
    for (int i = 0; i < fields.length; i++) {
      row[i] = values.containsKey(fields[i].name()) ? values.get(fields[i].name()) : zero(fields[i]);
    }
    values.keySet().forEach(schema::fieldIndex); // fails on a misspelt column
    rows.add(RowFactory.create(row));
    return this;
  }

  Dataset<Row> frame(SparkSession spark) {
    return spark.createDataFrame(rows, schema);
  }

  private static Object zero(StructField field) {
    if (field.nullable()) {
      return null;
    }
    Object type = field.dataType();
    if (type instanceof IntegerType) {
      return 0;
    } else if (type instanceof LongType) {
      return 0L;
    } else if (type instanceof DoubleType) {
      return 0.0;
    } else if (type instanceof BooleanType) {
      return false;
    } else if (type instanceof ArrayType) {
      return List.of();
    }
    return type instanceof MapType ? Map.of() : "";
  }
}
