package org.perflab.ingest;

import org.apache.spark.sql.SparkSession;

/** The one local[2] SparkSession the tests of a JVM share (Spark allows one active context per JVM). */
public final class SparkTestSession {
  private static SparkSession spark;

  private SparkTestSession() {}

  public static synchronized SparkSession get() {
    if (spark == null || spark.sparkContext().isStopped()) {
      spark = org.perflab.storage.DeltaSessions.builder("perflab-tests")
          .master("local[2]")
          .appName("perflab-tests")
          .config("spark.ui.enabled", "false")
          .config("spark.driver.host", "127.0.0.1")
          .config("spark.driver.bindAddress", "127.0.0.1")
          .config("spark.sql.shuffle.partitions", "4")
          .config("spark.sql.sources.partitionColumnTypeInference.enabled", "false")
          .getOrCreate();
    }
    return spark;
  }
}
