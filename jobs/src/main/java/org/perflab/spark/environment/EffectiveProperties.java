package org.perflab.spark.environment;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lower;
import static org.apache.spark.sql.functions.trim;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.perflab.spark.storage.TableStore;
import org.perflab.table.KeyColumns;
import org.perflab.table.Table;

/**
 * The one reader of applications' effective properties: every category of their EnvironmentUpdate (redacted), as
 * rows of the {@code properties} schema ({@code log_id, app_id, app_attempt_id, category, key, value}), whichever
 * layout the ingest root has. Since property sets, {@code properties} holds the SPARK rows per log and every other
 * category is a reference ({@code property_set_refs}) to a set stored once ({@code property_sets}); a root written
 * before holds every category in {@code properties}. A root ingested in both eras reads each log's category from
 * its reference when it has one, else from {@code properties}, so a log re-ingested by today's code reads the same.
 */
public final class EffectiveProperties {
  /** The category stored per log in {@code properties} in every layout. */
  public static final String SPARK = "SPARK";

  private EffectiveProperties() {}

  /** Every property of every log under {@code store}'s root; empty when the root has no {@code properties} table. */
  public static Optional<Dataset<Row>> read(TableStore store) {
    return store.read(Table.PROPERTIES).map(properties -> of(properties, store.read(Table.PROPERTY_SET_REFS),
        store.read(Table.PROPERTY_SETS)));
  }

  /**
   * Only the SPARK properties: they stay per log in {@code properties} in both layouts, so this reads no set.
   * Empty when the root has no {@code properties} table.
   */
  public static Optional<Dataset<Row>> spark(TableStore store) {
    return store.read(Table.PROPERTIES).map(properties -> properties.where(isSpark()));
  }

  /**
   * The effective properties from the three tables (a transform, no I/O): {@code properties}' rows of the logs and
   * categories without a reference, plus the rows of each referenced set under its log's keys.
   */
  public static Dataset<Row> of(Dataset<Row> properties, Optional<Dataset<Row>> refs, Optional<Dataset<Row>> sets) {
    Dataset<Row> own = properties.select(columns());
    if (refs.isEmpty() || sets.isEmpty()) {
      return own;
    }
    Dataset<Row> referenced = refs.get().select(col(KeyColumns.LOG_ID), col(KeyColumns.APP_ID),
        col(KeyColumns.APP_ATTEMPT_ID), col("category"), col("set_id"));
    Dataset<Row> fromSets = referenced.join(sets.get().select("set_id", "category", "key", "value"),
        new String[] {"set_id", "category"}, "inner")
        .select(columns());
    Dataset<Row> notReferenced = own.join(referenced.select(KeyColumns.LOG_ID, "category"),
        new String[] {KeyColumns.LOG_ID, "category"}, "left_anti").select(columns());
    return notReferenced.unionByName(fromSets);
  }

  /**
   * The SPARK properties of the given logs, as {@code key -> value} per log id (a log without any is absent).
   *
   * @param properties effective properties ({@link #read}) or their SPARK rows ({@link #spark})
   * @param logIds the logs wanted
   * @param keys the keys wanted; none: every key
   */
  public static Map<String, Map<String, String>> sparkByLog(Dataset<Row> properties, Collection<String> logIds,
      String... keys) {
    Map<String, Map<String, String>> out = new HashMap<>();
    if (logIds.isEmpty()) {
      return out;
    }
    Column wanted = isSpark().and(col(KeyColumns.LOG_ID).isin(logIds.toArray()));
    if (keys.length > 0) {
      wanted = wanted.and(col("key").isin((Object[]) keys));
    }
    properties.where(wanted).select(KeyColumns.LOG_ID, "key", "value").collectAsList()
        .forEach(r -> out.computeIfAbsent(r.getString(0), k -> new HashMap<>()).put(r.getString(1), r.getString(2)));
    return out;
  }

  /** Whether a property's {@code value} reads as true as Spark reads a boolean property: trimmed, in any case. */
  public static Column isTrue(Column value) {
    return lower(trim(value)).equalTo("true");
  }

  /** {@code category = 'SPARK'}. */
  public static Column isSpark() {
    return col("category").equalTo(SPARK);
  }

  private static Column[] columns() {
    return Table.PROPERTIES.columns().stream().map(c -> col(c.name())).toArray(Column[]::new);
  }
}
