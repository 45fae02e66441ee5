package org.perflab.jobs;

import org.perflab.jobs.cli.Preflight;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.spark.ml.PipelineModel;
import org.apache.spark.ml.clustering.KMeansModel;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perflab.clustering.AdjustedRandIndex;
import org.perflab.spark.clustering.ClusterOptions;
import org.perflab.spark.clustering.ClusterPipeline;
import org.perflab.spark.clustering.ClusterTables;
import org.perflab.spark.clustering.Clustering;
import org.perflab.spark.clustering.Clustering.Clustered;
import org.perflab.spark.clustering.Clustering.NotClustered;
import org.perflab.spark.clustering.Clustering.Outcome;
import org.perflab.spark.clustering.SyntheticFeatures;
import org.perflab.errors.BadInputException;
import org.perflab.spark.ingest.SparkTestSession;
import org.perflab.spark.storage.ModelDirectory;
import org.perflab.spark.storage.TableStore;

/**
 * {@code cluster} on a test-built {@code app_features} of three well-separated workloads (8 applications each, at 1
 * to 8 executors): k by silhouette, the clusters against the workloads, the saved model, ids kept across runs, the
 * findings summary, and the bad inputs.
 */
class ClusterJobTest {
  @TempDir
  static Path dir;

  private static SparkSession spark;
  private static Path first;
  private static Clustered firstRun;

  @BeforeAll
  static void clusterThreeWorkloads() {
    spark = SparkTestSession.get();
    first = dir.resolve("first");
    write(first, ClusterTables.APP_FEATURES, SyntheticFeatures.of(spark, 8, 0.05, 1));
    firstRun = (Clustered) ClusterJob.run(spark, options(first, new ClusterOptions(2, 5, 1)));
  }

  @Test
  void threeSeparatedWorkloadsGiveThreeClustersThatAreTheWorkloads() {
    assertThat(firstRun.selection().chosenK()).isEqualTo(3);
    List<Row> apps = table(first, ClusterTables.APP_CLUSTERS_TABLE).collectAsList();
    assertThat(apps).hasSize(24);
    double ari = AdjustedRandIndex.of(apps.stream().map(r -> r.getAs("cluster_id")).toList(),
        apps.stream().map(r -> r.getAs("workload_id")).toList());
    assertThat(ari).isEqualTo(1.0);
    assertThat(table(first, ClusterTables.CENTERS_TABLE).collectAsList())
        .extracting(r -> r.getLong(1)).containsExactly(8L, 8L, 8L);
  }

  @Test
  void theSelectionTableHoldsEverySilhouetteAndTheBestK() {
    List<Row> selection = table(first, ClusterTables.SELECTION_TABLE).orderBy("k").collectAsList();
    assertThat(selection).extracting(r -> r.getInt(0)).containsExactly(2, 3, 4, 5);
    assertThat(selection).filteredOn(r -> r.getBoolean(2)).extracting(r -> r.getInt(0)).containsExactly(3);
    double best = selection.stream().mapToDouble(r -> r.getDouble(1)).max().getAsDouble();
    assertThat(selection.get(1).getDouble(1)).isEqualTo(best);
    assertThat(selection).allSatisfy(r -> assertThat(r.getLong(4)).isEqualTo(24L));
  }

  @Test
  void theChosenSilhouetteIsWhatSparksClusteringEvaluatorGivesForTheSavedModel() {
    // The centres and silhouettes are computed in the driver; MLlib's evaluator on the saved model's output agrees.
    PipelineModel model = PipelineModel.load(first.resolve(ModelDirectory.MODELS).resolve(ClusterJob.MODEL)
        .toString());
    double spark = new org.apache.spark.ml.evaluation.ClusteringEvaluator().setFeaturesCol(ClusterPipeline.SCALED)
        .setPredictionCol(ClusterPipeline.PREDICTION).evaluate(model.transform(table(first,
            ClusterTables.APP_FEATURES)));
    double chosen = table(first, ClusterTables.SELECTION_TABLE).where("k = 3").first().getDouble(1);
    assertThat(chosen).isCloseTo(spark, within(1e-9)).isGreaterThan(0.5);
  }

  @Test
  void theSummaryNamesTheWorkloadAndItsWallTimesWithoutFindings() {
    Dataset<Row> features = table(first, ClusterTables.APP_FEATURES);
    for (Row summary : table(first, ClusterTables.SUMMARY_TABLE).collectAsList()) {
      List<String> workloads = summary.getList(4);
      assertThat(workloads).hasSize(1);
      assertThat(summary.getDouble(5)).isEqualTo(1.0);
      assertThat(summary.isNullAt(6)).as("dominant_findings without a findings table").isTrue();
      double[] wall = features.where(functions.col("workload_id").equalTo(workloads.get(0)))
          .select("wall_time_s").collectAsList().stream().mapToDouble(r -> r.getDouble(0)).sorted().toArray();
      // Exact percentiles of 8 values, interpolated: p50 between the 4th and 5th, p90 at 7.3 → 8th·0.3 + 7th·0.7.
      assertThat(summary.getDouble(2)).isCloseTo((wall[3] + wall[4]) / 2, within(1e-9));
      assertThat(summary.getDouble(3)).isCloseTo(wall[6] + 0.3 * (wall[7] - wall[6]), within(1e-9));
    }
  }

  @Test
  void theSavedModelReproducesTheClustersAndEveryAppIsNearItsCentre() throws Exception {
    Path models = first.resolve(ModelDirectory.MODELS);
    try (var names = Files.list(models)) {
      assertThat(names.map(p -> p.getFileName().toString())).containsExactly(ClusterJob.MODEL);
    }
    PipelineModel model = PipelineModel.load(models.resolve(ClusterJob.MODEL).toString());
    List<Row> predicted = model.transform(table(first, ClusterTables.APP_FEATURES))
        .join(table(first, ClusterTables.APP_CLUSTERS_TABLE), "app_id")
        .select(ClusterPipeline.PREDICTION, "cluster_id", "distance").collectAsList();
    assertThat(AdjustedRandIndex.of(predicted.stream().map(r -> r.get(0)).toList(),
        predicted.stream().map(r -> r.get(1)).toList())).isEqualTo(1.0);
    Vector[] centres = ((KMeansModel) model.stages()[3]).clusterCenters();
    double closest = Double.MAX_VALUE;
    for (int i = 0; i < centres.length; i++) {
      for (int j = i + 1; j < centres.length; j++) {
        closest = Math.min(closest, Math.sqrt(Vectors.sqdist(centres[i], centres[j])));
      }
    }
    double farthest = predicted.stream().mapToDouble(r -> r.getDouble(2)).max().getAsDouble();
    assertThat(farthest).isPositive().isLessThan(closest / 4);
  }

  // The clustering runs below fix k = 3 (one KMeans fit per run); the choice of k by silhouette is tested above.
  @Test
  void idsStayAcrossRunsOfShuffledPerturbedDataAndFollowThePreviousCentres() {
    Path root = dir.resolve("stable");
    write(root, ClusterTables.APP_FEATURES, SyntheticFeatures.of(spark, 8, 0.05, 1));
    ClusterJob.run(spark, options(root, new ClusterOptions(3, 3, 1)));
    Map<String, Integer> before = idsByWorkload(root);

    write(root, ClusterTables.APP_FEATURES, SyntheticFeatures.of(spark, 8, 0.08, 2));
    ClusterJob.run(spark, options(root, new ClusterOptions(3, 3, 7)));
    assertThat(idsByWorkload(root)).isEqualTo(before);

    // The previous centres under other ids: the clusters take those ids.
    Dataset<Row> renamed = table(root, ClusterTables.CENTERS_TABLE)
        .withColumn("cluster_id", functions.col("cluster_id").multiply(-3).plus(20));
    write(root, ClusterTables.CENTERS_TABLE, renamed);
    ClusterJob.run(spark, options(root, new ClusterOptions(3, 3, 3)));
    Map<String, Integer> expected = before.entrySet().stream()
        .collect(Collectors.toMap(Map.Entry::getKey, e -> 20 - 3 * e.getValue()));
    assertThat(idsByWorkload(root)).isEqualTo(expected);
  }

  /**
   * The same applications in another order (another master's partitions, a compacted table) give the same clusters
   * and silhouettes under the same seed: KMeans draws its first centres from the rows in their order, so the job sorts
   * them. Noisy workloads, so that where KMeans starts changes what it finds. (On the transform, without tables.)
   */
  @Test
  void theSameApplicationsInAnotherOrderGiveTheSameClustersAndSilhouettes() {
    Dataset<Row> noisy = SyntheticFeatures.of(spark, 6, 0.9, 11).cache();
    ClusterOptions options = new ClusterOptions(3, 3, 5);
    Clustered inOrder = (Clustered) Clustering.cluster(noisy.orderBy("app_id").coalesce(1), List.of(),
        java.util.Optional.empty(), options);
    Clustered reversed = (Clustered) Clustering.cluster(noisy.orderBy(functions.col("app_id").desc()).coalesce(1),
        List.of(), java.util.Optional.empty(), options);

    assertThat(clusterByApp(reversed.appClusters())).isEqualTo(clusterByApp(inOrder.appClusters()));
    assertThat(reversed.selection()).isEqualTo(inOrder.selection());
  }

  private static Map<String, Integer> clusterByApp(Dataset<Row> appClusters) {
    return appClusters.collectAsList().stream()
        .collect(Collectors.toMap(r -> r.<String>getAs("app_id"), r -> r.<Integer>getAs("cluster_id")));
  }

  @Test
  void dominantFindingsCountModerateAndWorseFindingsPerApplication() {
    Path root = dir.resolve("findings");
    write(root, ClusterTables.APP_FEATURES, SyntheticFeatures.of(spark, 8, 0.05, 1));
    StructType schema = new StructType().add("log_id", DataTypes.StringType).add("app_id", DataTypes.StringType)
        .add("app_attempt_id", DataTypes.StringType).add("stage_id", DataTypes.IntegerType)
        .add("rule", DataTypes.StringType).add("severity", DataTypes.StringType)
        .add("estimated_savings_s", DataTypes.DoubleType);
    List<Row> findings = new java.util.ArrayList<>();
    for (int i = 0; i < 8; i++) {
      findings.add(RowFactory.create("logsort" + i, "app-sort-" + i, "", null, "SPILL", "MODERATE", 1.0));
      findings.add(RowFactory.create("logkmeans" + i, "app-kmeans-" + i, "", 3, "DATA_SKEW", "LOW", 50.0));
    }
    for (int i = 0; i < 3; i++) {
      // Fewer applications than SPILL, on two stages each: GC_PRESSURE ranks second.
      findings.add(RowFactory.create("logsort" + i, "app-sort-" + i, "", 1, "GC_PRESSURE", "CRITICAL", 30.0));
      findings.add(RowFactory.create("logsort" + i, "app-sort-" + i, "", 2, "GC_PRESSURE", "SEVERE", 30.0));
    }
    write(root, ClusterTables.FINDINGS, spark.createDataFrame(findings, schema));
    Clustered run = (Clustered) ClusterJob.run(spark, options(root, new ClusterOptions(3, 3, 1)));
    assertThat(run.findingsSummarised()).isTrue();
    Map<String, List<String>> dominant = new HashMap<>();
    for (Row r : table(root, ClusterTables.SUMMARY_TABLE).collectAsList()) {
      dominant.put(r.<String>getList(4).get(0), r.getList(6));
    }
    assertThat(dominant).containsEntry("sort", List.of("SPILL", "GC_PRESSURE")).containsEntry("kmeans", List.of())
        .containsEntry("sleep", List.of());
  }

  @Test
  void twoApplicationsOrIdenticalOnesAreNotClusteredAndWriteNothing() {
    Path two = dir.resolve("two");
    write(two, ClusterTables.APP_FEATURES, SyntheticFeatures.of(spark, 8, 0.05, 1).limit(2));
    assertThat(PerfLab.run("cluster", "--input", two.toString())).isEqualTo(0);
    assertThat(new TableStore(spark, two.toString()).exists(ClusterTables.APP_CLUSTERS_TABLE)).isFalse();
    Outcome outcome = ClusterJob.run(spark, options(two, new ClusterOptions(2, 10, 1)));
    assertThat(outcome).isEqualTo(new NotClustered(2, "too few applications to cluster (2; need at least 3)"));

    Path same = dir.resolve("same");
    Dataset<Row> one = SyntheticFeatures.of(spark, 8, 0.0, 1).where(functions.col("workload_id")
        .equalTo("sort"));
    write(same, ClusterTables.APP_FEATURES, one);
    assertThat(((NotClustered) ClusterJob.run(spark, options(same, new ClusterOptions(2, 10, 1)))).reason())
        .isEqualTo("too few distinct applications for k >= 2 (1 distinct feature rows among 8 applications; need at "
            + "least 3)");
  }

  @Test
  void aRootWithoutAppFeaturesOrAFeatureColumnIsBadInput() {
    Path empty = dir.resolve("empty");
    new TableStore(spark, empty.toString()).overwrite("applications",
        spark.createDataFrame(List.of(RowFactory.create("x")), new StructType().add("app_id", DataTypes.StringType)));
    assertThat(PerfLab.run("cluster", "--input", empty.toString())).isEqualTo(2);
    assertThatThrownBy(() -> Preflight.of("cluster").jobTable("--input", empty.toString(), "app_features",
        "features")).hasMessage("Cannot cluster: no app_features under " + empty + " (run perflab features first)");
    assertThatThrownBy(() -> ClusterJob.run(spark, options(empty, new ClusterOptions(2, 10, 1))))
        .hasMessage("Cannot cluster: no app_features under " + empty + " (run perflab features first)");

    Path lacking = dir.resolve("lacking");
    write(lacking, ClusterTables.APP_FEATURES, SyntheticFeatures.of(spark, 2, 0.05, 1).drop("gc_share"));
    assertThat(PerfLab.run("cluster", "--input", lacking.toString())).isEqualTo(2);
    assertThatThrownBy(() -> ClusterJob.run(spark, options(lacking, new ClusterOptions(2, 10, 1))))
        .isInstanceOf(BadInputException.class)
        .hasMessage("Cannot cluster: app_features lacks column gc_share (run perflab features)");
  }

  @Test
  void kOutsideItsRangeIsBadInput() {
    assertThatThrownBy(() -> new ClusterOptions(1, 10, 1)).hasMessage("Cannot cluster: --k-min must be >= 2 (1)");
    assertThatThrownBy(() -> new ClusterOptions(5, 4, 1))
        .hasMessage("Cannot cluster: --k-max must be >= --k-min (4 < 5)");
    assertThat(PerfLab.run("cluster", "--input", first.toString(), "--k-min", "3", "--k-max", "2")).isEqualTo(2);
  }

  private static ClusterJob.Options options(Path root, ClusterOptions clustering) {
    return new ClusterJob.Options(root.toString(), root.toString(), clustering);
  }

  private static void write(Path root, String table, Dataset<Row> rows) {
    new TableStore(spark, root.toString()).overwrite(table, rows);
  }

  private static Dataset<Row> table(Path root, String table) {
    return new TableStore(spark, root.toString()).read(table).orElseThrow();
  }

  /** The cluster id of each workload's applications; fails when a workload's applications are in two clusters. */
  private static Map<String, Integer> idsByWorkload(Path root) {
    Map<String, Integer> ids = new HashMap<>();
    for (Row r : table(root, ClusterTables.APP_CLUSTERS_TABLE).collectAsList()) {
      Integer old = ids.put(r.getAs("workload_id"), r.getAs("cluster_id"));
      assertThat(old == null || old.equals(r.getAs("cluster_id"))).as("one cluster per workload").isTrue();
    }
    return ids;
  }
}
