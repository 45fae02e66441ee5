package org.perflab.spark.storage;

import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.StructType;

/**
 * A row of a Spark schema built by column name, for tables whose rows the driver builds one by one: a column not set
 * is null, and a name the schema does not hold fails at once ({@link StructType#fieldIndex}), where a positional
 * {@code RowFactory.create} of thirty values would shift every later column silently. The Spark-schema twin of
 * {@code org.perflab.table.TableRow}, which does the same for the ingest tables that {@code common} defines.
 */
public final class SchemaRow {
  private final StructType schema;
  private final Object[] values;

  private SchemaRow(StructType schema) {
    this.schema = schema;
    this.values = new Object[schema.size()];
  }

  /** An empty row of {@code schema}: every column null. */
  public static SchemaRow of(StructType schema) {
    return new SchemaRow(schema);
  }

  /** Sets {@code column} to {@code value}; returns this builder. */
  public SchemaRow set(String column, Object value) {
    values[schema.fieldIndex(column)] = value;
    return this;
  }

  /** The row, its values in the schema's column order. The builder may be set further and built again. */
  public Row row() {
    return RowFactory.create(values.clone());
  }
}
