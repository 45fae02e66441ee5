package org.perflab.spark.ingest;

import java.util.Map;
import org.apache.spark.sql.SparkSession;

/** The one local[2] SparkSession the tests of a JVM share (Spark allows one active context per JVM). */
public final class SparkTestSession {
  /**
   * Session settings every test class gets, re-applied on each {@link #get()} because the test classes of a JVM share
   * the session and a job run in-process may change them (a session option given to getOrCreate sets it on the
   * shared session): e.g. a leaked spark.sql.shuffle.partitions of 200 costs every later shuffle 200 tasks. The
   * tests' tables are small, so expressions are interpreted, not compiled (a quarter less CPU; {@link #SMALL_DATA_SQL}),
   * and adaptive query execution is off, as {@code perflab nightly} turns it off over a small archive: it re-plans
   * every query stage of tables that small for nothing (six heavy test classes: 247 s against 274 s).
   * Delta keeps the log and current snapshot of up to 10,000 tables a JVM has opened, each for an hour; a test JVM
   * opens thousands (about 30 per output root), so it keeps 64, more than one night's tables:
   * five test classes took 252 s against 289 s with Delta's default (docs/benchmarks.md, "No process per file on a
   * local disk").
   */
  static final Map<String, String> SETTINGS = Map.of(
      "spark.sql.shuffle.partitions", "4",
      "spark.sql.adaptive.enabled", "false",
      "spark.sql.sources.partitionColumnTypeInference.enabled", "false",
      "spark.sql.codegen.wholeStage", "false",
      "spark.sql.codegen.factoryMode", "NO_CODEGEN",
      "spark.databricks.delta.delta.log.cacheSize", "64");

  /**
   * The settings of {@link #SETTINGS} that make Spark SQL interpret expressions rather than compile them, for tables of
   * a few hundred rows; the tests' spark-submit runs get them too (docs/operations.md, "Small archives").
   */
  public static final Map<String, String> SMALL_DATA_SQL = Map.of(
      "spark.sql.codegen.wholeStage", SETTINGS.get("spark.sql.codegen.wholeStage"),
      "spark.sql.codegen.factoryMode", SETTINGS.get("spark.sql.codegen.factoryMode"));

  private static SparkSession spark;

  private SparkTestSession() {}

  public static synchronized SparkSession get() {
    if (spark == null || spark.sparkContext().isStopped()) {
      SparkSession.Builder builder = org.perflab.spark.storage.DeltaSessions.builder("perflab-tests")
          .master("local[2]")
          .appName("perflab-tests")
          .config("spark.ui.enabled", "false")
          .config("spark.driver.host", "127.0.0.1")
          .config("spark.driver.bindAddress", "127.0.0.1");
      SETTINGS.forEach(builder::config);
      spark = builder.getOrCreate();
    }
    SETTINGS.forEach(spark.conf()::set);
    return spark;
  }
}
