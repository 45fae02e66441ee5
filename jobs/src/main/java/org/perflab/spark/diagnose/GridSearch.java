package org.perflab.spark.diagnose;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.row_number;
import static org.apache.spark.sql.functions.sum;

import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.expressions.Window;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.perflab.spark.storage.AppKeyColumns;
import org.perflab.stragglers.BigRoots;
import org.perflab.stragglers.Cause;
import org.perflab.stragglers.Confusion;
import org.perflab.stragglers.LambdaGrid;
import org.perflab.stragglers.Pcc;
import org.perflab.stragglers.PccThresholds;
import org.perflab.stragglers.StragglerThresholds;
import org.perflab.stragglers.TaskEvidence;

/**
 * The distributed grid search of reference 002 S3 / A5 over the Table 4 grids ({@link LambdaGrid}): BigRoots' (λp,
 * λq) and PCC's (λca, λcq). The grid cells are a DataFrame spread over the cluster, crossed with the labelled
 * stragglers; each (cell, straggler) pair is judged on an executor and the decisions are summed per cell. The unit is
 * a (straggler, cause) decision over the whole cause vocabulary, as the thesis counts (straggler × feature): the
 * expected cause of an injected straggler is a positive, every other cause a negative; an injected task that is not
 * a straggler counts its expected cause as a false negative. Only the applications the ground truth names are scored.
 * The objective is TPR + 1 − FPR; ties go to the smaller λp (λca), then the larger λq (λcq): the stricter cell.
 */
public final class GridSearch {
  /** The table name under the output root. */
  public static final String NAME = "straggler_grid";

  /** The schema of {@code straggler_grid} (docs/tables.md#straggler_grid). */
  public static final StructType SCHEMA = new StructType()
      .add("model", DataTypes.StringType, false)
      .add("threshold", DataTypes.DoubleType, false)
      .add("quantile", DataTypes.DoubleType, false)
      .add("tp", DataTypes.LongType, false)
      .add("fp", DataTypes.LongType, false)
      .add("tn", DataTypes.LongType, false)
      .add("fn", DataTypes.LongType, false)
      .add("tpr", DataTypes.DoubleType, false)
      .add("fpr", DataTypes.DoubleType, false)
      .add("accuracy", DataTypes.DoubleType, false)
      .add("score", DataTypes.DoubleType, false)
      .add("best", DataTypes.BooleanType, false);

  private static final StructType DECISIONS = new StructType()
      .add("model", DataTypes.StringType, false).add("threshold", DataTypes.DoubleType, false)
      .add("quantile", DataTypes.DoubleType, false).add("tp", DataTypes.LongType, false)
      .add("fp", DataTypes.LongType, false).add("tn", DataTypes.LongType, false)
      .add("fn", DataTypes.LongType, false);

  private GridSearch() {}

  /** The best cell of each model of {@code straggler_grid} (its {@code best} rows), in model order. */
  public static Dataset<Row> bestCells(Dataset<Row> grid) {
    return grid.filter("best").orderBy("model");
  }

  /**
   * Scores every cell. {@code evidence} must have been built with {@link LambdaGrid#LEVELS}; {@code truth} is
   * {@link GroundTruth#read}'s; {@code base} supplies the thresholds the grid does not vary (λT, λe, t).
   */
  public static Dataset<Row> score(SparkSession spark, Dataset<Row> evidence, Dataset<Row> truth, StragglerThresholds base) {
    Dataset<Row> labelled = labelled(evidence, truth);
    List<Row> cells = LambdaGrid.cells().stream()
        .map(c -> RowFactory.create(c.model().name(), c.threshold(), c.quantile(), c.level())).toList();
    Dataset<Row> grid = spark.createDataFrame(cells, new StructType().add("model", DataTypes.StringType)
            .add("threshold", DataTypes.DoubleType).add("quantile", DataTypes.DoubleType)
            .add("level", DataTypes.IntegerType))
        .repartition(spark.sparkContext().defaultParallelism());
    Dataset<Row> decisions = grid.crossJoin(labelled)
        .map((MapFunction<Row, Row>) row -> decide(row, base), Encoders.row(DECISIONS));
    long vocabulary = Cause.values().length;
    Dataset<Row> sums = decisions.groupBy("model", "threshold", "quantile")
        .agg(sum("tp").as("tp"), sum("fp").as("fp"), sum("tn").as("tn"), sum("fn").as("fn"));
    // every cell, even one no straggler reached, with the injected tasks that were never stragglers; the count of
    // those is a one-row Dataset of the same plan, not a job of its own, so the evidence is computed once
    Dataset<Row> all = grid.drop("level").join(sums, AppKeyColumns.joinNames(List.of("model", "threshold", "quantile")),
            "left")
        .na().fill(0L, new String[] {"tp", "fp", "tn", "fn"})
        .crossJoin(missed(evidence, truth))
        .withColumn("fn", col("fn").plus(col("missed")))
        .withColumn("tn", col("tn").plus(col("missed").multiply(vocabulary - 1)))
        .drop("missed");
    return rates(all);
  }

  /** The stragglers of the applications the ground truth names, with their {@code expected_cause} (null if none). */
  static Dataset<Row> labelled(Dataset<Row> evidence, Dataset<Row> truth) {
    Dataset<Row> scope = truth.select(col("log_id").as("scope_log_id"), col("app_id").as("scope_app_id")).distinct();
    Dataset<Row> scoped = evidence.join(scope,
        GroundTruth.sameApplication(evidence, scope.col("scope_log_id"), scope.col("scope_app_id")), "left_semi");
    Dataset<Row> gt = truth.select(col("log_id").as("gt_log_id"), col("app_id").as("gt_app_id"),
        col("stage_id").as("gt_stage_id"), col("stage_attempt_id").as("gt_stage_attempt_id"),
        col("task_index").as("gt_task_index"), col("expected_cause"));
    return scoped.join(gt, sameTask(scoped, gt), "left")
        .drop("gt_log_id", "gt_app_id", "gt_stage_id", "gt_stage_attempt_id", "gt_task_index");
  }

  /** One row, {@code missed}: the injected tasks with an expected cause that are not among the stragglers. */
  static Dataset<Row> missed(Dataset<Row> evidence, Dataset<Row> truth) {
    Dataset<Row> attributable = truth.filter(col("expected_cause").isNotNull())
        .select(col("log_id").as("gt_log_id"), col("app_id").as("gt_app_id"), col("stage_id").as("gt_stage_id"),
            col("stage_attempt_id").as("gt_stage_attempt_id"), col("task_index").as("gt_task_index"));
    return attributable.join(evidence, sameTask(evidence, attributable), "left_anti")
        .agg(count(lit(1)).as("missed"));
  }

  /** The ground truth's task (columns prefixed {@code gt_}; a null stage attempt matches any) is the straggler. */
  private static Column sameTask(Dataset<Row> stragglers, Dataset<Row> truth) {
    return GroundTruth.sameApplication(stragglers, truth.col("gt_log_id"), truth.col("gt_app_id"))
        .and(stragglers.col("stage_id").equalTo(truth.col("gt_stage_id")))
        .and(truth.col("gt_stage_attempt_id").isNull()
            .or(stragglers.col("stage_attempt_id").equalTo(truth.col("gt_stage_attempt_id"))))
        .and(stragglers.col("task_index").equalTo(truth.col("gt_task_index")));
  }

  private static Row decide(Row row, StragglerThresholds base) {
    LambdaGrid.Model model = LambdaGrid.Model.valueOf(row.getString(row.fieldIndex("model")));
    double threshold = row.getDouble(row.fieldIndex("threshold"));
    double quantile = row.getDouble(row.fieldIndex("quantile"));
    int level = row.getInt(row.fieldIndex("level"));
    TaskEvidence evidence = EvidenceRows.of(row, level, level);
    Set<Cause> predicted = model == LambdaGrid.Model.BIGROOTS
        ? BigRoots.causes(evidence, base.withPeerAndQuantile(threshold, quantile))
        : Pcc.causes(evidence, new PccThresholds(threshold, quantile));
    Confusion c = Confusion.of(predicted, expected(row));
    return RowFactory.create(model.name(), threshold, quantile, c.tp(), c.fp(), c.tn(), c.fn());
  }

  private static Cause expected(Row row) {
    String name = row.getString(row.fieldIndex("expected_cause"));
    return name == null || Arrays.stream(Cause.values()).noneMatch(c -> c.name().equals(name))
        ? null : Cause.valueOf(name);
  }

  /** TPR, FPR, accuracy and score per cell, and the best cell per model. */
  private static Dataset<Row> rates(Dataset<Row> counts) {
    Column positives = col("tp").plus(col("fn"));
    Column negatives = col("fp").plus(col("tn"));
    Column all = positives.plus(negatives);
    Dataset<Row> rated = counts
        .withColumn("tpr", org.apache.spark.sql.functions.when(positives.gt(0), col("tp").divide(positives))
            .otherwise(0.0))
        .withColumn("fpr", org.apache.spark.sql.functions.when(negatives.gt(0), col("fp").divide(negatives))
            .otherwise(0.0))
        .withColumn("accuracy", org.apache.spark.sql.functions.when(all.gt(0),
            col("tp").plus(col("tn")).divide(all)).otherwise(0.0))
        .withColumn("score", col("tpr").plus(1).minus(col("fpr")));
    var byModel = Window.partitionBy("model").orderBy(col("score").desc(), col("threshold").asc(),
        col("quantile").desc());
    return rated.withColumn("best", row_number().over(byModel).equalTo(1))
        .select(Arrays.stream(SCHEMA.fieldNames()).map(org.apache.spark.sql.functions::col).toArray(Column[]::new));
  }
}
