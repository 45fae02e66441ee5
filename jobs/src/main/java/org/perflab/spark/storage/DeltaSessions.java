package org.perflab.spark.storage;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.SparkConf;
import org.apache.spark.deploy.SparkHadoopUtil;
import org.apache.spark.sql.SparkSession;
import org.perflab.fs.LocalFileSystems;

/**
 * SparkSessions that can read and write PerfLab's Delta Lake tables. Tables are addressed by path, so only Delta's
 * SQL extension is required; it is appended to the user's own {@code spark.sql.extensions}. Delta's catalog is set
 * as {@code spark_catalog} only when the user has not configured a catalog of their own, which PerfLab never replaces.
 */
public final class DeltaSessions {
  public static final String EXTENSIONS = "spark.sql.extensions";
  public static final String DELTA_EXTENSION = "io.delta.sql.DeltaSparkSessionExtension";
  public static final String SESSION_CATALOG = "spark.sql.catalog.spark_catalog";
  public static final String DELTA_CATALOG = "org.apache.spark.sql.delta.catalog.DeltaCatalog";
  /** OPTIMIZE writes files up to this size, and leaves files of at least this size alone: 128 MiB. */
  public static final long TARGET_FILE_BYTES = 128L << 20;

  /** Session settings with this prefix set the properties of every Delta table the session creates. */
  static final String TABLE_DEFAULTS = "spark.databricks.delta.properties.defaults.";
  /** Spark hands settings with this prefix to Hadoop's configuration, without it. */
  static final String HADOOP_PREFIX = "spark.hadoop.";
  /** Lets adaptive execution change the output partitioning of a cached plan (coalesce its shuffle partitions). */
  static final String CACHED_PLAN_PARTITIONING = "spark.sql.optimizer.canChangeCachedPlanOutputPartitioning";
  /** Auto compaction compacts a table once a JVM's commits have left this many files smaller than the target in it. */
  public static final int AUTO_COMPACT_MIN_FILES = 8;
  /**
   * Delta's session switch for auto compaction, which overrides the tables' {@code delta.autoOptimize.autoCompact}:
   * {@code ingest} turns it off for its own commits, and the nightly application for the whole night.
   */
  public static final String AUTO_COMPACT_ENABLED = "spark.databricks.delta.autoCompact.enabled";

  private DeltaSessions() {}

  /** A builder for a session named {@code appName}, with the Delta settings of {@link #settings(SparkConf)}. */
  public static SparkSession.Builder builder(String appName) {
    SparkSession.Builder builder = SparkSession.builder().appName(appName);
    settings(new SparkConf()).forEach(builder::config);
    return builder;
  }

  /**
   * The settings PerfLab adds to a user's Spark configuration: Delta's extension appended to theirs, Delta's catalog
   * unless they set one, and OPTIMIZE's file sizes unless they set them. Values the user gave are kept.
   */
  public static Map<String, String> settings(SparkConf user) {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put(EXTENSIONS, withDeltaExtension(user.get(EXTENSIONS, "")));
    if (!user.contains(SESSION_CATALOG)) {
      settings.put(SESSION_CATALOG, DELTA_CATALOG);
    }
    // Delta rebuilds a table's state from its log in this many tasks (default 50). PerfLab's tables stay at a few
    // files and are checkpointed every 10 commits, so a few tasks suffice; 50 cost seconds per commit on 2 cores.
    putUnlessSet(settings, user, "spark.databricks.delta.snapshotPartitions", "2");
    // A cached Dataset's plan may coalesce its shuffle partitions too (Spark's default keeps a cached plan's output
    // partitioning as planned). Without it, whether a cached result came out in 200 partitions or a few depended on
    // which join side adaptive execution saw finish first: diagnose's cached stragglers over the ten samples took
    // 200 tasks per read, and about 30 s more, in 4 of 10 runs (docs/benchmarks.md).
    putUnlessSet(settings, user, CACHED_PLAN_PARTITIONING, "true");
    // Properties of every table a PerfLab job creates (its first write creates it): auto compaction, a checkpoint
    // every 10 commits, and min/max statistics on the key columns only (log_id, app_id, app_attempt_id), which is
    // what data skipping uses; statistics on 32 columns of every file cost time on every write.
    putUnlessSet(settings, user, TABLE_DEFAULTS + "autoOptimize.autoCompact", "true");
    putUnlessSet(settings, user, TABLE_DEFAULTS + "checkpointInterval", "10");
    putUnlessSet(settings, user, TABLE_DEFAULTS + "dataSkippingNumIndexedCols", "3");
    // Auto compaction (on in every PerfLab table's properties): after a commit, a table in which this JVM's commits
    // have left this many files smaller than the target is compacted, so repeated incremental runs never pile up
    // small files. (Delta also compacts after a table's first commit in a JVM, whatever the count: its small-file
    // counts live in the driver's memory; docs/tables.md, "Bounded files".)
    putUnlessSet(settings, user, "spark.databricks.delta.autoCompact.minNumFiles",
        Integer.toString(AUTO_COMPACT_MIN_FILES));
    putUnlessSet(settings, user, "spark.databricks.delta.autoCompact.maxFileSize", Long.toString(TARGET_FILE_BYTES));
    putUnlessSet(settings, user, "spark.databricks.delta.optimize.maxFileSize", Long.toString(TARGET_FILE_BYTES));
    putUnlessSet(settings, user, "spark.databricks.delta.optimize.minFileSize", Long.toString(TARGET_FILE_BYTES));
    settings.putAll(hdfsClientSettings(user));
    // Hadoop's local file system without a child process per file created (chmod) and per Delta commit (readlink):
    // org.perflab.fs.PosixLocalFileSystem. The user's own file system classes for file: are kept.
    LocalFileSystems.hadoopSettings()
        .forEach((key, value) -> putUnlessSet(settings, user, HADOOP_PREFIX + key, value));
    return settings;
  }

  /** HDFS's client: the first wait before it asks the NameNode again to complete a file (its default 400 ms). */
  static final String HDFS_COMPLETE_DELAY = "spark.hadoop.dfs.client.block.write.locateFollowingBlock.initial.delay.ms";
  /** HDFS's client: how many times it asks again, each wait twice the last (its default 5). */
  static final String HDFS_COMPLETE_RETRIES = "spark.hadoop.dfs.client.block.write.locateFollowingBlock.retries";

  /**
   * HDFS client settings for many small files, unless the user set them (they do nothing on other file systems).
   * Every Delta commit closes small files (the commit's JSON and its checksum; a step's Parquet files), and HDFS's
   * client asks the NameNode to complete each: when the DataNode's report of the block has not reached the NameNode
   * yet, which was the case for 127 of 285 closes in one night over the local HDFS, the client waits 400 ms before it
   * asks again. Waits of 10 ms doubling up to 10 times give up after about the same 10 s as the default 400 ms doubling
   * 5 times, and measured the README's night over the local HDFS at 102 s against 130 s, and on the local cluster at
   * 132 s against 184 s (docs/benchmarks.md).
   */
  static Map<String, String> hdfsClientSettings(SparkConf user) {
    Map<String, String> settings = new LinkedHashMap<>();
    putUnlessSet(settings, user, HDFS_COMPLETE_DELAY, "10");
    putUnlessSet(settings, user, HDFS_COMPLETE_RETRIES, "10");
    return settings;
  }

  /** {@code extensions} (comma-separated class names) with Delta's appended, unless it is listed already. */
  static String withDeltaExtension(String extensions) {
    String listed = Arrays.stream(extensions.split(","))
        .map(String::trim)
        .filter(name -> !name.isEmpty())
        .collect(Collectors.joining(","));
    if (Arrays.asList(listed.split(",")).contains(DELTA_EXTENSION)) {
      return listed;
    }
    return listed.isEmpty() ? DELTA_EXTENSION : listed + "," + DELTA_EXTENSION;
  }

  /**
   * The Hadoop configuration of PerfLab's sessions, without a SparkContext: {@code HADOOP_CONF_DIR}, the submitted
   * {@code spark.hadoop.*} keys, and those of {@link #settings}. For the files a job reads or writes before or beside
   * its session: Hadoop caches one file system per scheme, made from the first configuration that asks, so a check
   * made with another configuration before the session starts would set the session's.
   */
  public static Configuration hadoopConfiguration() {
    SparkConf conf = new SparkConf();
    settings(conf).forEach(conf::set);
    return SparkHadoopUtil.get().newConfiguration(conf);
  }

  /** The version of the Delta Lake classes on the classpath, such as 4.1.0. */
  public static String deltaVersion() {
    return io.delta.package$.MODULE$.VERSION();
  }

  private static void putUnlessSet(Map<String, String> settings, SparkConf user, String key, String value) {
    if (!user.contains(key)) {
      settings.put(key, value);
    }
  }
}
