package org.perflab.spark.scaling;

import java.util.List;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/** The table {@code scaling} writes, {@code scaling_fits} (documented column by column in docs/tables.md). */
public final class ScalingTables {
  public static final String FITS_TABLE = "scaling_fits";

  /** Every table {@code scaling} writes. */
  public static final List<String> NAMES = List.of(FITS_TABLE);

  public static final String WORKLOAD_ID = "workload_id";
  public static final String SIZE_CLASS = "size_class";
  public static final String CORES_PER_EXECUTOR = "cores_per_executor";
  public static final String EXECUTOR_MEMORY_BYTES = "executor_memory_bytes";
  public static final String TOTAL_CORES = "total_cores";
  public static final String MODEL = "model";

  private static final DataType DOUBLE = DataTypes.DoubleType;

  /** One row per series and model: see docs/tables.md#scaling_fits. */
  public static final StructType FITS = new StructType()
      .add(WORKLOAD_ID, DataTypes.StringType, false)
      .add(SIZE_CLASS, DataTypes.IntegerType, true)
      .add(CORES_PER_EXECUTOR, DataTypes.IntegerType, true)
      .add(EXECUTOR_MEMORY_BYTES, DataTypes.LongType, true)
      .add(MODEL, DataTypes.StringType, false)
      .add("points", DataTypes.IntegerType, false)
      .add("runs", DataTypes.LongType, false)
      .add(TOTAL_CORES, DataTypes.createArrayType(DataTypes.IntegerType, false), false)
      .add("params", DataTypes.createMapType(DataTypes.StringType, DOUBLE, false), true)
      .add("t_s", DOUBLE, true)
      .add("f", DOUBLE, true)
      .add("a", DOUBLE, true)
      .add("b", DOUBLE, true)
      .add("c", DOUBLE, true)
      .add("r2", DOUBLE, true)
      .add("loo_error_pct", DOUBLE, true)
      .add("n_star", DOUBLE, true)
      .add("min_runtime_s", DOUBLE, true)
      .add("best", DataTypes.BooleanType, false)
      .add("note", DataTypes.StringType, true);

  private ScalingTables() {}
}
