package org.perflab.spark.sweep;

import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.perflab.sweep.BestPoint;
import org.perflab.sweep.PointResult;

/** The schemas and rows of {@code sweep_results} and {@code sweep_best} (documented in docs/tables.md). */
public final class SweepTables {
  private SweepTables() {}

  /**
   * What was swept: the log and workload of a {@code dag_models} row, or neither for a model file.
   *
   * @param logId the swept model's log; null for a model file
   * @param workloadId its workload id by the workload rule; null for a model file
   */
  public record Swept(String logId, String workloadId) {
    public static final Swept MODEL_FILE = new Swept(null, null);
  }

  public static final String RESULTS_TABLE = "sweep_results";
  public static final String BEST_TABLE = "sweep_best";

  public static final StructType RESULTS = new StructType(new StructField[] {
    field("log_id", DataTypes.StringType, true),
    field("workload_id", DataTypes.StringType, true),
    field("executors", DataTypes.IntegerType, false),
    field("cores_per_executor", DataTypes.IntegerType, false),
    field("executor_memory_gb", DataTypes.DoubleType, true),
    field("input_bytes", DataTypes.LongType, true),
    field("codec", DataTypes.StringType, true),
    field("serializer", DataTypes.StringType, true),
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

  public static final StructType BEST = new StructType(new StructField[] {
    field("log_id", DataTypes.StringType, true),
    field("workload_id", DataTypes.StringType, true),
    field("rule", DataTypes.StringType, false),
    field("kind", DataTypes.StringType, false),
    field("statistic", DataTypes.StringType, false),
    field("deadline_s", DataTypes.DoubleType, true),
    field("time_s", DataTypes.DoubleType, false),
    field("executors", DataTypes.IntegerType, false),
    field("cores_per_executor", DataTypes.IntegerType, false),
    field("executor_memory_gb", DataTypes.DoubleType, true),
    field("input_bytes", DataTypes.LongType, true),
    field("codec", DataTypes.StringType, true),
    field("serializer", DataTypes.StringType, true),
    field("slots", DataTypes.IntegerType, false),
    field("mean_s", DataTypes.DoubleType, false),
    field("p90_s", DataTypes.DoubleType, false),
    field("core_hours", DataTypes.DoubleType, false),
    field("gb_hours", DataTypes.DoubleType, true),
  });

  public static Row resultRow(PointResult r, Swept swept) {
    return RowFactory.create(swept.logId(), swept.workloadId(), r.point().executors(), r.point().coresPerExecutor(),
        memory(r), input(r), codec(r), serializer(r), r.taskCpus(), r.slots(),
        r.rule(), r.replications(), r.applications(), r.tasks(), r.meanS(), r.stdS(), r.ciLowS(), r.ciHighS(),
        r.p50S(), r.p90S(), r.p99S(), r.coreHours(), r.memoryInGrid() ? r.gbHours() : null, r.baseSeed(),
        r.trialSeeds());
  }

  public static Row bestRow(BestPoint b, Swept swept) {
    PointResult r = b.result();
    return RowFactory.create(swept.logId(), swept.workloadId(), r.rule(), lower(b.kind().name()),
        lower(b.statistic().name()), b.kind() == BestPoint.Kind.DEADLINE ? b.deadlineS() : null, b.timeS(),
        r.point().executors(), r.point().coresPerExecutor(), memory(r), input(r), codec(r), serializer(r), r.slots(),
        r.meanS(), r.p90S(), r.coreHours(), r.memoryInGrid() ? r.gbHours() : null);
  }

  /** The rows of a sweep of {@code swept}'s model. */
  public static List<Row> resultRows(List<PointResult> results, Swept swept) {
    return results.stream().map(r -> resultRow(r, swept)).toList();
  }

  public static List<Row> bestRows(List<BestPoint> best, Swept swept) {
    return best.stream().map(b -> bestRow(b, swept)).toList();
  }

  private static Double memory(PointResult r) {
    return r.memoryInGrid() ? r.point().executorMemoryGb() : null;
  }

  /** The point's input size in bytes; null when the grid has none. */
  private static Long input(PointResult r) {
    return r.point().inputBytes() > 0 ? r.point().inputBytes() : null;
  }

  /** The point's {@code spark.io.compression.codec} short name; null when the grid has no codecs. */
  private static String codec(PointResult r) {
    return r.point().codec() == null ? null : r.point().codec().shortName();
  }

  /** The point's {@code spark.serializer} short name ({@code java}, {@code kryo}); null when the grid has none. */
  private static String serializer(PointResult r) {
    return r.point().serializer() == null ? null : r.point().serializer().shortName();
  }

  private static String lower(String s) {
    return s.toLowerCase(java.util.Locale.ROOT);
  }

  private static StructField field(String name, org.apache.spark.sql.types.DataType type, boolean nullable) {
    return DataTypes.createStructField(name, type, nullable);
  }
}
