package org.perflab.spark.features;

import static org.apache.spark.sql.functions.col;

import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;
import org.perflab.table.KeyColumns;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/** The application-attempt key every feature row starts with: {@code log_id, app_id, app_attempt_id}. */
final class FeatureKeys {
  static final String[] NAMES = {KeyColumns.LOG_ID, KeyColumns.APP_ID, KeyColumns.APP_ATTEMPT_ID};

  private FeatureKeys() {}

  /** The key columns. */
  static Column[] columns() {
    return new Column[] {col(NAMES[0]), col(NAMES[1]), col(NAMES[2])};
  }

  /** The key columns followed by {@code more}. */
  static Column[] with(String... more) {
    Column[] all = new Column[NAMES.length + more.length];
    System.arraycopy(columns(), 0, all, 0, NAMES.length);
    for (int i = 0; i < more.length; i++) {
      all[NAMES.length + i] = col(more[i]);
    }
    return all;
  }

  /** The join columns of the key, for {@code Dataset.join(other, usingColumns, type)}. */
  static Seq<String> using(String... more) {
    String[] all = new String[NAMES.length + more.length];
    System.arraycopy(NAMES, 0, all, 0, NAMES.length);
    System.arraycopy(more, 0, all, NAMES.length, more.length);
    return CollectionConverters.asScala(java.util.List.of(all)).toSeq();
  }

  /** {@code left} with the columns of {@code right} joined on the key (left outer: every left row stays). */
  static Dataset<Row> leftJoin(Dataset<Row> left, Dataset<Row> right) {
    return left.join(right, using(), "left");
  }

  /** A ratio that is null when the denominator is null or not positive. */
  static Column ratio(Column numerator, Column denominator) {
    return functions.when(denominator.gt(0), numerator.cast("double").divide(denominator));
  }

  /** Milliseconds as seconds (double). */
  static Column seconds(Column ms) {
    return ms.cast("double").divide(1000.0);
  }
}
