package org.perflab.spark.findings;

import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.format_number;
import static org.apache.spark.sql.functions.least;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.udf;
import static org.apache.spark.sql.functions.when;

import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.api.java.UDF2;
import org.apache.spark.sql.expressions.UserDefinedFunction;
import org.apache.spark.sql.types.DataTypes;
import org.perflab.memory.MemoryManager;
import org.perflab.spark.environment.EffectiveProperties;
import org.perflab.table.KeyColumns;

/**
 * {@code SPILL}'s settings for the applications whose executors had Spark's static memory manager (Spark before 1.6,
 * and 1.6 to 2.4 with {@code spark.memory.useLegacyMode=true}; {@link MemoryManager#of}): their tasks spill past
 * {@code spark.shuffle.memoryFraction} of the heap (0.2 by default) while {@code spark.storage.memoryFraction} (0.6)
 * holds the cache, and Spark 1.x's configuration guide advises raising the first "at the expense of" the second when
 * spills are frequent. The settings double the shuffle fraction, taking the difference from storage and leaving it at
 * least {@link #MIN_STORAGE}, so the heap's managed share stays what the run had. A transform, no I/O.
 */
final class StaticMemory {
  static final String SHUFFLE_KEY = MemoryManager.STATIC_SHUFFLE_FRACTION_KEY;
  static final String STORAGE_KEY = MemoryManager.STATIC_STORAGE_FRACTION_KEY;
  /** The column of {@link #of}: the recommended shuffle fraction, as a string with two decimals. */
  static final String SHUFFLE = "__static_shuffle_fraction";
  /** The column of {@link #of}: the recommended storage fraction. */
  static final String STORAGE = "__static_storage_fraction";
  /** The smallest storage fraction the settings leave. */
  static final double MIN_STORAGE = 0.1;
  /** What the recommendation adds for such an application. */
  static final String ADVICE = " Under the static memory manager this run had, raise " + SHUFFLE_KEY + " at the"
      + " expense of " + STORAGE_KEY + " (Spark 1.x's tuning advice); the memory job's memory_recommendations sizes"
      + " both from what the run cached.";
  /** Whether a run of the version with the legacy-mode property's value had the static manager. */
  private static final UserDefinedFunction STATIC = udf((UDF2<String, Boolean, Boolean>) (version, legacy) ->
      MemoryManager.of(version, Boolean.TRUE.equals(legacy)) == MemoryManager.STATIC, DataTypes.BooleanType);

  private StaticMemory() {}

  /**
   * One row per log of {@code versions} ({@link VersionedSettings#versions}) whose run had the static manager and whose
   * storage fraction leaves room: {@code log_id}, {@link #SHUFFLE} and {@link #STORAGE}, from the run's Spark
   * properties in {@code in.properties()}. A run of unknown version is taken as unified (as the memory job does) and
   * has no row.
   */
  static Dataset<Row> of(FindingInputs in, Dataset<Row> versions) {
    Column key = col("key");
    Dataset<Row> settings = in.properties().where(EffectiveProperties.isSpark()
            .and(key.isin(SHUFFLE_KEY, STORAGE_KEY, MemoryManager.LEGACY_MODE_KEY)))
        .groupBy(KeyColumns.LOG_ID)
        .agg(max(when(key.equalTo(SHUFFLE_KEY), col("value"))).as("shuffle"),
            max(when(key.equalTo(STORAGE_KEY), col("value"))).as("storage"),
            max(when(key.equalTo(MemoryManager.LEGACY_MODE_KEY), EffectiveProperties.isTrue(col("value"))))
                .as("legacy"));
    Dataset<Row> runs = versions.join(settings, new String[] {KeyColumns.LOG_ID}, "left")
        .where(STATIC.apply(col(VersionedSettings.VERSION), col("legacy")));
    Column shuffle = fraction("shuffle", MemoryManager.STATIC_SHUFFLE_FRACTION);
    Column storage = fraction("storage", MemoryManager.STATIC_STORAGE_FRACTION);
    Column raised = least(shuffle.multiply(2), shuffle.plus(storage).minus(MIN_STORAGE));
    // raised by at least the hundredth the settings are written in (0.2 + 0.1 - 0.1 is not quite 0.2)
    return runs.where(raised.geq(shuffle.plus(0.01))).select(col(KeyColumns.LOG_ID),
        format_number(raised, 2).as(SHUFFLE), format_number(shuffle.plus(storage).minus(raised), 2).as(STORAGE));
  }

  /** A fraction property's value, or Spark's default when it is unset or unreadable. */
  private static Column fraction(String column, double sparkDefault) {
    return coalesce(col(column).cast("double"), lit(sparkDefault));
  }
}
