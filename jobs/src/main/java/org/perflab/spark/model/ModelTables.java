package org.perflab.spark.model;

import java.util.List;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.perflab.table.KeyColumns;

/** The tables {@code model} writes (documented column by column in docs/tables.md). */
public final class ModelTables {
  /** One simulator model per application attempt: docs/tables.md#dag_models. */
  public static final String DAG_MODELS = "dag_models";
  /** One cross-slot prediction per pair of runs of a workload: docs/tables.md#model_predictions. */
  public static final String MODEL_PREDICTIONS = "model_predictions";
  /** The tables an incremental run keeps up to date ({@code model_predictions} is always recomputed whole). */
  public static final List<String> INCREMENTAL = List.of(DAG_MODELS);

  /** The column of {@code dag_models} that says where each of a model's stages {@code S<id>} sits in its run. */
  public static final String STAGE_REFS = "stage_refs";
  /** One element of {@link #STAGE_REFS}: {@code org.perflab.changes.StageRef}. */
  public static final StructType STAGE_REF = new StructType()
      .add("stage_id", DataTypes.IntegerType, false)
      .add("job_ordinal", DataTypes.IntegerType, false)
      .add("name", DataTypes.StringType, true);

  public static final StructType MODELS = new StructType()
      .add(KeyColumns.LOG_ID, DataTypes.StringType, false)
      .add(KeyColumns.APP_ID, DataTypes.StringType, false)
      .add(KeyColumns.APP_ATTEMPT_ID, DataTypes.StringType, false)
      .add("workload_id", DataTypes.StringType, true)
      .add("size_class", DataTypes.IntegerType, true)
      .add("input_bytes", DataTypes.LongType, true)
      .add("slots", DataTypes.IntegerType, true)
      .add("duration_s", DataTypes.DoubleType, true)
      .add("model_stages", DataTypes.IntegerType, true)
      .add("tasks", DataTypes.LongType, true)
      .add("driver_s", DataTypes.DoubleType, true)
      .add("startup_s", DataTypes.DoubleType, true)
      .add("mode", DataTypes.StringType, true)
      .add("model_json", DataTypes.StringType, true)
      .add("status", DataTypes.StringType, false)
      .add("reason", DataTypes.StringType, true)
      .add(STAGE_REFS, DataTypes.createArrayType(STAGE_REF, false), true);

  public static final StructType PREDICTIONS = new StructType()
      .add(KeyColumns.LOG_ID, DataTypes.StringType, true)
      .add("from_log_id", DataTypes.StringType, true)
      .add("workload_id", DataTypes.StringType, false)
      .add("size_class", DataTypes.IntegerType, true)
      .add("from_app_id", DataTypes.StringType, false)
      .add("to_app_id", DataTypes.StringType, false)
      .add("from_slots", DataTypes.IntegerType, false)
      .add("to_slots", DataTypes.IntegerType, false)
      .add("actual_s", DataTypes.DoubleType, false)
      .add("simulated_s", DataTypes.DoubleType, false)
      .add("simulated_error_pct", DataTypes.DoubleType, false)
      .add("fork_join_s", DataTypes.DoubleType, false)
      .add("fork_join_error_pct", DataTypes.DoubleType, false)
      .add("task_precedence_s", DataTypes.DoubleType, false)
      .add("task_precedence_error_pct", DataTypes.DoubleType, false);

  private ModelTables() {}
}
