package org.perflab.spark.clustering;

import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.countDistinct;
import static org.apache.spark.sql.functions.expr;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.row_number;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.when;

import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.expressions.Window;
import org.perflab.table.KeyColumns;

/**
 * The rows of {@code cluster_summary}: per cluster, its size, its typical wall time (median and p90, exact), its
 * dominant workloads and, when a {@code findings} table exists, its dominant findings.
 */
final class ClusterSummary {
  /** How many workloads and finding rules a cluster's summary names at most. */
  static final int TOP = 3;
  /** The severities that make a finding count for a cluster's dominant findings. */
  static final List<String> DOMINANT_SEVERITIES = List.of("MODERATE", "SEVERE", "CRITICAL");
  /** The columns of {@code findings} the summary reads. */
  static final List<String> FINDING_COLUMNS = List.of(KeyColumns.LOG_ID, KeyColumns.APP_ID,
      KeyColumns.APP_ATTEMPT_ID, "rule", "severity", "estimated_savings_s");

  private ClusterSummary() {}

  /**
   * @param labelled one row per application with the key, {@code workload_id}, {@code wall_time_s} and
   *     {@code cluster_id}
   * @param findings the {@code findings} table, when it exists: {@code dominant_findings} is null without it
   */
  static Dataset<Row> of(Dataset<Row> labelled, Optional<Dataset<Row>> findings) {
    Dataset<Row> sizes = labelled.groupBy(ClusterTables.CLUSTER_ID).agg(count(lit(1)).as("size"),
        expr("percentile(" + ClusterFeature.WALL_TIME_S + ", 0.5)").as("median_wall_time_s"),
        expr("percentile(" + ClusterFeature.WALL_TIME_S + ", 0.9)").as("p90_wall_time_s"));
    Dataset<Row> summary = sizes.join(workloads(labelled), ClusterTables.CLUSTER_ID)
        .withColumn("dominant_workload_share", col("top_apps").divide(col("size")));
    summary = findings.isPresent()
        ? summary.join(findings(labelled, findings.get()), List.of(ClusterTables.CLUSTER_ID).toArray(String[]::new),
            "left").withColumn("dominant_findings", coalesce(col("dominant_findings"), expr("array()")))
        : summary.withColumn("dominant_findings", lit(null));
    return ClusterTables.conform(summary, ClusterTables.SUMMARY).orderBy(ClusterTables.CLUSTER_ID);
  }

  /** Per cluster: its {@link #TOP} workloads by applications (ties by id), and the first one's applications. */
  private static Dataset<Row> workloads(Dataset<Row> labelled) {
    Dataset<Row> counted = labelled.groupBy(ClusterTables.CLUSTER_ID, ClusterFeature.WORKLOAD_ID)
        .agg(count(lit(1)).as("apps"));
    return top(counted, ClusterFeature.WORKLOAD_ID, col("apps").desc(), col(ClusterFeature.WORKLOAD_ID))
        .withColumnRenamed("top", "dominant_workloads");
  }

  /**
   * Per cluster with findings: its {@link #TOP} rules by the number of its applications with a finding of the rule
   * at a {@link #DOMINANT_SEVERITIES} severity, then by their estimated savings, then by rule.
   */
  private static Dataset<Row> findings(Dataset<Row> labelled, Dataset<Row> findings) {
    String[] keys = Clustering.keys();
    Dataset<Row> counted = findings.where(col("severity").isin(DOMINANT_SEVERITIES.toArray()))
        .join(labelled.select(ClusterTables.CLUSTER_ID, keys), List.of(keys).toArray(String[]::new))
        .groupBy(ClusterTables.CLUSTER_ID, "rule")
        .agg(countDistinct(col(keys[0]), col(keys[1]), col(keys[2])).as("apps"),
            sum(coalesce(col("estimated_savings_s"), lit(0.0))).as("savings_s"));
    return top(counted, "rule", col("apps").desc(), col("savings_s").desc(), col("rule"))
        .withColumnRenamed("top", "dominant_findings").drop("top_apps");
  }

  /**
   * Per cluster, the first {@link #TOP} values of {@code name} in {@code order} as the array {@code top}, and the
   * first one's {@code apps} as {@code top_apps}.
   */
  private static Dataset<Row> top(Dataset<Row> counted, String name, Column... order) {
    Dataset<Row> ranked = counted
        .withColumn("rank", row_number().over(Window.partitionBy(ClusterTables.CLUSTER_ID).orderBy(order)))
        .where(col("rank").leq(TOP));
    return ranked.groupBy(ClusterTables.CLUSTER_ID).agg(
        expr("transform(sort_array(collect_list(struct(rank, " + name + "))), x -> x." + name + ")").as("top"),
        max(when(col("rank").equalTo(1), col("apps"))).as("top_apps"));
  }
}
