package org.perflab.spark.findings;

import static org.apache.spark.sql.functions.broadcast;
import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.concat;
import static org.apache.spark.sql.functions.exists;
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
 * {@value #KNOWN_SINCE} (as major × 100 + minor) or later. Earlier logs do not tell by the job: Spark names a job's SQL
 * execution from 1.5 (SPARK-8862), but until 2.2 the jobs of {@code DataFrameWriter} saves (SPARK-20213) and, in some
 * versions, of the {@code spark-sql} command line (SPARK-12492, SPARK-20222) ran without one. So a stage is also known
 * to be outside SQL, in a log of any version, when its job names no SQL execution (or is not in {@code jobs}) and its
 * RDDs' operation scopes ({@code stages.rdds.scope_name}, logged since Spark 1.4) name RDD operations only: at least
 * one RDD has a scope, and none a scope whose name starts with an upper-case letter. Spark SQL runs every physical
 * operator's RDDs in a scope named for the operator ({@code SparkPlan.execute}: {@code Exchange}, {@code Scan parquet},
 * {@code WholeStageCodegen (1)}), and the RDD API in one named for its method ({@code map}, {@code textFile},
 * {@code reduceByKey}); those scopes are Spark's own, which user code cannot name. A stage with no scoped RDD (logs
 * before 1.4), or whose job is a SQL execution's, keeps every setting, as before.
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
   * and {@value #FLAG} (always true), by their jobs and the Spark versions of {@code versions}
   * ({@link VersionedSettings#versions}), or by their RDDs' scopes in {@code in.stages()}. No rows without
   * {@code in.jobs()} and {@code in.stages()}; one row per stage attempt.
   */
  static Dataset<Row> stages(FindingInputs in, Dataset<Row> versions) {
    Dataset<Row> stages = in.stageFeatures().select(AppKeyColumns.with("stage_id", "stage_attempt_id", "job_id"));
    Dataset<Row> outside = stages.where(lit(false));
    if (in.jobs().isPresent()) {
      Dataset<Row> jobs = in.jobs().get().where(col("sql_execution_id").isNull())
          .select(AppKeyColumns.with("job_id"));
      Dataset<Row> recent = versions
          .where(col(VersionedSettings.MINOR).geq(KNOWN_SINCE)).select(col(KeyColumns.LOG_ID));
      outside = stages.join(jobs, AppKeyColumns.using("job_id"), "left_semi")
          .join(broadcast(recent), new String[] {KeyColumns.LOG_ID}, "left_semi");
    }
    if (in.stages().isPresent()) {
      Dataset<Row> rddOnly = in.stages().get().where(rddScopesOnly())
          .select(AppKeyColumns.with(STAGE_KEY));
      Dataset<Row> byScope = stages.join(rddOnly, AppKeyColumns.using(STAGE_KEY), "left_semi");
      if (in.jobs().isPresent()) {
        Dataset<Row> sqlJobs = in.jobs().get().where(col("sql_execution_id").isNotNull())
            .select(AppKeyColumns.with("job_id"));
        byScope = byScope.join(sqlJobs, AppKeyColumns.using("job_id"), "left_anti");
      }
      outside = outside.unionByName(byScope).dropDuplicates(AppKeyColumns.names(STAGE_KEY).toArray(String[]::new));
    }
    return outside.select(AppKeyColumns.with(STAGE_KEY)).withColumn(FLAG, lit(true));
  }

  /**
   * True for a row of ingest's {@code stages} whose RDDs' scopes name RDD operations only: some RDD has a scope, and
   * no scope's name starts with an upper-case letter, as every Spark SQL operator's does.
   */
  static Column rddScopesOnly() {
    Column rdds = col("rdds");
    return exists(rdds, r -> r.getField("scope_name").isNotNull())
        .and(not(exists(rdds, r -> coalesce(r.getField("scope_name").rlike("^[A-Z]"), lit(false)))));
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
