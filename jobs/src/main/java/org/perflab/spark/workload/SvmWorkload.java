package org.perflab.spark.workload;

import java.util.Random;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.ml.classification.LinearSVC;
import org.apache.spark.ml.classification.LinearSVCModel;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * HiBench SVM: labelled examples on either side of a random hyperplane (with 5% label noise), trained with MLlib's
 * linear SVM ({@link LinearSVC}, regParam 0.01 as HiBench).
 */
final class SvmWorkload implements WorkloadRunner {
  /** Examples per scale (HiBench's own counts). */
  static final ScaleTable EXAMPLES = ScaleTable.of(1_000, 10_000, 50_000, 120_000, 140_000, 150_000);
  /** Dense features per scale (HiBench: 1,000 to 300,000; cut to fit a 2-core machine's memory). */
  static final ScaleTable FEATURES = ScaleTable.of(100, 500, 1_000, 1_000, 1_000, 1_000);
  static final int DEFAULT_ITERATIONS = 20;
  static final double REG_PARAM = 0.01;
  private static final double LABEL_NOISE = 0.05;

  static final StructType SCHEMA = new StructType()
      .add("label", DataTypes.DoubleType, false)
      .add("features", SQLDataTypes.VectorType(), false);

  @Override
  public void prepare(SparkSession spark, WorkloadSpec spec) {
    int features = (int) FEATURES.at(spec.scale());
    double[] weights = new Random(spec.seed()).doubles(features, -1, 1).toArray();
    JavaRDD<Row> rows = Generators.generate(spark, EXAMPLES.at(spec.scale()), spec.partitions(), spec.seed(),
        (random, index) -> example(random, weights));
    spark.createDataFrame(rows, SCHEMA).write().mode("overwrite").parquet(spec.inputDir());
  }

  @Override
  public WorkloadResult run(SparkSession spark, WorkloadSpec spec) {
    Dataset<Row> examples = spark.read().parquet(spec.inputDir());
    LinearSVCModel model = new LinearSVC()
        .setMaxIter(spec.iterationsOr(DEFAULT_ITERATIONS))
        .setRegParam(REG_PARAM)
        .fit(examples);
    Dataset<Row> predictions = model.transform(examples).select("label", "prediction");
    predictions.write().mode("overwrite").parquet(spec.outputDir());
    long total = predictions.count();
    long correct = predictions.filter("label = prediction").count();
    return new WorkloadResult(HiBenchWorkload.SVM, total, "accuracy=" + (double) correct / total);
  }

  private static Row example(Random random, double[] weights) {
    double[] x = new double[weights.length];
    double margin = 0;
    for (int i = 0; i < x.length; i++) {
      x[i] = random.nextGaussian();
      margin += x[i] * weights[i];
    }
    boolean positive = margin > 0;
    if (random.nextDouble() < LABEL_NOISE) {
      positive = !positive;
    }
    return RowFactory.create(positive ? 1.0 : 0.0, Vectors.dense(x));
  }
}
