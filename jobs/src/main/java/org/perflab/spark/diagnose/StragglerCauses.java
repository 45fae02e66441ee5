package org.perflab.spark.diagnose;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.explode;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.size;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.when;

import java.util.Arrays;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.perflab.spark.storage.AppKeyColumns;
import org.perflab.table.KeyColumns;

/**
 * The {@code straggler_causes} table, the thesis's Table 7 per application attempt (reference 002 §4.1.5): per cause,
 * the stragglers it explains and the time they lost (duration − stage median), with the application's totals (Table
 * 7's last column). A straggler with two causes counts under both; stragglers with none count under
 * {@link #UNEXPLAINED}.
 */
public final class StragglerCauses {
  /** The table name under the output root. */
  public static final String NAME = "straggler_causes";
  /** The cause row of stragglers no rule explains. */
  public static final String UNEXPLAINED = "UNEXPLAINED";

  /** The schema of {@code straggler_causes} (docs/tables.md#straggler_causes). */
  public static final StructType SCHEMA = new StructType()
      .add(KeyColumns.LOG_ID, DataTypes.StringType, false)
      .add(KeyColumns.APP_ID, DataTypes.StringType, false)
      .add(KeyColumns.APP_ATTEMPT_ID, DataTypes.StringType, false)
      .add("cause", DataTypes.StringType, false)
      .add("stragglers", DataTypes.LongType, false)
      .add("lost_s", DataTypes.DoubleType, false)
      .add("app_stragglers", DataTypes.LongType, false)
      .add("app_lost_s", DataTypes.DoubleType, false);

  private StragglerCauses() {}

  /** A straggler's causes, or {@link #UNEXPLAINED} alone when it has none: the causes it is counted and shown under. */
  public static Column causesOrUnexplained() {
    return when(size(col("causes")).gt(0), col("causes"))
        .otherwise(org.apache.spark.sql.functions.array(lit(UNEXPLAINED)));
  }

  /** Table 7 from the {@code stragglers} rows. */
  public static Dataset<Row> of(Dataset<Row> stragglers) {
    Column[] app = AppKeyColumns.with();
    Column lost = StragglerTable.lostSeconds();
    Dataset<Row> byCause = stragglers
        .withColumn("cause", explode(causesOrUnexplained()))
        .withColumn("lost", lost)
        .groupBy(append(app, col("cause"))).agg(count(lit(1)).as("stragglers"), sum("lost").as("lost_s"));
    Dataset<Row> totals = stragglers.withColumn("lost", lost).groupBy(app)
        .agg(count(lit(1)).as("app_stragglers"), sum("lost").as("app_lost_s"));
    return byCause.join(totals, AppKeyColumns.using())
        .select(Arrays.stream(SCHEMA.fieldNames()).map(org.apache.spark.sql.functions::col).toArray(Column[]::new));
  }

  private static Column[] append(Column[] columns, Column last) {
    Column[] out = Arrays.copyOf(columns, columns.length + 1);
    out[columns.length] = last;
    return out;
  }
}
