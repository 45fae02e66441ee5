package org.perflab.spark.changes;

import static org.apache.spark.sql.functions.col;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.perflab.table.KeyColumns;

/**
 * The effective Spark properties of applications, read from the {@code properties} table. The one place the changes
 * jobs read configuration: when the shared properties reader lands, this class delegates to it.
 */
public final class SparkProperties {
  private SparkProperties() {}

  /**
   * The Spark properties ({@code category = 'SPARK'}) of the given logs, as {@code key -> value} per log id.
   *
   * @param properties the ingest {@code properties} table
   * @param logIds the logs wanted
   */
  public static Map<String, Map<String, String>> byLog(Dataset<Row> properties, Collection<String> logIds) {
    Map<String, Map<String, String>> out = new HashMap<>();
    if (logIds.isEmpty()) {
      return out;
    }
    properties.where(col("category").equalTo("SPARK").and(col(KeyColumns.LOG_ID).isin(logIds.toArray())))
        .select(KeyColumns.LOG_ID, "key", "value").collectAsList()
        .forEach(r -> out.computeIfAbsent(r.getString(0), k -> new HashMap<>()).put(r.getString(1), r.getString(2)));
    return out;
  }
}
