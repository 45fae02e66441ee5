package org.perflab.spark.report;

import java.util.Locale;
import org.apache.spark.sql.Row;

/** Reading nullable columns of collected rows, and formatting numbers the way every page shows them. */
public final class Fmt {
  /** What a page shows for an unknown value. */
  public static final String NONE = "–";

  private Fmt() {}

  /** {@code value} with {@code digits} decimals (Locale.ROOT), or {@link #NONE} for null, NaN or infinity. */
  public static String num(Double value, int digits) {
    if (value == null || !Double.isFinite(value)) {
      return NONE;
    }
    return String.format(Locale.ROOT, "%,." + digits + "f", value);
  }

  public static String count(Long value) {
    return value == null ? NONE : String.format(Locale.ROOT, "%,d", value);
  }

  /** The column as a double (any numeric type), or null when null or absent. */
  public static Double dbl(Row row, String column) {
    Object value = value(row, column);
    return value instanceof Number n ? n.doubleValue() : null;
  }

  public static Long lng(Row row, String column) {
    Object value = value(row, column);
    return value instanceof Number n ? n.longValue() : null;
  }

  /** The column as text (any type), or null when null or absent. */
  public static String str(Row row, String column) {
    Object value = value(row, column);
    return value == null ? null : value.toString();
  }

  private static Object value(Row row, String column) {
    int index;
    try {
      index = row.fieldIndex(column);
    } catch (IllegalArgumentException e) {
      return null;
    }
    return row.isNullAt(index) ? null : row.get(index);
  }
}
