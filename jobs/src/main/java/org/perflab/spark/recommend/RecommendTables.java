package org.perflab.spark.recommend;

import org.perflab.recommend.Recommendation;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/** The table {@code recommend} writes (docs/tables.md#recommendations). */
public final class RecommendTables {
  public static final String RECOMMENDATIONS_TABLE = "recommendations";
  public static final List<String> NAMES = List.of(RECOMMENDATIONS_TABLE);

  /** One row per workload and input-size class. */
  public static final StructType SCHEMA = new StructType()
      .add("workload_id", DataTypes.StringType, false)
      .add("size_class", DataTypes.IntegerType, false)
      .add("input_bytes", DataTypes.LongType, false)
      .add("runs", DataTypes.IntegerType, false)
      .add("candidates", DataTypes.IntegerType, false)
      .add("executors", DataTypes.IntegerType, true)
      .add("cores_per_executor", DataTypes.IntegerType, true)
      .add("executor_memory_bytes", DataTypes.LongType, true)
      .add("memory_overhead_bytes", DataTypes.LongType, true)
      .add("shuffle_partitions", DataTypes.IntegerType, true)
      .add("min_executors", DataTypes.IntegerType, true)
      .add("max_executors", DataTypes.IntegerType, true)
      .add("predicted_s", DataTypes.DoubleType, true)
      .add("predicted_low_s", DataTypes.DoubleType, true)
      .add("predicted_high_s", DataTypes.DoubleType, true)
      .add("core_hours", DataTypes.DoubleType, true)
      .add("gb_hours", DataTypes.DoubleType, true)
      .add("cost", DataTypes.DoubleType, true)
      .add("cost_unit", DataTypes.StringType, false)
      .add("objective", DataTypes.StringType, false)
      .add("predictor", DataTypes.StringType, true)
      .add("spark_submit_args", DataTypes.StringType, true)
      .add("evidence", DataTypes.StringType, false)
      .add("reason", DataTypes.StringType, true);

  private RecommendTables() {}

  /** A recommendation as a row of {@link #SCHEMA}. */
  public static Row row(Recommendation r) {
    return RowFactory.create(r.workloadId(), r.sizeClass(), r.inputBytes(), r.runs(), r.candidates(), r.executors(),
        r.coresPerExecutor(), r.executorMemoryBytes(), r.memoryOverheadBytes(), r.shufflePartitions(),
        r.minExecutors(), r.maxExecutors(), r.predictedS(), r.predictedLowS(), r.predictedHighS(), r.coreHours(),
        r.gbHours(), r.cost(), r.costUnit(), r.objective(), r.predictor(), r.sparkSubmitArgs(), r.evidence(),
        r.reason());
  }
}
