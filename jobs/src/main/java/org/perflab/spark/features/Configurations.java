package org.perflab.spark.features;

import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.first;
import static org.apache.spark.sql.functions.floor;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.when;

import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.perflab.spark.storage.AppKeyColumns;

/**
 * The effective configuration of each application attempt, from {@code applications}, {@code executors} and
 * {@code properties}. In local mode (the driver's executor row has cores: it runs the tasks) the application has one
 * executor, the driver, with its cores. Elsewhere, executors are {@code spark.executor.instances}, or, when it is not
 * set (standalone, dynamic allocation, older logs), the most executors alive at once; cores per executor are
 * {@code spark.executor.cores}, or the most cores an executor registered with.
 */
final class Configurations {
  /** The Spark SQL property that sets the number of shuffle partitions. */
  static final String SHUFFLE_PARTITIONS = "spark.sql.shuffle.partitions";

  private Configurations() {}

  /**
   * Key columns plus {@code executors, cores_per_executor, total_cores, task_cpus, slots, executor_memory_bytes,
   * driver_memory_bytes, dynamic_allocation_enabled, dynamic_allocation_min_executors,
   * dynamic_allocation_max_executors, shuffle_partitions, runs_on_driver}; one row per application attempt.
   */
  static Dataset<Row> effective(FeatureInputs in) {
    Dataset<Row> cores = in.executors().groupBy(AppKeyColumns.with()).agg(
        max(when(col("is_driver"), col("total_cores"))).as("driver_cores"),
        max(when(col("is_driver").equalTo(false), col("total_cores"))).as("largest_executor_cores"));
    Dataset<Row> shufflePartitions = in.properties()
        .where(col("category").equalTo("SPARK").and(col("key").equalTo(SHUFFLE_PARTITIONS)))
        .groupBy(AppKeyColumns.with()).agg(first(col("value").cast("int"), true).as("shuffle_partitions"));
    Dataset<Row> apps = FeatureKeys.leftJoin(FeatureKeys.leftJoin(in.applications(), cores), shufflePartitions);
    Column local = col("driver_cores").isNotNull();
    Column executors = when(local, lit(1))
        .otherwise(coalesce(col("executor_instances"), col("max_concurrent_executors")));
    Column coresPerExecutor = when(local, col("driver_cores"))
        .otherwise(coalesce(col("executor_cores"), col("largest_executor_cores")));
    Column taskCpus = coalesce(col("task_cpus"), lit(1));
    Column slotCores = when(col("max_concurrent_cores").gt(0), col("max_concurrent_cores"))
        .otherwise(col("driver_cores"));
    Column slots = floor(slotCores.divide(taskCpus)).cast("int");
    return apps.select(AppKeyColumns.with()[0], AppKeyColumns.with()[1], AppKeyColumns.with()[2],
        executors.cast("int").as("executors"),
        coresPerExecutor.cast("int").as("cores_per_executor"),
        executors.multiply(coresPerExecutor).cast("int").as("total_cores"),
        taskCpus.cast("int").as("task_cpus"),
        when(slots.gt(0), slots).as("slots"),
        col("executor_memory_bytes"),
        col("driver_memory_bytes"),
        col("dynamic_allocation_enabled"),
        col("dynamic_allocation_min_executors"),
        col("dynamic_allocation_max_executors"),
        col("shuffle_partitions"),
        local.as("runs_on_driver"));
  }
}
