package org.perflab.spark.clustering;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.spark.ml.Pipeline;
import org.apache.spark.ml.PipelineModel;
import org.apache.spark.ml.PipelineStage;
import org.apache.spark.ml.clustering.KMeansModel;
import org.apache.spark.ml.feature.SQLTransformer;
import org.apache.spark.ml.feature.StandardScaler;
import org.apache.spark.ml.feature.StandardScalerModel;
import org.apache.spark.ml.feature.VectorAssembler;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * The MLlib pipeline of {@code cluster}, in four stages: an {@link SQLTransformer} that computes every
 * {@link ClusterFeature} from {@code app_features} (ratios, nulls as 0, {@code log1p} where log-scaled), a
 * {@link VectorAssembler}, a {@link StandardScaler} with mean and standard deviation, and a {@link KMeansModel} (its
 * centres fitted in the driver, {@link #selectK}). Because the
 * feature derivation is a stage, the saved model applies to an {@code app_features} table as it is.
 */
public final class ClusterPipeline {
  /** The prefix of the derived feature columns: {@code clustered_<feature name>}. */
  public static final String CLUSTERED_PREFIX = "clustered_";
  public static final String VECTOR = "cluster_features";
  public static final String SCALED = "cluster_features_scaled";
  public static final String PREDICTION = "kmeans_cluster";
  /** The index of the scaler and the KMeans model among the fitted stages. */
  static final int SCALER_STAGE = 2;
  static final int KMEANS_STAGE = 3;

  private ClusterPipeline() {}

  /** The silhouette of one k. */
  public record KScore(int k, double silhouette) {}

  /** The selection of k, and the KMeans model fitted at the chosen k. */
  record Choice(Selection selection, KMeansModel model) {}

  /** The silhouette of each k tried, and the k chosen: the highest silhouette, the smallest k on a tie. */
  public record Selection(List<KScore> scores, int chosenK) {
    public Selection {
      scores = List.copyOf(scores);
    }

    static Selection of(List<KScore> scores) {
      int chosen = scores.stream()
          .max(Comparator.comparingDouble(KScore::silhouette).thenComparing(s -> -s.k()))
          .orElseThrow().k();
      return new Selection(scores, chosen);
    }
  }

  /** The derived feature column of {@code feature}. */
  public static String column(ClusterFeature feature) {
    return CLUSTERED_PREFIX + feature.featureName();
  }

  /** The fitted scaler, assembler and derivation (the first three stages) on {@code apps}. */
  static PipelineModel fitScaling(Dataset<Row> apps) {
    return new Pipeline().setStages(scalingStages()).fit(apps);
  }

  /**
   * The whole pipeline: the fitted {@code scaling} stages followed by {@code kmeans}, fitted on their output. Every
   * stage is fitted already, so no Spark job runs; {@code apps} only checks the schema.
   */
  static PipelineModel assemble(Dataset<Row> apps, PipelineModel scaling, KMeansModel kmeans) {
    List<PipelineStage> stages = new ArrayList<>(Arrays.asList(scaling.stages()));
    stages.add(kmeans);
    return new Pipeline().setStages(stages.toArray(new PipelineStage[0])).fit(apps);
  }

  /**
   * KMeans at every k of {@code kMin..kMax} on the scaled features, scored by silhouette (squared Euclidean, as
   * {@link org.apache.spark.ml.evaluation.ClusteringEvaluator} computes it), fitted in the driver
   * ({@link org.perflab.clustering.KMeans}): the table holds one row per application, and MLlib's {@code KMeans}
   * spent a Spark job on every seeding step, iteration and silhouette of every k. The chosen k's centres become an
   * MLlib {@link KMeansModel}, so the saved pipeline applies to an {@code app_features} table as before.
   *
   * @param scaled the output of {@link #fitScaling}'s model, one row per application in a fixed order, best cached
   */
  static Choice selectK(Dataset<Row> scaled, int kMin, int kMax, long seed) {
    double[][] points = scaled.select(SCALED).collectAsList().stream()
        .map(r -> r.<org.apache.spark.ml.linalg.Vector>getAs(0).toArray()).toArray(double[][]::new);
    List<KScore> scores = new ArrayList<>();
    Map<Integer, org.perflab.clustering.KMeans.Fit> fits = new HashMap<>();
    for (int k = kMin; k <= kMax; k++) {
      org.perflab.clustering.KMeans.Fit fit = org.perflab.clustering.KMeans.fit(points, k, seed);
      fits.put(k, fit);
      scores.add(new KScore(k, org.perflab.clustering.KMeans.silhouette(points, fit.assignment(), k)));
    }
    Selection selection = Selection.of(scores);
    return new Choice(selection, model(fits.get(selection.chosenK()).centres()));
  }

  /** An MLlib KMeans model of {@code centres}, reading {@link #SCALED} and writing {@link #PREDICTION}. */
  static KMeansModel model(double[][] centres) {
    org.apache.spark.mllib.linalg.Vector[] vectors = Arrays.stream(centres)
        .map(org.apache.spark.mllib.linalg.Vectors::dense).toArray(org.apache.spark.mllib.linalg.Vector[]::new);
    KMeansModel model = new KMeansModel(org.apache.spark.ml.util.Identifiable.randomUID("kmeans"),
        new org.apache.spark.mllib.clustering.KMeansModel(vectors));
    return model.setFeaturesCol(SCALED).setPredictionCol(PREDICTION);
  }

  static StandardScalerModel scaler(PipelineModel model) {
    return (StandardScalerModel) model.stages()[SCALER_STAGE];
  }

  static KMeansModel kmeans(PipelineModel model) {
    return (KMeansModel) model.stages()[KMEANS_STAGE];
  }

  private static PipelineStage[] scalingStages() {
    String derived = Arrays.stream(ClusterFeature.values())
        .map(f -> f.clusteredSql() + " AS " + column(f))
        .collect(Collectors.joining(", "));
    String[] columns = Arrays.stream(ClusterFeature.values()).map(ClusterPipeline::column).toArray(String[]::new);
    return new PipelineStage[] {
      new SQLTransformer().setStatement("SELECT *, " + derived + " FROM __THIS__"),
      new VectorAssembler().setInputCols(columns).setOutputCol(VECTOR),
      new StandardScaler().setInputCol(VECTOR).setOutputCol(SCALED).setWithMean(true).setWithStd(true)
    };
  }
}
