package org.perflab.spark.storage;

import static org.apache.spark.sql.functions.col;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.spark.ml.PipelineModel;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.perflab.errors.BadInputException;
import org.perflab.spark.regress.RegressionKind;
import org.perflab.spark.regress.RuntimeModel;
import org.perflab.spark.regress.WorkloadFeatures;

/**
 * Runtime regression models fitted on the same runs, as files under one directory ({@code runtime_model/} of
 * {@code regress}; docs/tables.md#runtime_model):
 *
 * <pre>
 * linear/              the LINEAR PipelineModel (MLlib persistence: PipelineModel.load reads it)
 * gbt/                 the GBT PipelineModel
 * workload_features/   Parquet, WorkloadFeatures.SCHEMA: the workload features of the training runs
 * intervals/           Parquet, INTERVALS: per model, the residual ratios of its 80 % interval and its training runs
 * </pre>
 *
 * <p>To predict runs with a saved model: {@code RuntimeRegression.predict(RuntimeModelFiles.load(spark, dir, kind),
 * runs)}, which joins the runs with {@code workload_features} and applies the pipeline.
 */
public final class RuntimeModelFiles {
  public static final String WORKLOAD_FEATURES = "workload_features";
  public static final String INTERVALS_FILE = "intervals";

  /** The columns of {@code intervals/}. */
  public static final StructType INTERVALS = new StructType()
      .add("predictor", DataTypes.StringType, false)
      .add("low_ratio", DataTypes.DoubleType, false)
      .add("high_ratio", DataTypes.DoubleType, false)
      .add("training_runs", DataTypes.LongType, false)
      .add("interval_source", DataTypes.StringType, true);

  private RuntimeModelFiles() {}

  /** Writes {@code models}, fitted with {@code workloadFeatures}, under {@code directory} (which must not exist). */
  public static void save(Path directory, Dataset<Row> workloadFeatures, List<RuntimeModel> models)
      throws java.io.IOException {
    SparkSession spark = workloadFeatures.sparkSession();
    List<Row> intervals = new ArrayList<>();
    for (RuntimeModel model : models) {
      model.pipeline().write().save(new Path(directory, model.kind().directory()).toString());
      intervals.add(RowFactory.create(model.kind().label(), model.lowRatio(), model.highRatio(),
          model.trainingRuns(), model.intervalSource().name()));
    }
    TableStore.conform(workloadFeatures, WorkloadFeatures.SCHEMA).coalesce(1).write()
        .parquet(new Path(directory, WORKLOAD_FEATURES).toString());
    spark.createDataFrame(intervals, INTERVALS).coalesce(1).write()
        .parquet(new Path(directory, INTERVALS_FILE).toString());
  }

  /**
   * The model of {@code kind} saved under {@code directory}.
   *
   * @throws BadInputException when {@code directory} holds no such model
   */
  public static RuntimeModel load(SparkSession spark, String directory, RegressionKind kind) {
    Path root = new Path(directory);
    PipelineModel pipeline;
    Row interval;
    try {
      pipeline = PipelineModel.load(new Path(root, kind.directory()).toString());
      interval = spark.read().schema(INTERVALS).parquet(new Path(root, INTERVALS_FILE).toString())
          .where(col("predictor").equalTo(kind.label())).first();
    } catch (RuntimeException e) {
      throw new BadInputException(String.format("Cannot load the runtime model: %s (%s; run perflab regress)",
          e.getMessage(), new Path(root, kind.directory())), e);
    }
    Dataset<Row> features = spark.createDataFrame(spark.read().schema(WorkloadFeatures.SCHEMA)
        .parquet(new Path(root, WORKLOAD_FEATURES).toString()).collectAsList(), WorkloadFeatures.SCHEMA);
    // Models saved before the column existed took their ratios in sample.
    return new RuntimeModel(kind, pipeline, features, interval.getDouble(1), interval.getDouble(2),
        interval.getLong(3), interval.isNullAt(4) ? org.perflab.prediction.IntervalSource.TRAINING_RESIDUALS
            : org.perflab.prediction.IntervalSource.valueOf(interval.getString(4)));
  }
}
