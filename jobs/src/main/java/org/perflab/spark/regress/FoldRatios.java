package org.perflab.spark.regress;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.ml.regression.GBTRegressionModel;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.perflab.grouping.SizeClass;
import org.perflab.prediction.Stats;
import org.perflab.regress.BoostedTrees;

/**
 * The 80 % interval of the GBT regression from out-of-fold ratios: the training runs' configurations (workload, input
 * size class, executors, cores per executor, executor memory), sorted, are dealt into {@link #FOLDS} folds in turn;
 * each run is predicted by trees fitted in memory, with the model's hyperparameters, on the other folds' runs; the
 * interval's ends are the 10th and 90th percentiles of actual ÷ predicted duration. In-sample ratios of trees that fit
 * their training runs closely say little of a new configuration (on held-out configurations of the shared data, 21–38
 * % of actuals fell in them); these are the errors of configurations the trees did not see. The workload features and
 * the imputed medians come from all training runs, as the fitted pipeline's do.
 */
final class FoldRatios {
  /** Folds of configurations: five fits of the trees more, in memory. */
  static final int FOLDS = 5;
  private static final String[] CONFIGURATION = {WorkloadFeatures.WORKLOAD_ID, "input_bytes", "executors",
      "cores_per_executor", "executor_memory_bytes"};

  private FoldRatios() {}

  /**
   * The 10th and 90th percentiles of the out-of-fold ratios of {@code fitted} (the training runs transformed by the
   * fitted pipeline, {@code model} its last stage); empty when the runs are more than the in-memory fit takes, hold a
   * value that is not finite, or fewer than two configurations.
   */
  static Optional<double[]> of(Dataset<Row> fitted, GBTRegressionModel model) {
    List<String> columns = new ArrayList<>(List.of(RuntimePipeline.FEATURES, RuntimePipeline.LABEL));
    columns.addAll(List.of(CONFIGURATION));
    List<Row> rows = fitted.selectExpr(columns.stream().map(c -> "`" + c + "`").toArray(String[]::new))
        .limit(InMemoryGbtRegressor.IN_MEMORY_ROWS + 1).collectAsList();
    if (rows.size() > InMemoryGbtRegressor.IN_MEMORY_ROWS
        || !rows.stream().allMatch(InMemoryGbtRegressor::finite)) {
      return Optional.empty();
    }
    List<String> keys = rows.stream().map(FoldRatios::configuration).toList();
    List<String> sorted = keys.stream().distinct().sorted().toList();
    if (sorted.size() < 2) {
      return Optional.empty();
    }
    Map<String, Integer> foldOf = new HashMap<>();
    for (int i = 0; i < sorted.size(); i++) {
      foldOf.put(sorted.get(i), i % FOLDS);
    }
    double[][] features = InMemoryGbtRegressor.features(rows);
    double[] labels = InMemoryGbtRegressor.labels(rows);
    int[] folds = keys.stream().mapToInt(foldOf::get).toArray();
    double[] predicted = BoostedTrees.outOfFold(features, labels, folds, new BoostedTrees.Options(
        model.getMaxIter(), model.getMaxDepth(), model.getStepSize(), model.getMaxBins()));
    double[] ratios = new double[labels.length];
    Arrays.setAll(ratios, i -> Math.exp(labels[i] - predicted[i]));
    return Optional.of(new double[] {Stats.quantile(ratios, RuntimeRegression.LOW_QUANTILE),
        Stats.quantile(ratios, RuntimeRegression.HIGH_QUANTILE)});
  }

  /** The run's configuration as a sortable key: its input bytes as their size class. */
  private static String configuration(Row r) {
    Object bytes = r.get(3);
    String size = bytes == null ? "" : Integer.toString(SizeClass.of(((Number) bytes).longValue()));
    return r.get(2) + "\u0000" + size + "\u0000" + r.get(4) + "\u0000" + r.get(5) + "\u0000" + r.get(6);
  }
}
