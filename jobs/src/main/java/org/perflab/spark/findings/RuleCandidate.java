package org.perflab.spark.findings;

import org.perflab.findings.Rule;
import org.perflab.findings.Severity;
import org.perflab.findings.Thresholds;
import static org.apache.spark.sql.functions.ceil;
import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.concat;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.map;
import static org.apache.spark.sql.functions.map_filter;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.expressions.UserDefinedFunction;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.perflab.table.KeyColumns;

/**
 * One rule's finding over rows that carry the application key: the graded metric and the finding's columns. Rows
 * graded below LOW are dropped.
 *
 * @param rule the rule
 * @param metric the value its thresholds grade
 * @param evidence map&lt;string,double&gt;, from {@link #evidence}
 * @param savingsS estimated savings in seconds (null counts as 0)
 * @param recommendation the text
 * @param conf map&lt;string,string&gt;, from {@link #conf}
 */
record RuleCandidate(Rule rule, Column metric, Column evidence, Column savingsS, Column recommendation, Column conf) {
  private static final long MIB = 1L << 20;

  /** The findings of {@code rows} with no stage or operator. */
  Dataset<Row> ofApplications(Dataset<Row> rows) {
    return select(rows, lit(null), lit(null), lit(null), lit(null));
  }

  /** The findings of {@code rows}, which have {@code stage_id} and {@code stage_attempt_id}. */
  Dataset<Row> ofStages(Dataset<Row> rows) {
    return select(rows, col("stage_id"), col("stage_attempt_id"), lit(null), lit(null));
  }

  /** The findings of {@code rows}, which have {@code execution_id} and {@code node_id}. */
  Dataset<Row> ofOperators(Dataset<Row> rows) {
    return select(rows, lit(null), lit(null), col("execution_id"), col("node_id"));
  }

  private Dataset<Row> select(Dataset<Row> rows, Column stageId, Column stageAttemptId, Column executionId,
      Column nodeId) {
    Dataset<Row> graded = rows.select(col(KeyColumns.LOG_ID), col(KeyColumns.APP_ID), col(KeyColumns.APP_ATTEMPT_ID),
        stageId.cast("int").as("stage_id"), stageAttemptId.cast("int").as("stage_attempt_id"),
        executionId.cast("long").as("execution_id"), nodeId.cast("long").as("node_id"),
        lit(rule.name()).as("rule"), grade(rule).apply(metric.cast("double")).as("severity"),
        evidence.as("evidence"), coalesce(savingsS.cast("double"), lit(0.0)).as("estimated_savings_s"),
        recommendation.as("recommendation"), conf.as("recommended_conf"));
    return graded.where(col("severity").notEqual(Severity.NONE.name()));
  }

  private static UserDefinedFunction grade(Rule rule) {
    Thresholds thresholds = rule.thresholds();
    return functions.udf((UDF1<Double, String>) v -> thresholds.grade(v).name(), DataTypes.StringType)
        .asNonNullable();
  }

  /** A map&lt;string,double&gt; from alternating names and columns. */
  static Column evidence(Object... namesAndValues) {
    return map(pairs(namesAndValues, "double"));
  }

  /** A map&lt;string,string&gt; of Spark properties from alternating keys and columns; null values are left out. */
  static Column conf(Object... keysAndValues) {
    if (keysAndValues.length == 0) {
      return map().cast("map<string,string>");
    }
    return map_filter(map(pairs(keysAndValues, "string")), (k, v) -> v.isNotNull());
  }

  private static Column[] pairs(Object[] namesAndValues, String type) {
    List<Column> columns = new ArrayList<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      columns.add(lit(namesAndValues[i]));
      Object value = namesAndValues[i + 1];
      columns.add((value instanceof Column c ? c : lit(value)).cast(type));
    }
    return columns.toArray(Column[]::new);
  }

  /** {@code bytes} as a Spark memory size in whole MiB, rounded up ("1536m"). */
  static Column mebibytes(Column bytes) {
    return concat(ceil(bytes.cast("double").divide(MIB)).cast("long").cast("string"), lit("m"));
  }

  /** {@code value} when {@code condition} holds, else null (so {@link #conf} leaves the key out). */
  static Column onlyIf(Column condition, Object value) {
    return functions.when(condition, value instanceof Column c ? c : lit(value));
  }
}
