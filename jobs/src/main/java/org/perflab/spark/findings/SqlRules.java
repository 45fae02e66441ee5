package org.perflab.spark.findings;

import org.perflab.findings.ByteSizes;
import org.perflab.findings.FindingLimits;
import org.perflab.findings.Rule;
import static org.apache.spark.sql.functions.ceil;
import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.concat;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.element_at;
import static org.apache.spark.sql.functions.explode;
import static org.apache.spark.sql.functions.first;
import static org.apache.spark.sql.functions.greatest;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.try_divide;
import static org.apache.spark.sql.functions.min;
import static org.apache.spark.sql.functions.posexplode;
import static org.apache.spark.sql.functions.row_number;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.when;
import static org.perflab.spark.findings.RuleCandidate.conf;
import static org.perflab.spark.findings.RuleCandidate.evidence;

import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.expressions.UserDefinedFunction;
import org.apache.spark.sql.expressions.Window;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.perflab.spark.storage.AppKeyColumns;

/**
 * The SQL-operator rules over ingest's {@code sql_operators} (one row per plan node with {@code execution_id,
 * node_id, node_name, is_cluster, child_node_ids, input_rows, output_rows, time_ms, metrics}).
 */
final class SqlRules {
  /** The Spark property of the broadcast-join size limit. */
  static final String BROADCAST_THRESHOLD = "spark.sql.autoBroadcastJoinThreshold";
  /** The Exchange metric that gives a join side's size, bytes. */
  static final String DATA_SIZE = "data size";
  /** How many plan levels below a join to look for a side's size (Sort, AQEShuffleRead, Exchange). */
  private static final int MAX_DEPTH = 4;
  private static final UserDefinedFunction THRESHOLD_BYTES = functions.udf(
      (UDF1<String, Long>) v -> ByteSizes.broadcastThreshold(v, FindingLimits.DEFAULT_BROADCAST_THRESHOLD_BYTES),
      DataTypes.LongType).asNonNullable();
  private static final String[] NODE = {"execution_id"};

  private SqlRules() {}

  /** Every SQL rule's findings; none without {@code sql_operators}. */
  static List<Dataset<Row>> of(FindingInputs in) {
    return in.sqlOperators().map(ops -> List.of(broadcastCandidates(ops, in), hotOperators(ops))).orElse(List.of());
  }

  /**
   * SortMergeJoins whose smaller side (the nearest {@code data size} below each input, within
   * {@value #MAX_DEPTH} levels) is within a few × spark.sql.autoBroadcastJoinThreshold; savings: the operator time
   * of the join and of the nodes between it and the sized exchanges, spread over the slots.
   */
  static Dataset<Row> broadcastCandidates(Dataset<Row> ops, FindingInputs in) {
    Dataset<Row> sides = joinSides(ops);
    Dataset<Row> joins = ops.where(col("node_name").startsWith("SortMergeJoin"))
        .select(AppKeyColumns.with("execution_id", "node_id", "time_ms")).withColumnRenamed("node_id", "join_id")
        .join(sides, AppKeyColumns.using("execution_id", "join_id"))
        .join(thresholds(in), AppKeyColumns.using(), "left")
        .join(in.appFeatures().select(AppKeyColumns.with("slots")), AppKeyColumns.using(), "left")
        .withColumn("limit_bytes", coalesce(col("threshold_bytes"), lit(FindingLimits.DEFAULT_BROADCAST_THRESHOLD_BYTES)))
        .withColumn("node_id", col("join_id"));
    Column disabled = col("limit_bytes").lt(0);
    Column effective = when(disabled, lit(FindingLimits.DEFAULT_BROADCAST_THRESHOLD_BYTES)).otherwise(
        col("limit_bytes"));
    Column ratio = try_divide(col("small_side_bytes").cast("double"), effective);
    Column recommended = greatest(effective, ceil(col("small_side_bytes").multiply(1.25)).cast("long"));
    return new RuleCandidate(Rule.BROADCAST_JOIN_CANDIDATE, ratio,
        evidence("side_over_threshold", ratio, "small_side_bytes", col("small_side_bytes"), "large_side_bytes",
            col("large_side_bytes"), "threshold_bytes", col("limit_bytes")),
        try_divide(coalesce(col("time_ms"), lit(0L)).plus(col("path_time_ms")).cast("double")
            .divide(1000.0), coalesce(col("slots"), lit(1))),
        concat(lit("A sort-merge join has a side small enough to broadcast"),
            when(disabled, lit(" (broadcast joins are disabled)")).otherwise(lit("")),
            lit(": raise spark.sql.autoBroadcastJoinThreshold above it or add a broadcast hint.")),
        conf(BROADCAST_THRESHOLD, recommended, "spark.sql.adaptive.enabled", "true"))
        .ofOperators(joins.where(col("sides").equalTo(2)));
  }

  /** Per join: {@code small_side_bytes, large_side_bytes, sides, path_time_ms}. */
  private static Dataset<Row> joinSides(Dataset<Row> ops) {
    Dataset<Row> nodes = ops.select(AppKeyColumns.with("execution_id", "node_id", "child_node_ids", "time_ms", "metrics"))
        .withColumn("size", element_at(col("metrics"), lit(DATA_SIZE))).drop("metrics");
    Dataset<Row> frontier = ops.where(col("node_name").startsWith("SortMergeJoin"))
        .select(AppKeyColumns.with("execution_id", "node_id", "child_node_ids"))
        .select(col("log_id"), col("app_id"), col("app_attempt_id"), col("execution_id"),
            col("node_id").as("join_id"), posexplode(col("child_node_ids")).as(new String[] {"side", "node_id"}));
    Dataset<Row> found = null;
    for (int depth = 0; depth < MAX_DEPTH; depth++) {
      Dataset<Row> visited = frontier.join(nodes, AppKeyColumns.using("execution_id", "node_id"));
      Dataset<Row> passed = visited.select(AppKeyColumns.with("execution_id", "join_id", "side", "size", "time_ms"));
      found = found == null ? passed : found.unionByName(passed);
      frontier = visited.where(col("size").isNull())
          .select(col("log_id"), col("app_id"), col("app_attempt_id"), col("execution_id"), col("join_id"),
              col("side"), explode(col("child_node_ids")).as("node_id"));
    }
    Dataset<Row> perSide = found.groupBy(AppKeyColumns.with("execution_id", "join_id", "side"))
        .agg(sum("size").as("side_bytes"), sum(coalesce(col("time_ms"), lit(0L))).as("side_time_ms"));
    return perSide.groupBy(AppKeyColumns.with("execution_id", "join_id")).agg(
        min("side_bytes").as("small_side_bytes"), functions.max("side_bytes").as("large_side_bytes"),
        count(col("side_bytes")).as("sides"), sum("side_time_ms").as("path_time_ms"));
  }

  /** Per application: {@code threshold_bytes}, the broadcast limit it set (-1 when disabled). */
  private static Dataset<Row> thresholds(FindingInputs in) {
    return in.properties().where(col("category").equalTo("SPARK").and(col("key").equalTo(BROADCAST_THRESHOLD)))
        .groupBy(AppKeyColumns.with()).agg(first(THRESHOLD_BYTES.apply(col("value"))).as("threshold_bytes"));
  }

  /**
   * SparkOT adapted to what logs hold: the top {@value FindingLimits#OPERATOR_TOP} operators of each execution by
   * their share of its operators' time, with rows in against rows out; no time savings.
   */
  static Dataset<Row> hotOperators(Dataset<Row> ops) {
    Dataset<Row> timed = ops.where(functions.not(col("is_cluster")).and(col("time_ms").gt(0)));
    Dataset<Row> ranked = timed
        .withColumn("execution_time_ms", sum("time_ms").over(Window.partitionBy(AppKeyColumns.with(NODE))))
        .withColumn("rank", row_number().over(Window.partitionBy(AppKeyColumns.with(NODE))
            .orderBy(col("time_ms").desc(), col("node_id"))));
    Column share = try_divide(col("time_ms").cast("double"), col("execution_time_ms"));
    Column rowsRatio = when(col("input_rows").gt(0), try_divide(col("output_rows").cast("double"), col("input_rows")));
    return new RuleCandidate(Rule.HOT_SQL_OPERATOR, share,
        evidence("time_share", share, "time_ms", col("time_ms"), "execution_time_ms", col("execution_time_ms"),
            "rank", col("rank"), "input_rows", col("input_rows"), "output_rows", col("output_rows"),
            "rows_out_over_in", rowsRatio),
        lit(0.0),
        concat(col("node_name"), lit(" takes most of the query's operator time"),
            when(rowsRatio.lt(FindingLimits.OPERATOR_SELECTIVE_RATIO),
                lit(" and discards almost all its input: filter earlier (push the predicate down, prune"
                    + " partitions)."))
            .when(rowsRatio.gt(FindingLimits.OPERATOR_EXPLODING_RATIO),
                lit(" and multiplies its input rows: check join keys for duplicates or an accidental cross join."))
            .otherwise(lit(": look at it first when tuning this query."))),
        conf())
        .ofOperators(ranked.where(col("rank").leq(FindingLimits.OPERATOR_TOP)
            .and(col("execution_time_ms").geq(FindingLimits.OPERATOR_MIN_EXECUTION_MS))));
  }
}
