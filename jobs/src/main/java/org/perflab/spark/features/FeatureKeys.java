package org.perflab.spark.features;

import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;
import org.perflab.spark.storage.AppKeyColumns;
import scala.collection.immutable.Seq;

/** Helpers of the feature transforms: the left join on the application key ({@link AppKeyColumns}), ratios, seconds. */
final class FeatureKeys {
  private FeatureKeys() {}

  /** {@code left} with the columns of {@code right} joined on the key (left outer: every left row stays). */
  static Dataset<Row> leftJoin(Dataset<Row> left, Dataset<Row> right) {
    return left.join(right, AppKeyColumns.using(), "left");
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
