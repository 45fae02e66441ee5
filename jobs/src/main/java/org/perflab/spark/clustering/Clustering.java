package org.perflab.spark.clustering;

import org.perflab.clustering.CentreMatching;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.spark.ml.PipelineModel;
import org.apache.spark.ml.clustering.KMeansModel;
import org.apache.spark.ml.feature.StandardScalerModel;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF2;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.perflab.clustering.CentreMatching.Centre;
import org.perflab.spark.clustering.ClusterPipeline.KScore;
import org.perflab.spark.clustering.ClusterPipeline.Selection;
import org.perflab.table.KeyColumns;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Clusters applications by their {@link ClusterFeature}s with {@link ClusterPipeline}, and gives the rows of the
 * {@code cluster} tables. Dataset in, Datasets out: no table is read or written here. Every application in
 * {@code app_features} is clustered on every run (clustering is not incremental: the centres depend on all of
 * them); only the k centres and the per-k scores reach the driver.
 */
public final class Clustering {
  private static final Logger LOG = LoggerFactory.getLogger(Clustering.class);

  /** Fewer applications than this are not clustered. */
  public static final int MIN_APPLICATIONS = 3;

  private Clustering() {}

  /** A centre of the previous run, as {@code cluster_centers} holds it: its id and its features in their units. */
  public record PreviousCentre(int id, Map<String, Double> center) {
    public PreviousCentre {
      center = Map.copyOf(center);
    }

    /** The centres of a {@code cluster_centers} table (k rows). */
    public static List<PreviousCentre> of(Dataset<Row> centers) {
      return centers.select(ClusterTables.CLUSTER_ID, ClusterTables.CENTER).collectAsList().stream()
          .map(r -> new PreviousCentre(r.getInt(0), r.<String, Double>getJavaMap(1)))
          .toList();
    }
  }

  /** What a clustering run gives. */
  public sealed interface Outcome {}

  /** Too few applications, or too few distinct ones, to cluster: nothing to write. */
  public record NotClustered(long applications, String reason) implements Outcome {}

  /**
   * The clusters: the fitted pipeline, the k chosen and the silhouettes, and the rows of {@code app_clusters},
   * {@code cluster_centers}, {@code cluster_summary} and {@code cluster_selection}, each conformed to its schema.
   */
  public record Clustered(PipelineModel model, Selection selection, long applications, boolean findingsSummarised,
      Dataset<Row> appClusters, Dataset<Row> centers, Dataset<Row> summary, Dataset<Row> selectionRows)
      implements Outcome {}

  /**
   * Clusters every application of {@code appFeatures}.
   *
   * @param appFeatures the {@code app_features} table, with {@link ClusterFeature#requiredColumns()}
   * @param previous the previous run's centres, whose ids the new clusters keep (empty on a first run)
   * @param findings the {@code findings} table, when it exists
   * @throws org.perflab.errors.BadInputException when {@code appFeatures} lacks a column
   */
  public static Outcome cluster(Dataset<Row> appFeatures, List<PreviousCentre> previous,
      Optional<Dataset<Row>> findings, ClusterOptions options) {
    ClusterFeature.requireColumns(appFeatures.schema());
    Dataset<Row> apps = appFeatures.select(ClusterFeature.requiredColumns().stream().map(functions::col)
        .toArray(Column[]::new))
        // One row per application: few, so one partition, in a fixed order. KMeans draws its initial centres from the
        // rows in their order, so without the sort the same applications read from other files or partitions (another
        // master, a compacted table) could give other clusters under the same seed.
        .orderBy(KeyColumns.APP_ID, KeyColumns.APP_ATTEMPT_ID, KeyColumns.LOG_ID).coalesce(1).cache();
    long applications = apps.count();
    if (applications < MIN_APPLICATIONS) {
      return new NotClustered(applications, String.format(
          "too few applications to cluster (%d; need at least %d)", applications, MIN_APPLICATIONS));
    }
    PipelineModel scaling = ClusterPipeline.fitScaling(apps);
    Dataset<Row> scaled = scaling.transform(apps).cache();
    long distinct = scaled.select(Arrays.stream(ClusterFeature.values()).map(f -> col(ClusterPipeline.column(f)))
        .toArray(Column[]::new)).distinct().count();
    int kMax = (int) Math.min(options.kMax(), distinct - 1);
    if (kMax < options.kMin()) {
      return new NotClustered(applications, String.format("too few distinct applications for k >= %d (%d distinct "
          + "feature rows among %d applications; need at least %d)", options.kMin(), distinct, applications,
          options.kMin() + 1));
    }
    ClusterPipeline.Choice choice = ClusterPipeline.selectK(scaled, options.kMin(), kMax, options.seed());
    Selection selection = choice.selection();
    selection.scores().forEach(s -> LOG.info("k={} silhouette={}", s.k(), s.silhouette()));
    scaled.unpersist();
    PipelineModel model = ClusterPipeline.assemble(apps, scaling, choice.model());
    int[] ids = stableIds(model, previous);
    Dataset<Row> labelled = label(model, apps, ids).cache();
    Dataset<Row> centers = centers(model, labelled, ids);
    Optional<Dataset<Row>> usableFindings = findings.filter(Clustering::hasFindingColumns);
    Dataset<Row> summary = ClusterSummary.of(labelled, usableFindings);
    Dataset<Row> appClusters = ClusterTables.conform(labelled, ClusterTables.APP_CLUSTERS);
    return new Clustered(model, selection, applications, usableFindings.isPresent(), appClusters, centers, summary,
        selectionRows(apps.sparkSession(), selection, options.seed(), applications));
  }

  /**
   * The stable id of each KMeans cluster (by index): the previous run's centres, taken into this run's standardised
   * units by this run's scaling, matched by {@link CentreMatching}. Centres of another feature list cannot be
   * compared: the new clusters then take fresh ids above the previous ones.
   */
  static int[] stableIds(PipelineModel model, List<PreviousCentre> previous) {
    List<double[]> fresh = Arrays.stream(ClusterPipeline.kmeans(model).clusterCenters()).map(Vector::toArray)
        .toList();
    Set<String> names = Arrays.stream(ClusterFeature.values()).map(ClusterFeature::featureName)
        .collect(Collectors.toSet());
    if (previous.stream().anyMatch(p -> !p.center().keySet().equals(names))) {
      LOG.warn("The previous cluster centres have other features than this run's; the clusters get new ids");
      int next = previous.stream().mapToInt(PreviousCentre::id).max().getAsInt() + 1;
      return java.util.stream.IntStream.range(next, next + fresh.size()).toArray();
    }
    StandardScalerModel scaler = ClusterPipeline.scaler(model);
    List<Centre> old = previous.stream().map(p -> new Centre(p.id(), standardised(p.center(), scaler))).toList();
    return CentreMatching.ids(fresh, old);
  }

  /** A centre in the features' own units, in the standardised units of {@code scaler}. */
  private static double[] standardised(Map<String, Double> center, StandardScalerModel scaler) {
    ClusterFeature[] features = ClusterFeature.values();
    double[] point = new double[features.length];
    for (int i = 0; i < features.length; i++) {
      double std = scaler.std().apply(i);
      double clustered = features[i].toClustered(center.get(features[i].featureName()));
      // StandardScaler maps a feature without spread to 0.
      point[i] = std == 0 ? 0 : (clustered - scaler.mean().apply(i)) / std;
    }
    return point;
  }

  /** A centre in standardised units, in the features' own units: the inverse of {@link #standardised}. */
  private static Map<String, Double> ownUnits(Vector centre, StandardScalerModel scaler) {
    ClusterFeature[] features = ClusterFeature.values();
    Map<String, Double> values = new LinkedHashMap<>();
    for (int i = 0; i < features.length; i++) {
      double clustered = centre.apply(i) * scaler.std().apply(i) + scaler.mean().apply(i);
      values.put(features[i].featureName(), features[i].fromClustered(clustered));
    }
    return values;
  }

  /** {@code apps} with {@code cluster_id} (stable) and {@code distance}, to the centre in standardised units. */
  static Dataset<Row> label(PipelineModel model, Dataset<Row> apps, int[] ids) {
    Vector[] centres = ClusterPipeline.kmeans(model).clusterCenters();
    UDF2<Vector, Integer, Double> distance = (v, c) -> Math.sqrt(Vectors.sqdist(v, centres[c]));
    Column stable = null;
    for (int i = 0; i < ids.length; i++) {
      Column when = col(ClusterPipeline.PREDICTION).equalTo(i);
      stable = stable == null ? functions.when(when, ids[i]) : stable.when(when, ids[i]);
    }
    return model.transform(apps)
        .withColumn(ClusterTables.CLUSTER_ID, stable)
        .withColumn("distance", functions.udf(distance, DataTypes.DoubleType)
            .apply(col(ClusterPipeline.SCALED), col(ClusterPipeline.PREDICTION)));
  }

  /** One row per cluster: its id, size and centre in the features' own units. */
  static Dataset<Row> centers(PipelineModel model, Dataset<Row> labelled, int[] ids) {
    Map<Integer, Long> sizes = labelled.groupBy(ClusterPipeline.PREDICTION).count().collectAsList().stream()
        .collect(Collectors.toMap(r -> r.getInt(0), r -> r.getLong(1)));
    KMeansModel kmeans = ClusterPipeline.kmeans(model);
    StandardScalerModel scaler = ClusterPipeline.scaler(model);
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < ids.length; i++) {
      rows.add(RowFactory.create(ids[i], sizes.getOrDefault(i, 0L), ownUnits(kmeans.clusterCenters()[i], scaler)));
    }
    return labelled.sparkSession().createDataFrame(rows, ClusterTables.CENTERS).orderBy(ClusterTables.CLUSTER_ID);
  }

  private static Dataset<Row> selectionRows(SparkSession spark, Selection selection, long seed, long applications) {
    List<Row> rows = new ArrayList<>();
    for (KScore score : selection.scores()) {
      rows.add(RowFactory.create(score.k(), score.silhouette(), score.k() == selection.chosenK(), seed,
          applications));
    }
    return spark.createDataFrame(rows, ClusterTables.SELECTION);
  }

  /** Whether a {@code findings} table has the columns the summary reads; says so when it does not. */
  private static boolean hasFindingColumns(Dataset<Row> findings) {
    Set<String> have = Set.of(findings.schema().fieldNames());
    List<String> missing = ClusterSummary.FINDING_COLUMNS.stream().filter(c -> !have.contains(c)).toList();
    if (!missing.isEmpty()) {
      LOG.warn("The findings table lacks {}; cluster_summary.dominant_findings stays null", missing);
    }
    return missing.isEmpty();
  }

  /** The application key columns. */
  static String[] keys() {
    return new String[] {KeyColumns.LOG_ID, KeyColumns.APP_ID, KeyColumns.APP_ATTEMPT_ID};
  }
}
