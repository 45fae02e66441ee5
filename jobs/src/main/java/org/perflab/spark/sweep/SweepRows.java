package org.perflab.spark.sweep;

import org.perflab.sweep.ScalingRule;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.min;
import static org.apache.spark.sql.functions.row_number;
import static org.apache.spark.sql.functions.when;

import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.expressions.Window;
import org.perflab.costmodel.PhaseCostRule;
import org.perflab.spark.storage.TableStore;

/** Dataset views of {@code sweep_results} and {@code sweep_best} for their readers; no I/O. */
public final class SweepRows {
  /** The columns that hold a point's shuffle settings; null where the grid had no such axis. */
  private static final List<String> SHUFFLE_SETTINGS = List.of("codec", "serializer");
  /** The columns added after the tables were first written: an older table gets them null. */
  private static final List<String> LATER_COLUMNS = List.of("codec", "serializer", "rule");

  /**
   * The scaling rules, most preferred first, for a point swept under more than one: the rule that models more of the
   * configuration (the phase costs model memory, partitions, codec and serializer; input-size the input; baseline
   * only the slots). A row without a rule (a table written before the column existed) comes last.
   */
  public static final List<String> RULE_PREFERENCE = List.of(PhaseCostRule.NAME, ScalingRule.InputSize.NAME,
      ScalingRule.Baseline.NAME);
  /** The columns that identify a point of a log's sweep, whatever the rule. */
  private static final List<String> POINT = List.of("log_id", "workload_id", "executors", "cores_per_executor",
      "executor_memory_gb", "input_bytes", "codec", "serializer");
  private static final String RANK = "_rule_rank";

  private SweepRows() {}

  /**
   * The SQL predicate that selects the rows of one sweep: those of {@code logId} (null: a {@code --model} file; else a
   * plain token, {@link TableStore#logIdIn}) under {@code rule}, and that log's rows with no rule (written before
   * {@code sweep_best} had the column), which the sweep's rows replace.
   */
  public static String sweptBy(String logId, String rule) {
    if (!rule.matches("[a-z-]+")) {
      throw new IllegalArgumentException("Cannot select the sweep: its rule is not a plain name (" + rule + ")");
    }
    return (logId == null ? "log_id IS NULL" : TableStore.logIdIn(List.of(logId))) + " AND (rule = '" + rule
        + "' OR rule IS NULL)";
  }

  /**
   * One row per point of each log's sweeps ({@code sweep_results}): where a point was swept under several rules,
   * the row of the first rule of {@link #RULE_PREFERENCE}. A reader that keys rows by point (a heatmap, a
   * recommendation) then sees no point twice.
   */
  public static Dataset<Row> onePerPoint(Dataset<Row> rows) {
    Dataset<Row> ranked = withLaterColumns(rows).withColumn(RANK, ruleRank());
    Column[] point = present(ranked, POINT);
    return ranked.withColumn("_n", row_number().over(Window.partitionBy(point).orderBy(col(RANK))))
        .where(col("_n").equalTo(1)).drop("_n", RANK);
  }

  /**
   * The rows ({@code sweep_best}) of each log's most preferred rule (the first of {@link #RULE_PREFERENCE} it was
   * swept under): a Pareto front is drawn from one rule's points.
   */
  public static Dataset<Row> preferredRulePerLog(Dataset<Row> rows) {
    Dataset<Row> ranked = withLaterColumns(rows).withColumn(RANK, ruleRank());
    return ranked.withColumn("_best", min(col(RANK)).over(Window.partitionBy(present(ranked,
            List.of("log_id", "workload_id")))))
        .where(col(RANK).equalTo(col("_best"))).drop("_best", RANK);
  }

  /** The columns of {@code names} that {@code rows} has: a reader may have selected some away. */
  private static Column[] present(Dataset<Row> rows, List<String> names) {
    List<String> have = Arrays.asList(rows.columns());
    return names.stream().filter(have::contains).map(name -> col(name)).toArray(Column[]::new);
  }

  /** A row's place in {@link #RULE_PREFERENCE}; rows without a rule, or of an unknown one, after every known rule. */
  private static Column ruleRank() {
    Column rank = lit(RULE_PREFERENCE.size());
    for (int i = RULE_PREFERENCE.size() - 1; i >= 0; i--) {
      rank = when(col("rule").equalTo(RULE_PREFERENCE.get(i)), lit(i)).otherwise(rank);
    }
    return rank;
  }

  /**
   * The rows at the swept run's own shuffle codec and serializer: those of grids without a codec or serializer axis.
   * A reader that keys points by executors, cores and memory (a heatmap, a recommendation) sees one row per point. A
   * table written before the columns existed keeps every row.
   */
  public static Dataset<Row> atSweptShuffleSettings(Dataset<Row> rows) {
    Dataset<Row> out = withLaterColumns(rows);
    for (String column : SHUFFLE_SETTINGS) {
      out = out.where(col(column).isNull());
    }
    return out;
  }

  /**
   * The rows with their {@code codec}, {@code serializer} and {@code rule} columns: a table written before they
   * existed gets them null (every point at the swept run's own setting, its rule unknown).
   */
  private static Dataset<Row> withLaterColumns(Dataset<Row> rows) {
    Dataset<Row> out = rows;
    for (String column : LATER_COLUMNS) {
      if (!Arrays.asList(rows.columns()).contains(column)) {
        out = out.withColumn(column, lit(null).cast("string"));
      }
    }
    return out;
  }
}
