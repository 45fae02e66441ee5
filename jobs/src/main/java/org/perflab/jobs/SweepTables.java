package org.perflab.jobs;

import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.perflab.sweep.BestPoint;
import org.perflab.sweep.PointResult;

/** The schemas and rows of {@code sweep_results} and {@code sweep_best} (documented in docs/tables.md). */
final class SweepTables {
  private SweepTables() {}

  static final String RESULTS_TABLE = "sweep_results";
  static final String BEST_TABLE = "sweep_best";

  static final StructType RESULTS = new StructType(new StructField[] {
    field("log_id", DataTypes.StringType, true),
    field("executors", DataTypes.IntegerType, false),
    field("cores_per_executor", DataTypes.IntegerType, false),
    field("executor_memory_gb", DataTypes.DoubleType, true),
    field("task_cpus", DataTypes.IntegerType, false),
    field("slots", DataTypes.IntegerType, false),
    field("rule", DataTypes.StringType, false),
    field("replications", DataTypes.IntegerType, false),
    field("applications", DataTypes.LongType, false),
    field("tasks", DataTypes.LongType, false),
    field("mean_s", DataTypes.DoubleType, false),
    field("std_s", DataTypes.DoubleType, false),
    field("ci_low_s", DataTypes.DoubleType, false),
    field("ci_high_s", DataTypes.DoubleType, false),
    field("p50_s", DataTypes.DoubleType, false),
    field("p90_s", DataTypes.DoubleType, false),
    field("p99_s", DataTypes.DoubleType, false),
    field("core_hours", DataTypes.DoubleType, false),
    field("gb_hours", DataTypes.DoubleType, true),
    field("base_seed", DataTypes.LongType, false),
    field("trial_seeds", DataTypes.createArrayType(DataTypes.LongType, false), false),
  });

  static final StructType BEST = new StructType(new StructField[] {
    field("log_id", DataTypes.StringType, true),
    field("kind", DataTypes.StringType, false),
    field("statistic", DataTypes.StringType, false),
    field("deadline_s", DataTypes.DoubleType, true),
    field("time_s", DataTypes.DoubleType, false),
    field("executors", DataTypes.IntegerType, false),
    field("cores_per_executor", DataTypes.IntegerType, false),
    field("executor_memory_gb", DataTypes.DoubleType, true),
    field("slots", DataTypes.IntegerType, false),
    field("mean_s", DataTypes.DoubleType, false),
    field("p90_s", DataTypes.DoubleType, false),
    field("core_hours", DataTypes.DoubleType, false),
    field("gb_hours", DataTypes.DoubleType, true),
  });

  static Row resultRow(PointResult r, String logId) {
    return RowFactory.create(logId, r.point().executors(), r.point().coresPerExecutor(), memory(r), r.taskCpus(), r.slots(),
        r.rule(), r.replications(), r.applications(), r.tasks(), r.meanS(), r.stdS(), r.ciLowS(), r.ciHighS(),
        r.p50S(), r.p90S(), r.p99S(), r.coreHours(), r.memoryInGrid() ? r.gbHours() : null, r.baseSeed(),
        r.trialSeeds());
  }

  static Row bestRow(BestPoint b, String logId) {
    PointResult r = b.result();
    return RowFactory.create(logId, lower(b.kind().name()), lower(b.statistic().name()),
        b.kind() == BestPoint.Kind.DEADLINE ? b.deadlineS() : null, b.timeS(), r.point().executors(),
        r.point().coresPerExecutor(), memory(r), r.slots(), r.meanS(), r.p90S(), r.coreHours(),
        r.memoryInGrid() ? r.gbHours() : null);
  }

  /** The rows of a sweep of the model of log {@code logId} (null for a model file). */
  static List<Row> resultRows(List<PointResult> results, String logId) {
    return results.stream().map(r -> resultRow(r, logId)).toList();
  }

  static List<Row> bestRows(List<BestPoint> best, String logId) {
    return best.stream().map(b -> bestRow(b, logId)).toList();
  }

  private static Double memory(PointResult r) {
    return r.memoryInGrid() ? r.point().executorMemoryGb() : null;
  }

  private static String lower(String s) {
    return s.toLowerCase(java.util.Locale.ROOT);
  }

  private static StructField field(String name, org.apache.spark.sql.types.DataType type, boolean nullable) {
    return DataTypes.createStructField(name, type, nullable);
  }
}
