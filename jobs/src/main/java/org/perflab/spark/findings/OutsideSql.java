package org.perflab.spark.findings;

import static org.apache.spark.sql.functions.broadcast;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.concat;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.map;
import static org.apache.spark.sql.functions.map_concat;
import static org.apache.spark.sql.functions.map_contains_key;
import static org.apache.spark.sql.functions.map_filter;
import static org.apache.spark.sql.functions.map_keys;
import static org.apache.spark.sql.functions.not;
import static org.apache.spark.sql.functions.size;
import static org.apache.spark.sql.functions.when;

import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.perflab.spark.storage.AppKeyColumns;
import org.perflab.table.KeyColumns;

/**
 * The stages that ran outside Spark SQL (RDD code), and the findings' settings for them. A {@code spark.sql.*} property
 * does not reach such a stage: the partitions of an RDD shuffle that names none come from
 * {@code spark.default.parallelism}, and adaptive execution re-plans only SQL queries. So a stage rule's
 * {@code spark.sql.shuffle.partitions} becomes {@code spark.default.parallelism} there, every other {@code spark.sql.*}
 * key is left out, and the recommendation says so. A transform, no I/O.
 *
 * <p>A stage is known to be outside SQL when its job's {@code jobs.sql_execution_id} is null in a log of Spark
 * {@value #KNOWN_SINCE} (as major × 100 + minor) or later. Earlier logs do not tell: Spark names a job's SQL execution
 * from 1.5 (SPARK-8862), but until 2.2 the jobs of {@code DataFrameWriter} saves (SPARK-20213) and, in some versions,
 * of the {@code spark-sql} command line (SPARK-12492, SPARK-20222) ran without one. A stage of an older or unversioned
 * log, or whose job is not in {@code jobs}, keeps every setting, as before.
 */
final class OutsideSql {
  /** The first Spark version, major × 100 + minor, whose logs name the SQL execution of every SQL job. */
  static final int KNOWN_SINCE = 202;
  /** The column of {@link #stages}: true for a stage known to run outside Spark SQL. */
  static final String FLAG = "outside_sql";
  static final String SQL_PREFIX = "spark.sql.";
  private static final String SHUFFLE_PARTITIONS = StageRules.SHUFFLE_PARTITIONS;
  private static final String DEFAULT_PARALLELISM = StageRules.DEFAULT_PARALLELISM;
  private static final String[] STAGE_KEY = {"stage_id", "stage_attempt_id"};

  private OutsideSql() {}

  /**
   * The stage attempts of {@code in.stageFeatures()} known to run outside Spark SQL: their application and stage keys
   * and {@value #FLAG} (always true), by the Spark versions of {@code versions} ({@link VersionedSettings#versions}).
   * No rows without {@code in.jobs()}.
   */
  static Dataset<Row> stages(FindingInputs in, Dataset<Row> versions) {
    Dataset<Row> stages = in.stageFeatures().select(AppKeyColumns.with("stage_id", "stage_attempt_id", "job_id"));
    if (in.jobs().isEmpty()) {
      return stages.where(lit(false)).select(AppKeyColumns.with(STAGE_KEY)).withColumn(FLAG, lit(true));
    }
    Dataset<Row> jobs = in.jobs().get().where(col("sql_execution_id").isNull())
        .select(AppKeyColumns.with("job_id"));
    Dataset<Row> recent = versions
        .where(col(VersionedSettings.MINOR).geq(KNOWN_SINCE)).select(col(KeyColumns.LOG_ID));
    return stages.join(jobs, AppKeyColumns.using("job_id"), "left_semi")
        .join(broadcast(recent), new String[] {KeyColumns.LOG_ID}, "left_semi")
        .select(AppKeyColumns.with(STAGE_KEY)).withColumn(FLAG, lit(true));
  }

  /**
   * {@code findings} (the findings schema) with the settings of each finding on a stage of {@code outside}
   * ({@link #stages}) in the keys an RDD stage reads: {@code spark.sql.shuffle.partitions} as
   * {@code spark.default.parallelism} (unless the finding names that already), every other {@code spark.sql.*} key
   * left out, and the recommendation ending with why: that {@code spark.default.parallelism} sets the partitions of
   * the stage's shuffles, or, without a partition setting, that the keys were left out. Other findings are unchanged.
   */
  static Dataset<Row> apply(Dataset<Row> findings, Dataset<Row> outside) {
    Column conf = col("recommended_conf");
    Column outsideSql = col(FLAG).eqNullSafe(lit(true));
    Column sqlKeys = map_filter(conf, (k, v) -> k.startsWith(SQL_PREFIX));
    Column kept = map_filter(conf, (k, v) -> not(k.startsWith(SQL_PREFIX)));
    Column parallelism = when(map_contains_key(conf, SHUFFLE_PARTITIONS)
        .and(not(map_contains_key(conf, DEFAULT_PARALLELISM))),
        map(lit(DEFAULT_PARALLELISM), conf.getItem(SHUFFLE_PARTITIONS)))
        .otherwise(map().cast("map<string,string>"));
    Column changed = outsideSql.and(size(map_keys(sqlKeys)).gt(0));
    String ran = " (The stage ran outside Spark SQL, which " + SQL_PREFIX + "* settings do not reach: ";
    Column note = when(map_contains_key(conf, SHUFFLE_PARTITIONS), lit(ran + DEFAULT_PARALLELISM
        + " sets the partitions of its shuffles unless the code names them.)"))
        .otherwise(lit(ran + "left out of the settings.)"));
    return findings.join(broadcast(outside), AppKeyColumns.using(STAGE_KEY), "left")
        .withColumn("recommendation", when(changed, concat(col("recommendation"), note))
            .otherwise(col("recommendation")))
        .withColumn("recommended_conf", when(changed, map_concat(kept, parallelism)).otherwise(conf))
        .drop(FLAG);
  }
}
