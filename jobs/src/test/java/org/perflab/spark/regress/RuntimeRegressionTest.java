package org.perflab.spark.regress;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.when;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.perflab.errors.BadInputException;
import org.perflab.prediction.IntervalSource;
import org.perflab.spark.ingest.SparkTestSession;

/**
 * Runtime regression on {@link SyntheticRuns} (3 % noise), every run at 4 executors held out: the held-out errors of
 * both kinds, the intervals, a workload never seen in training, and that nothing of the held-out runs reaches their
 * predictions. Tolerances are about 1.5× the errors measured (linear: mean 5.2 %, largest 9.9 %; GBT: mean 4.4 %,
 * largest 8.2 %; the noise alone gives about 2.4 %). An 80 % interval must hold at least 70 % of the held-out runs.
 */
class RuntimeRegressionTest {
  private static SparkSession spark;
  private static Dataset<Row> training;
  private static Dataset<Row> test;
  private static RuntimeModel linearModel;
  private static List<Row> linear;

  @BeforeAll
  static void fitLinear() {
    spark = SparkTestSession.get();
    Dataset<Row> runs = SyntheticRuns.of(spark, 0.03, 7).cache();
    Column heldOut = col("executors").equalTo(4);
    training = runs.where(heldOut.equalTo(false));
    test = runs.where(heldOut);
    linearModel = RuntimeRegression.fit(training, Optional.empty(), RegressionKind.LINEAR, 1);
    linear = predictions(RuntimeRegression.predict(linearModel, test));
  }

  @Test
  void linearPredictsHeldOutCoreCountsWithinTheNoiseAndItsIntervalsHoldThem() {
    assertThat(linear).hasSize(24);
    assertThat(meanErrorPct(linear)).isLessThan(8.0);
    assertThat(linear).allSatisfy(r -> assertThat(errorPct(r)).isLessThan(15.0));
    long inside = linear.stream().filter(RuntimeRegressionTest::inside).count();
    assertThat(inside).as("held-out runs inside their 80 %% interval").isGreaterThanOrEqualTo(17); // 70 % of 24
  }

  @Test
  void gbtPredictsHeldOutCoreCountsLooselyAndItsOutOfFoldIntervalsHoldTheHeldOutRuns() {
    RuntimeModel model = RuntimeRegression.fit(training, Optional.empty(), RegressionKind.GBT, 1);
    List<Row> heldOut = predictions(RuntimeRegression.predict(model, test));
    assertThat(meanErrorPct(heldOut)).isLessThan(10.0);
    assertThat(heldOut).allSatisfy(r -> assertThat(errorPct(r)).isLessThan(20.0));

    // The interval comes from out-of-fold ratios (FoldRatios: each training run predicted by trees fitted without its
    // configuration), so it holds runs at configurations the trees never saw, as an 80 % interval should.
    assertThat(model.intervalSource()).isEqualTo(IntervalSource.FOLD_RESIDUALS);
    long inside = heldOut.stream().filter(RuntimeRegressionTest::inside).count();
    assertThat(inside).as("held-out runs inside their 80 %% interval").isGreaterThanOrEqualTo(17); // 70 % of 24
    assertThat(model.lowRatio()).isLessThan(1.0);
    assertThat(model.highRatio()).isGreaterThan(1.0);
    assertThat(model.trainingRuns()).isEqualTo(72);
    // The linear fit keeps its in-sample ratios.
    assertThat(linearModel.intervalSource()).isEqualTo(IntervalSource.TRAINING_RESIDUALS);
  }

  @Test
  void heldOutDurationsDoNotReachTheirPredictionsButTrainingDurationsDo() {
    Map<String, Double> before = byRun(linear);
    Dataset<Row> slowerTest = test.withColumn("duration_s", col("duration_s").multiply(3));
    Map<String, Double> changedTest = byRun(predictions(
        RuntimeRegression.fitAndPredict(training, slowerTest, Optional.empty(), RegressionKind.LINEAR, 1)));
    assertThat(changedTest).isEqualTo(before);

    // The control: sort's training runs 3× slower make sort's held-out predictions about 3× larger.
    Column sort = col("workload_id").equalTo("sort");
    Dataset<Row> slowerSort = training.withColumn("duration_s",
        when(sort, col("duration_s").multiply(3)).otherwise(col("duration_s")));
    List<Row> changedTraining = predictions(
        RuntimeRegression.fitAndPredict(slowerSort, test, Optional.empty(), RegressionKind.LINEAR, 1));
    for (Row r : changedTraining) {
      double ratio = r.<Double>getAs(RuntimeRegression.PREDICTED_S) / before.get(r.<String>getAs("run_key"));
      if (r.<String>getAs("workload_id").equals("sort")) {
        assertThat(ratio).isBetween(2.5, 3.5);
      } else {
        assertThat(ratio).isBetween(0.8, 1.25);
      }
    }
  }

  @Test
  void aWorkloadWithoutTrainingRunsGetsImputedFeaturesAndAFinitePrediction() {
    RuntimeModel model = linearModel;
    Dataset<Row> unseen = test.where(col("workload_id").equalTo("kmeans")).withColumn("workload_id", lit("new"));
    List<Row> rows = predictions(RuntimeRegression.predict(model, unseen));
    assertThat(rows).hasSize(8).allSatisfy(r -> {
      double predicted = r.getAs(RuntimeRegression.PREDICTED_S);
      assertThat(predicted).isPositive().isFinite();
      assertThat(r.<Double>getAs(RuntimeRegression.PREDICTED_LOW_S)).isLessThan(predicted);
    });
    // Workload features and the memory are known for every training run: the fit used every feature but those of
    // app_features, and the memory indicator (always 0) is kept.
    assertThat(model.features()).contains(RuntimeFeature.LOG_FITTED_DURATION, RuntimeFeature.LOG_EXECUTOR_MEMORY)
        .doesNotContain(RuntimeFeature.WORKLOAD_GC_SHARE, RuntimeFeature.WORKLOAD_UTILIZATION);
  }

  @Test
  void workloadFeaturesAreMediansOfTheTrainingRunsAndTheirLogLogFit() {
    Row sort = WorkloadFeatures.workloadFeatures(training, Optional.empty())
        .where(col("workload_id").equalTo("sort")).first();
    List<Double> logDurations = training.where(col("workload_id").equalTo("sort")).select("duration_s")
        .collectAsList().stream().map(r -> Math.log(r.getDouble(0))).sorted().toList();
    assertThat(sort.<Long>getAs(WorkloadFeatures.TRAINING_RUNS)).isEqualTo(24L);
    // 24 values: the median is the mean of the 12th and 13th.
    assertThat(sort.<Double>getAs(WorkloadFeatures.MEDIAN_LOG_DURATION))
        .isCloseTo((logDurations.get(11) + logDurations.get(12)) / 2, within(1e-9));
    // duration ≈ 240 s·core/GB × bytes per core + 8 s: a log-log slope below 1, above the fixed cost's 0.
    assertThat(sort.<Double>getAs(WorkloadFeatures.LOG_DURATION_SLOPE)).isBetween(0.6, 1.0);
    assertThat(sort.isNullAt(sort.fieldIndex(WorkloadFeatures.GC_SHARE))).isTrue();
  }

  @Test
  void emptyTrainingOrAMissingColumnIsBadInput() {
    assertThatThrownBy(() -> RuntimeRegression.fit(training.limit(0), Optional.empty(), RegressionKind.LINEAR, 1))
        .isInstanceOf(BadInputException.class)
        .hasMessage("Cannot fit runtime regression: no training runs (0)");
    assertThatThrownBy(() -> RuntimeRegression.fit(training.drop("duration_s"), Optional.empty(),
        RegressionKind.LINEAR, 1)).hasMessage(
            "Cannot fit runtime regression: the runs lack the columns [duration_s] (as in RunTable.SCHEMA)");
  }

  private static List<Row> predictions(Dataset<Row> predicted) {
    assertThat(predicted.columns()).endsWith(RuntimeRegression.PREDICTED_S, RuntimeRegression.PREDICTED_LOW_S,
        RuntimeRegression.PREDICTED_HIGH_S);
    return predicted.collectAsList();
  }

  private static Map<String, Double> byRun(List<Row> rows) {
    Map<String, Double> predicted = new HashMap<>();
    rows.forEach(r -> predicted.put(r.getAs("run_key"), r.getAs(RuntimeRegression.PREDICTED_S)));
    return predicted;
  }

  private static double errorPct(Row r) {
    double actual = r.getAs("duration_s");
    return Math.abs(actual - r.<Double>getAs(RuntimeRegression.PREDICTED_S)) / actual * 100;
  }

  private static double meanErrorPct(List<Row> rows) {
    return rows.stream().mapToDouble(RuntimeRegressionTest::errorPct).average().orElseThrow();
  }

  private static boolean inside(Row r) {
    double actual = r.getAs("duration_s");
    return r.<Double>getAs(RuntimeRegression.PREDICTED_LOW_S) <= actual
        && actual <= r.<Double>getAs(RuntimeRegression.PREDICTED_HIGH_S);
  }
}
