package org.perflab.spark.regress;

import java.util.Arrays;
import java.util.List;
import org.apache.spark.ml.Estimator;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.regression.DecisionTreeRegressionModel;
import org.apache.spark.ml.regression.GBTRegressionModel;
import org.apache.spark.ml.regression.GBTRegressor;
import org.apache.spark.ml.tree.ContinuousSplit;
import org.apache.spark.ml.tree.InternalNode;
import org.apache.spark.ml.tree.LeafNode;
import org.apache.spark.ml.util.Identifiable;
import org.apache.spark.mllib.tree.impurity.VarianceCalculator;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructType;
import org.perflab.regress.BoostedTrees;

/**
 * The GBT regressor of {@link RuntimePipeline}: MLlib's {@link GBTRegressor}, fitted in the driver by
 * {@link BoostedTrees} (the same algorithm) when the training rows number at most {@link #IN_MEMORY_ROWS}, else by
 * MLlib across the cluster. Runs of workloads are a few thousand rows at most, where MLlib's fit is a Spark job per
 * tree level (about 150 jobs for 30 trees) and no computation to speak of; the in-memory fit is one job, the collect.
 *
 * <p>The model is MLlib's {@link GBTRegressionModel} either way, its trees built from {@link BoostedTrees}' through
 * MLlib's model constructors (package-private in Scala, public to Java): the saved pipeline, every reader of it and
 * its {@code transform} are unchanged, and a pipeline saved before this class existed loads and predicts as before.
 */
public final class InMemoryGbtRegressor extends Estimator<GBTRegressionModel> {
  /** The most training rows fitted in the driver; beyond, MLlib's distributed fit (about 8 bytes a feature a row). */
  public static final int IN_MEMORY_ROWS = 200_000;

  private final String uid = Identifiable.randomUID("perflabGbtr");
  private final GBTRegressor distributed;
  private final int inMemoryRows;

  /**
   * @param distributed the MLlib regressor whose hyperparameters (trees, depth, step size, bins, columns) the fit
   *     follows; used as it is beyond {@code inMemoryRows}. The others must be those {@link BoostedTrees} implements:
   *     squared loss, subsampling 1.0, every feature a candidate, one instance per node at least, no minimum gain or
   *     weight fraction, no instance weights and no validation set.
   * @param inMemoryRows the most rows fitted in the driver
   * @throws IllegalArgumentException when a hyperparameter is one {@link BoostedTrees} does not implement
   */
  InMemoryGbtRegressor(GBTRegressor distributed, int inMemoryRows) {
    List<String> unsupported = unsupported(distributed);
    if (!unsupported.isEmpty()) {
      throw new IllegalArgumentException("Cannot fit GBT in memory: hyperparameters it does not implement ("
          + String.join("; ", unsupported) + "; valid: squared loss, subsampling 1.0, all features, 1 instance per "
          + "node, no minimum gain or weight fraction, no weights or validation set)");
    }
    this.distributed = distributed;
    this.inMemoryRows = inMemoryRows;
  }

  /** The hyperparameters of {@code distributed} that {@link BoostedTrees} does not implement, each with its value. */
  private static List<String> unsupported(GBTRegressor distributed) {
    List<String> unsupported = new java.util.ArrayList<>();
    if (!"squared".equals(distributed.getLossType())) {
      unsupported.add("lossType " + distributed.getLossType());
    }
    if (distributed.getSubsamplingRate() != 1.0) {
      unsupported.add("subsamplingRate " + distributed.getSubsamplingRate());
    }
    if (!List.of("all", "auto").contains(distributed.getFeatureSubsetStrategy())) {
      unsupported.add("featureSubsetStrategy " + distributed.getFeatureSubsetStrategy());
    }
    if (distributed.getMinInstancesPerNode() != 1) {
      unsupported.add("minInstancesPerNode " + distributed.getMinInstancesPerNode());
    }
    if (distributed.getMinInfoGain() != 0.0 || distributed.getMinWeightFractionPerNode() != 0.0) {
      unsupported.add("minInfoGain " + distributed.getMinInfoGain() + ", minWeightFractionPerNode "
          + distributed.getMinWeightFractionPerNode());
    }
    if (distributed.isSet(distributed.weightCol()) || distributed.isSet(distributed.validationIndicatorCol())) {
      unsupported.add("weightCol or validationIndicatorCol set");
    }
    return unsupported;
  }

  @Override
  public GBTRegressionModel fit(Dataset<?> dataset) {
    List<Row> rows = dataset.select(distributed.getFeaturesCol(), distributed.getLabelCol())
        .limit(inMemoryRows + 1).collectAsList();
    if (rows.isEmpty() || rows.size() > inMemoryRows || !rows.stream().allMatch(InMemoryGbtRegressor::finite)) {
      return distributed.fit(dataset); // MLlib's own message for no rows; its handling of NaN
    }
    BoostedTrees trees = BoostedTrees.fit(features(rows), labels(rows), new BoostedTrees.Options(
        distributed.getMaxIter(), distributed.getMaxDepth(), distributed.getStepSize(), distributed.getMaxBins()));
    DecisionTreeRegressionModel[] models = trees.trees().stream()
        .map(t -> new DecisionTreeRegressionModel(Identifiable.randomUID("dtr"), node(t), trees.features()))
        .toArray(DecisionTreeRegressionModel[]::new);
    GBTRegressionModel model = new GBTRegressionModel(uid, models, trees.weights(), trees.features());
    return distributed.copyValues(model, ParamMap.empty()).setParent(this);
  }

  /** Whether a row of (feature vector, label), first and second, holds finite values only: BoostedTrees' input. */
  static boolean finite(Row r) {
    return !r.isNullAt(0) && !r.isNullAt(1) && Double.isFinite(r.getDouble(1))
        && Arrays.stream(r.<Vector>getAs(0).toArray()).allMatch(Double::isFinite);
  }

  /** The feature vectors of rows whose first column is one. */
  static double[][] features(List<Row> rows) {
    return rows.stream().map(r -> r.<Vector>getAs(0).toArray()).toArray(double[][]::new);
  }

  /** The labels of rows whose second column is one. */
  static double[] labels(List<Row> rows) {
    return rows.stream().mapToDouble(r -> r.getDouble(1)).toArray();
  }

  /** MLlib's node for {@code node}, with the same count, sum and sum of squares as its variance statistics. */
  private static org.apache.spark.ml.tree.Node node(BoostedTrees.Node node) {
    VarianceCalculator stats = new VarianceCalculator(
        new double[] {node.count(), node.sum(), node.sumOfSquares()}, node.count());
    if (node instanceof BoostedTrees.Split split) {
      return new InternalNode(split.prediction(), split.variance(), split.gain(), node(split.left()),
          node(split.right()), new ContinuousSplit(split.feature(), split.threshold()), stats);
    }
    return new LeafNode(node.prediction(), node.variance(), stats);
  }

  @Override
  public StructType transformSchema(StructType schema) {
    return distributed.transformSchema(schema);
  }

  @Override
  public InMemoryGbtRegressor copy(ParamMap extra) {
    return new InMemoryGbtRegressor(distributed.copy(extra), inMemoryRows);
  }

  @Override
  public String uid() {
    return uid;
  }
}
