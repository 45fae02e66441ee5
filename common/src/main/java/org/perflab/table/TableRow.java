package org.perflab.table;

import java.util.Arrays;

/**
 * One row of one {@link Table}: values in column order, null where unknown. Rows are built by name and handed to
 * Spark as positional values.
 */
public record TableRow(Table table, Object[] values) {

  /** Sets a column by name; returns this row for chaining. */
  public TableRow set(String column, Object value) {
    values[table.indexOf(column)] = value;
    return this;
  }

  public Object get(String column) {
    return values[table.indexOf(column)];
  }

  @Override
  public String toString() {
    return table.tableName() + Arrays.toString(values);
  }
}
