package org.perflab.spark.regress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.apache.spark.ml.Pipeline;
import org.apache.spark.ml.PipelineModel;
import org.apache.spark.ml.PipelineStage;
import org.apache.spark.ml.feature.VectorAssembler;
import org.apache.spark.ml.regression.GBTRegressionModel;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perflab.spark.ingest.SparkTestSession;

/**
 * The in-memory GBT fit against MLlib's own on the same rows: trees of the same leaves, so the same predictions; a pipeline
 * holding it saves and loads as MLlib's; beyond its row limit MLlib fits.
 */
class InMemoryGbtRegressorTest {
  private static SparkSession spark;
  /** 300 rows, three features: one with few distinct values, two continuous (more than 31 distinct values each). */
  private static Dataset<Row> rows;

  @BeforeAll
  static void rows() {
    spark = SparkTestSession.get();
    Random random = new Random(11);
    List<Row> list = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      double executors = 1 << random.nextInt(4);
      double gigabytes = 0.5 + random.nextDouble() * 8;
      double other = random.nextGaussian();
      double label = Math.log(240 * gigabytes / (2 * executors) + 8) + 0.03 * random.nextGaussian() + 0.01 * other;
      list.add(RowFactory.create(executors, gigabytes, other, label));
    }
    StructType schema = new StructType().add("executors", DataTypes.DoubleType)
        .add("gigabytes", DataTypes.DoubleType).add("other", DataTypes.DoubleType)
        .add(RuntimePipeline.LABEL, DataTypes.DoubleType);
    rows = new VectorAssembler().setInputCols(new String[] {"executors", "gigabytes", "other"})
        .setOutputCol(RuntimePipeline.FEATURES).transform(spark.createDataFrame(list, schema)).cache();
  }

  @Test
  void inMemoryTreesAreMllibsTreesAndPredictTheSame() {
    GBTRegressionModel mllib = RuntimePipeline.gbt(1).fit(rows);
    GBTRegressionModel inMemory = new InMemoryGbtRegressor(RuntimePipeline.gbt(1), 1_000).fit(rows);

    assertThat(inMemory.uid()).startsWith("perflabGbtr");
    assertThat(inMemory.getNumTrees()).isEqualTo(RuntimePipeline.GBT_MAX_ITER);
    assertThat(inMemory.treeWeights()).containsExactly(mllib.treeWeights());
    // Tree by tree, the same partition of the training rows and the same leaf values. (Where two splits separate the
    // same rows, their gains tie but for rounding, and the two fits may name different features: equal on these rows.)
    List<org.apache.spark.ml.linalg.Vector> features = rows.select(RuntimePipeline.FEATURES).collectAsList().stream()
        .map(r -> r.<org.apache.spark.ml.linalg.Vector>getAs(0)).toList();
    for (int t = 0; t < mllib.getNumTrees(); t++) {
      assertThat(inMemory.trees()[t].numNodes()).as("nodes of tree %d", t).isEqualTo(mllib.trees()[t].numNodes());
      for (org.apache.spark.ml.linalg.Vector x : features) {
        assertThat(inMemory.trees()[t].predict(x)).as("tree %d at %s", t, x)
            .isCloseTo(mllib.trees()[t].predict(x), within(1e-9));
      }
    }
    List<Row> both = mllib.transform(inMemory.transform(rows).withColumnRenamed(RuntimePipeline.PREDICTION,
        "in_memory")).select("in_memory", RuntimePipeline.PREDICTION).collectAsList();
    assertThat(both).hasSize(300).allSatisfy(r -> assertThat(r.getDouble(0)).isCloseTo(r.getDouble(1), within(1e-9)));
    assertThat(inMemory.getMaxIter()).isEqualTo(mllib.getMaxIter());
    assertThat(inMemory.getStepSize()).isEqualTo(mllib.getStepSize());
  }

  @Test
  void aPipelineWithTheInMemoryFitSavesAndLoadsAsMllibsAndPredictsTheSame(@TempDir Path temp) throws Exception {
    PipelineModel fitted = new Pipeline().setStages(new PipelineStage[] {
        new InMemoryGbtRegressor(RuntimePipeline.gbt(1), 1_000)}).fit(rows);
    fitted.write().save(temp.resolve("gbt").toString());
    PipelineModel loaded = PipelineModel.load(temp.resolve("gbt").toString());

    assertThat(loaded.stages()[0]).isInstanceOf(GBTRegressionModel.class);
    List<Row> before = fitted.transform(rows).select(RuntimePipeline.PREDICTION).collectAsList();
    List<Row> after = loaded.transform(rows).select(RuntimePipeline.PREDICTION).collectAsList();
    assertThat(after).isEqualTo(before);
  }

  @Test
  void beyondItsRowLimitMllibFits() {
    GBTRegressionModel model = new InMemoryGbtRegressor(RuntimePipeline.gbt(1), 299).fit(rows);
    assertThat(model.uid()).startsWith("gbtr");
    assertThat(model.getNumTrees()).isEqualTo(RuntimePipeline.GBT_MAX_ITER);
  }

  @Test
  void aHyperparameterTheInMemoryFitDoesNotImplementIsRefused() {
    assertThatThrownBy(() -> new InMemoryGbtRegressor(RuntimePipeline.gbt(1).setSubsamplingRate(0.8), 1_000))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Cannot fit GBT in memory: hyperparameters it does not implement (subsamplingRate 0.8;");
    assertThatThrownBy(() -> new InMemoryGbtRegressor(RuntimePipeline.gbt(1).setMinInstancesPerNode(5), 1_000))
        .hasMessageContaining("(minInstancesPerNode 5;");
    assertThatThrownBy(() -> new InMemoryGbtRegressor(RuntimePipeline.gbt(1).setWeightCol("w"), 1_000))
        .hasMessageContaining("(weightCol or validationIndicatorCol set;");
    assertThatThrownBy(() -> new InMemoryGbtRegressor(RuntimePipeline.gbt(1).setLossType("absolute"), 1_000))
        .hasMessageContaining("(lossType absolute;");
  }

  @Test
  void runtimeRegressionsGbtIsTheInMemoryFitOnRunsOfWorkloads() {
    Dataset<Row> runs = SyntheticRuns.of(spark, 0.03, 7);
    RuntimeModel model = RuntimeRegression.fit(runs, Optional.empty(), RegressionKind.GBT, 1);
    GBTRegressionModel gbt = (GBTRegressionModel) model.pipeline().stages()[model.pipeline().stages().length - 1];
    assertThat(gbt.uid()).startsWith("perflabGbtr");
    assertThat(model.trainingRuns()).isEqualTo(96);
  }
}
