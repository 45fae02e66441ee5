package org.perflab.spark.regress;

import static org.apache.spark.sql.functions.broadcast;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.exp;
import static org.apache.spark.sql.functions.expr;
import static org.apache.spark.sql.functions.ln;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.ml.PipelineModel;
import org.apache.spark.ml.regression.GBTRegressionModel;
import org.perflab.prediction.IntervalSource;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.perflab.errors.BadInputException;

/**
 * Runtime prediction by MLlib regression: fits {@link RuntimePipeline} on runs, predicts other runs' durations with
 * an 80 % interval. Runs have the columns of {@code org.perflab.spark.prediction.RunTable#SCHEMA}; Datasets in, Datasets
 * out, no table read or written. A fit runs on one partition (runs are few: one per application): about ten Spark
 * jobs for the linear model, about 130 for GBT (measured on {@code local[2]} of a loaded 2-core machine, 72 runs: 5
 * to 10 s and 12 to 28 s).
 *
 * <p>The model learns ln(duration s) over every workload at once; what sets workloads apart is their
 * {@link WorkloadFeatures}, computed from the training runs only. A prediction is exp(predicted ln duration). Its
 * interval is [predicted × the 10th, predicted × the 90th percentile] of actual ÷ predicted duration over the
 * training runs: in-sample residuals, which for GBT (that fits its training runs closely) are narrower than its
 * errors on new runs.
 */
public final class RuntimeRegression {
  /** The predicted duration (s). */
  public static final String PREDICTED_S = "predicted_s";
  /** The ends of the 80 % interval (s). */
  public static final String PREDICTED_LOW_S = "predicted_low_s";
  public static final String PREDICTED_HIGH_S = "predicted_high_s";
  /** The residual-ratio percentiles that bound the interval. */
  public static final double LOW_QUANTILE = 0.1;
  public static final double HIGH_QUANTILE = 0.9;

  /** The columns a run to predict must have. */
  public static final List<String> RUN_COLUMNS = List.of(WorkloadFeatures.WORKLOAD_ID, "input_bytes", "executors",
      "cores_per_executor", "total_cores", "executor_memory_bytes");
  /** The columns a training run must have besides {@link #RUN_COLUMNS}. */
  public static final List<String> TRAINING_COLUMNS = List.of("run_key", "duration_s");

  private RuntimeRegression() {}

  /**
   * Per run in {@code test}: {@code predicted_s} and an 80 % interval ({@code predicted_low_s},
   * {@code predicted_high_s}) from the 10th/90th percentiles of the model's residual ratios on its training rows.
   * Returns {@code test}'s columns, then those three (double, seconds). Workload features come from {@code training}
   * only: nothing of {@code test} but its configuration and input size reaches its prediction.
   *
   * @param appFeatures the {@code app_features} table when the runs come from logs; empty for a runtime table
   * @param seed the GBT seed
   * @throws BadInputException when {@code training} is empty or a column is missing
   */
  public static Dataset<Row> fitAndPredict(Dataset<Row> training, Dataset<Row> test,
      Optional<Dataset<Row>> appFeatures, RegressionKind kind, long seed) {
    return predict(fit(training, appFeatures, kind, seed), test);
  }

  /** Fits {@code kind} on {@code training}, with workload features from {@code training} (and its app features). */
  public static RuntimeModel fit(Dataset<Row> training, Optional<Dataset<Row>> appFeatures, RegressionKind kind,
      long seed) {
    requireColumns(training, "fit runtime regression", TRAINING_COLUMNS);
    return fit(training, WorkloadFeatures.workloadFeatures(training, appFeatures), kind, seed);
  }

  /**
   * Fits {@code kind} on {@code training} with {@code workloadFeatures} already computed from those same runs (by
   * {@link WorkloadFeatures#workloadFeatures}), so that several kinds can share them.
   */
  public static RuntimeModel fit(Dataset<Row> training, Dataset<Row> workloadFeatures, RegressionKind kind,
      long seed) {
    requireColumns(training, "fit runtime regression", TRAINING_COLUMNS);
    Dataset<Row> workloads = WorkloadFeatures.held(workloadFeatures);
    Dataset<Row> rows = joined(training, workloads, "fit runtime regression")
        .withColumn(RuntimePipeline.LABEL, ln(col("duration_s"))).coalesce(1).cache();
    try {
      long runs = rows.count();
      BadInputException.require(runs > 0, "Cannot fit runtime regression: no training runs (%d)", runs);
      PipelineModel pipeline = RuntimePipeline.of(kind, usedFeatures(rows), seed).fit(rows);
      Dataset<Row> fitted = pipeline.transform(rows);
      Optional<double[]> outOfFold = pipeline.stages()[pipeline.stages().length - 1] instanceof GBTRegressionModel gbt
          ? FoldRatios.of(fitted, gbt) : Optional.empty();
      double[] ratios = outOfFold.orElseGet(() -> residualRatios(fitted));
      return new RuntimeModel(kind, pipeline, workloads, ratios[0], ratios[1], runs,
          outOfFold.isPresent() ? IntervalSource.FOLD_RESIDUALS : IntervalSource.TRAINING_RESIDUALS);
    } finally {
      rows.unpersist();
    }
  }

  /**
   * {@code runs}' columns, then {@code predicted_s}, {@code predicted_low_s} and {@code predicted_high_s} (double,
   * seconds) by {@code model}. A run's workload without training runs gets imputed workload features.
   */
  public static Dataset<Row> predict(RuntimeModel model, Dataset<Row> runs) {
    String[] columns = runs.columns();
    Column predicted = exp(col(RuntimePipeline.PREDICTION));
    List<Column> selected = new ArrayList<>(Arrays.stream(columns).map(RuntimeRegression::quoted).toList());
    selected.add(predicted.as(PREDICTED_S));
    selected.add(predicted.multiply(model.lowRatio()).as(PREDICTED_LOW_S));
    selected.add(predicted.multiply(model.highRatio()).as(PREDICTED_HIGH_S));
    return model.pipeline().transform(joined(runs, model.workloadFeatures(), "predict runtimes"))
        .select(selected.toArray(new Column[0]));
  }

  /** The features with a value on some training row: a nullable one null on every row cannot be imputed. */
  private static List<RuntimeFeature> usedFeatures(Dataset<Row> rows) {
    RuntimeFeature[] features = RuntimeFeature.values();
    Row counts = RuntimePipeline.featureStage().transform(rows)
        .agg(count(col(features[0].column())), Arrays.stream(features).skip(1).map(f -> count(col(f.column())))
            .toArray(Column[]::new))
        .first();
    List<RuntimeFeature> used = new ArrayList<>();
    for (int i = 0; i < features.length; i++) {
      if (counts.getLong(i) > 0) {
        used.add(features[i]);
      }
    }
    return used;
  }

  /** The 10th and 90th percentiles (exact, interpolated) of actual ÷ predicted duration. */
  private static double[] residualRatios(Dataset<Row> predicted) {
    Column ratio = col("duration_s").divide(exp(col(RuntimePipeline.PREDICTION)));
    Row quantiles = predicted.select(ratio.as("ratio"))
        .agg(expr("percentile(ratio, array(" + LOW_QUANTILE + ", " + HIGH_QUANTILE + "))")).first();
    List<Double> values = quantiles.getList(0);
    return new double[] {values.get(0), values.get(1)};
  }

  /** {@code runs} with their workload's features (nulls when it has none), broadcast. */
  private static Dataset<Row> joined(Dataset<Row> runs, Dataset<Row> workloadFeatures, String action) {
    requireColumns(runs, action, RUN_COLUMNS);
    Set<String> have = Set.of(runs.columns());
    List<String> clashing = Arrays.stream(workloadFeatures.columns())
        .filter(c -> !c.equals(WorkloadFeatures.WORKLOAD_ID) && have.contains(c)).toList();
    BadInputException.require(clashing.isEmpty(), "Cannot %s: the runs have columns of the workload features %s "
        + "(drop or rename them)", action, clashing);
    return runs.join(broadcast(workloadFeatures), new String[] {WorkloadFeatures.WORKLOAD_ID}, "left");
  }

  private static void requireColumns(Dataset<Row> runs, String action, List<String> required) {
    Set<String> have = Set.of(runs.columns());
    List<String> missing = required.stream().filter(c -> !have.contains(c)).toList();
    BadInputException.require(missing.isEmpty(), "Cannot %s: the runs lack the columns %s (as in RunTable.SCHEMA)",
        action, missing);
  }

  private static Column quoted(String column) {
    return col("`" + column.replace("`", "``") + "`");
  }
}
