package org.perflab.spark.workload;

import java.util.Random;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.ml.clustering.KMeans;
import org.apache.spark.ml.clustering.KMeansModel;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.storage.StorageLevel;

/**
 * HiBench K-means: samples drawn from Gaussians around {@link #SOURCE_CLUSTERS} uniform random centres (as
 * GenKMeansDataset), clustered with MLlib's {@link KMeans} into {@link #K} clusters.
 */
final class KMeansWorkload implements WorkloadRunner {
  /** Samples per scale. */
  static final ScaleTable SAMPLES = ScaleTable.of(30_000, 300_000, 1_000_000, 2_000_000, 4_000_000, 8_000_000);
  /** Dimensions per scale (HiBench: 3 at tiny, 20 otherwise). */
  static final ScaleTable DIMENSIONS = ScaleTable.of(3, 20, 20, 20, 20, 20);
  static final int SOURCE_CLUSTERS = 5;
  static final int K = 10;
  static final int DEFAULT_ITERATIONS = 5;
  /**
   * Spark property naming a storage level ({@code MEMORY_ONLY}, ...) at which the run caches its samples before
   * {@link KMeans#fit}; unset, MLlib persists its own copy at {@code MEMORY_AND_DISK}, which never recomputes.
   */
  static final String STORAGE_LEVEL_KEY = "spark.perflab.kmeans.storageLevel";
  private static final double CENTRE_RANGE = 100.0;

  static final StructType SCHEMA = new StructType().add("features", SQLDataTypes.VectorType(), false);

  @Override
  public void prepare(SparkSession spark, WorkloadSpec spec) {
    int dimensions = (int) DIMENSIONS.at(spec.scale());
    double[][] centres = centres(spec.seed(), dimensions);
    JavaRDD<Row> rows = Generators.generate(spark, SAMPLES.at(spec.scale()), spec.partitions(), spec.seed(),
        (random, index) -> RowFactory.create(Vectors.dense(sample(random, centres))));
    spark.createDataFrame(rows, SCHEMA).write().mode("overwrite").parquet(spec.inputDir());
  }

  @Override
  public WorkloadResult run(SparkSession spark, WorkloadSpec spec) {
    Dataset<Row> samples = spark.read().parquet(spec.inputDir());
    String storageLevel = spark.conf().get(STORAGE_LEVEL_KEY, "");
    if (!storageLevel.isBlank()) {
      samples = samples.persist(StorageLevel.fromString(storageLevel.strip()));
    }
    KMeansModel model = new KMeans()
        .setK(K)
        .setMaxIter(spec.iterationsOr(DEFAULT_ITERATIONS))
        .setSeed(spec.seed())
        .fit(samples);
    Dataset<Row> assigned = model.transform(samples).select("prediction");
    assigned.write().mode("overwrite").parquet(spec.outputDir());
    return new WorkloadResult(HiBenchWorkload.KMEANS, model.clusterCenters().length,
        "cost=" + model.summary().trainingCost());
  }

  static double[][] centres(long seed, int dimensions) {
    Random random = new Random(seed);
    double[][] centres = new double[SOURCE_CLUSTERS][dimensions];
    for (double[] centre : centres) {
      for (int d = 0; d < dimensions; d++) {
        centre[d] = (random.nextDouble() * 2 - 1) * CENTRE_RANGE;
      }
    }
    return centres;
  }

  private static double[] sample(Random random, double[][] centres) {
    double[] centre = centres[random.nextInt(centres.length)];
    double[] point = new double[centre.length];
    for (int d = 0; d < point.length; d++) {
      point[d] = centre[d] + random.nextGaussian();
    }
    return point;
  }
}
