package org.perflab.spark.features;

import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.first;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.when;

import java.util.Optional;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.api.java.UDF3;
import org.apache.spark.sql.expressions.UserDefinedFunction;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.perflab.grouping.SizeClass;
import org.perflab.grouping.Workload;
import org.perflab.grouping.WorkloadRule;
import org.perflab.spark.storage.AppKeyColumns;

/**
 * The {@code workloads} table: one row per application attempt with its workload id ({@link WorkloadRule}), the
 * bytes it read, its size class ({@link SizeClass}) and its configuration. Columns: {@link FeatureTables#WORKLOADS}.
 */
public final class WorkloadTable {
  /** Where {@code input_bytes} came from. */
  public enum InputSource {
    /** The sum of the tasks' input bytes (Spark's "Input" column). */
    TASKS,
    /** The tasks read nothing that Spark counts: PerfLab's {@code spark.perflab.input.bytes} tag. */
    TAG,
    /** Neither: the application read nothing from storage, as far as its log says. */
    NONE
  }

  private static final StructType WORKLOAD = new StructType()
      .add("id", DataTypes.StringType, false)
      .add("source", DataTypes.StringType, false);

  private static final UserDefinedFunction IDENTIFY = functions.udf((UDF3<String, String, String, Row>)
      (tag, property, name) -> {
        Workload w = WorkloadRule.identify(tag, property, name);
        return RowFactory.create(w.id(), w.source().name());
      }, WORKLOAD).asNonNullable();

  private static final UserDefinedFunction SIZE_CLASS =
      functions.udf((UDF1<Long, Integer>) bytes -> SizeClass.of(bytes == null ? 0 : bytes), DataTypes.IntegerType)
          .asNonNullable();

  private WorkloadTable() {}

  /**
   * One row per application attempt of {@code in.applications()}, in the schema {@link FeatureTables#WORKLOADS}.
   *
   * @param workloadProperty the Spark property that names the workload when PerfLab's tag is absent (rule 2)
   */
  public static Dataset<Row> of(FeatureInputs in, Optional<String> workloadProperty) {
    Dataset<Row> inputBytes = in.tasks().groupBy(AppKeyColumns.with()).agg(sum("input_bytes").as("task_input_bytes"));
    Dataset<Row> applications = in.applications().select(AppKeyColumns.with("app_name", "perflab_workload",
        "perflab_input_bytes", "start_time_ms", "duration_ms", "completed"));
    Dataset<Row> apps = FeatureKeys.leftJoin(FeatureKeys.leftJoin(applications, inputBytes), property(in, workloadProperty));
    Dataset<Row> config = Configurations.effective(in);
    Column tasks = coalesce(col("task_input_bytes"), lit(0L));
    Column tag = coalesce(col("perflab_input_bytes"), lit(0L));
    Column source = when(tasks.gt(0), lit(InputSource.TASKS.name()))
        .when(tag.gt(0), lit(InputSource.TAG.name())).otherwise(lit(InputSource.NONE.name()));
    Column bytes = when(tasks.gt(0), tasks).when(tag.gt(0), tag).otherwise(lit(0L));
    Dataset<Row> rows = FeatureKeys.leftJoin(apps, config)
        .withColumn("workload", IDENTIFY.apply(col("perflab_workload"), col("workload_property"), col("app_name")))
        .withColumn("input_bytes", bytes)
        .select(col("log_id"), col("app_id"), col("app_attempt_id"), col("app_name"),
            col("workload.id").as("workload_id"), col("workload.source").as("workload_source"),
            col("input_bytes"), source.as("input_bytes_source"), SIZE_CLASS.apply(col("input_bytes")).as("size_class"),
            col("executors"), col("cores_per_executor"), col("total_cores"), col("executor_memory_bytes"),
            col("start_time_ms"), col("duration_ms"), col("completed"));
    return FeatureTables.conform(rows, FeatureTables.WORKLOADS);
  }

  /** Key columns plus {@code workload_property}: the value of the named Spark property, null when unnamed. */
  private static Dataset<Row> property(FeatureInputs in, Optional<String> key) {
    Column named = key.map(k -> col("category").equalTo("SPARK").and(col("key").equalTo(k))).orElse(lit(false));
    return in.properties().where(named).groupBy(AppKeyColumns.with())
        .agg(first("value", true).as("workload_property"));
  }
}
