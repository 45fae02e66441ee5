package org.perflab.spark.prediction;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.expr;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.row_number;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.expressions.Window;
import org.apache.spark.sql.types.DataTypes;
import org.perflab.prediction.PredictionRow;
import org.perflab.spark.regress.ParallelFits;
import org.perflab.spark.regress.RegressionKind;
import org.perflab.spark.regress.RuntimeModel;
import org.perflab.spark.regress.RuntimeRegression;
import org.perflab.spark.regress.WorkloadFeatures;

/**
 * The MLlib regressions in the harness. One model is fitted across all workloads, so refitting it per held-out
 * configuration would cost one Spark fit per configuration of the archive. Instead the configurations of each
 * workload are numbered in configuration order and fold f holds out the configurations numbered f, f + k, f + 2k, ...
 * of every workload at once, k = min({@value #MAX_FOLDS}, the most configurations of a workload): each configuration
 * is still held out, with nothing measured at it reaching its prediction, for k fits per kind in all. The folds run
 * as many at a time as Spark's default parallelism ({@link ParallelFits}), with the workload
 * features computed once per fold for both kinds; the rows are those of one fold after another. Intervals come
 * from the model's ratios ({@link RuntimeModel#intervalSource}: in-sample for the linear fit, out of fold for the
 * GBT fitted in memory); the regressions are not selection candidates (docs/prediction.md#selection).
 */
public final class RegressionFolds {
  /** Most folds, hence most fits per kind. */
  public static final int MAX_FOLDS = 10;
  private static final String FOLD = "_fold";
  private static final String[] CONFIGURATION = {"workload_id", "size_class", "executors", "cores_per_executor",
      "executor_memory_bytes"};

  private RegressionFolds() {}

  /**
   * The rows of {@code prediction_eval} for the regressions, for the configurations of {@code evaluated} workloads;
   * none, and no Spark job, when no workload was evaluated (every one had too few configurations).
   *
   * @param runs runs of {@link RunTable#SCHEMA}
   * @param appFeatures the {@code app_features} table when the runs come from logs
   */
  public static List<PredictionRow> evaluate(Dataset<Row> runs, Optional<Dataset<Row>> appFeatures,
      Set<String> evaluated, long seed) {
    if (evaluated.isEmpty()) {
      return List.of();
    }
    Dataset<Row> configurations = configurations(runs).cache();
    Optional<Dataset<Row>> features = appFeatures.map(Dataset::cache);
    try {
      Row most = configurations.groupBy("workload_id").count().agg(expr("max(count)")).first();
      int folds = most.isNullAt(0) ? 0 : (int) Math.min(MAX_FOLDS, most.getLong(0));
      Dataset<Row> keyed = configurations.select(keyColumns(FOLD));
      Dataset<Row> foldOfRun = runs.join(keyed, nullSafeKey(runs, keyed)).select(runs.col("*"), keyed.col(FOLD));
      int parallel = ParallelFits.parallelism(runs.sparkSession().sparkContext(), folds);
      return ParallelFits.run(folds, parallel, f -> fold(foldOfRun, configurations, features, evaluated, f, seed));
    } finally {
      features.ifPresent(Dataset::unpersist);
      configurations.unpersist();
    }
  }

  /**
   * The rows of fold {@code f}: both kinds fitted on the runs outside it, with the workload features computed once,
   * and asked for its configurations of evaluated workloads.
   */
  private static List<PredictionRow> fold(Dataset<Row> foldOfRun, Dataset<Row> configurations,
      Optional<Dataset<Row>> appFeatures, Set<String> evaluated, int f, long seed) {
    Dataset<Row> training = foldOfRun.where(col(FOLD).notEqual(f)).drop(FOLD).cache();
    try {
      Dataset<Row> test = configurations.where(col(FOLD).equalTo(f)
          .and(col("workload_id").isin(evaluated.toArray()))).drop(FOLD);
      if (test.isEmpty() || training.isEmpty()) {
        return List.of();
      }
      Dataset<Row> held = WorkloadFeatures.held(WorkloadFeatures.workloadFeatures(training, appFeatures));
      List<PredictionRow> out = new ArrayList<>();
      for (RegressionKind kind : RegressionKind.values()) {
        RuntimeModel model = RuntimeRegression.fit(training, held, kind, seed);
        RuntimeRegression.predict(model, test).collectAsList().forEach(r -> out.add(row(r, model)));
      }
      return out;
    } finally {
      training.unpersist();
    }
  }

  /**
   * One row per configuration of {@code runs}, shaped as a run at the configuration's median input bytes with its
   * median duration, plus its run count and fold.
   */
  static Dataset<Row> configurations(Dataset<Row> runs) {
    Column[] key = java.util.Arrays.stream(CONFIGURATION).map(org.apache.spark.sql.functions::col)
        .toArray(Column[]::new);
    return runs.groupBy(key).agg(
            expr("round(percentile(input_bytes, 0.5))").cast(DataTypes.LongType).as("input_bytes"),
            expr("percentile(duration_s, 0.5)").as("duration_s"),
            count(lit(1)).cast(DataTypes.IntegerType).as("runs"))
        .withColumn("total_cores", col("executors").multiply(col("cores_per_executor")))
        .withColumn("run_key", expr("concat_ws('/', 'configuration', workload_id, size_class, executors, "
            + "cores_per_executor, coalesce(cast(executor_memory_bytes as string), ''))"))
        .withColumn("log_id", lit(null).cast(DataTypes.StringType))
        .withColumn(FOLD, row_number().over(Window.partitionBy("workload_id").orderBy(col("size_class"),
            col("executors"), col("cores_per_executor"), col("executor_memory_bytes").asc_nulls_first())).minus(1)
            .mod(lit(MAX_FOLDS)));
  }

  private static Column[] keyColumns(String... extra) {
    List<Column> columns = new ArrayList<>();
    for (String c : CONFIGURATION) {
      columns.add(col(c).as("_k_" + c));
    }
    for (String c : extra) {
      columns.add(col(c));
    }
    return columns.toArray(new Column[0]);
  }

  private static Column nullSafeKey(Dataset<Row> runs, Dataset<Row> keyed) {
    Column on = lit(true);
    for (String c : CONFIGURATION) {
      on = on.and(runs.col(c).eqNullSafe(keyed.col("_k_" + c)));
    }
    return on;
  }

  private static PredictionRow row(Row r, RuntimeModel model) {
    double actual = r.getAs("duration_s");
    double predicted = r.getAs(RuntimeRegression.PREDICTED_S);
    int executors = r.getAs("executors");
    int cores = r.getAs("cores_per_executor");
    return new PredictionRow(r.getAs("workload_id"), r.<Long>getAs("input_bytes"), executors, cores,
        executors * cores, r.getAs("executor_memory_bytes"), r.<Integer>getAs("runs"), actual, model.kind().label(),
        predicted, r.getAs(RuntimeRegression.PREDICTED_LOW_S), r.getAs(RuntimeRegression.PREDICTED_HIGH_S),
        PredictionRow.absErrorPct(actual, predicted), false, model.intervalSource(), null);
  }
}
