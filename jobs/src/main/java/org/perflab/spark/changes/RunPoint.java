package org.perflab.spark.changes;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.when;

import java.util.Comparator;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.perflab.table.KeyColumns;

/**
 * One run of a workload as the regression test sees it: when it started and what it cost. Costs in seconds,
 * core-hours (executor cores × their time alive) and GB-hours (executor memory in GiB × executors' time alive).
 *
 * @param startMs application start, epoch ms UTC; {@code Long.MIN_VALUE} when unknown (sorts first)
 * @param wallS application start to end; NaN for an incomplete log
 * @param coreHours {@code app_features.executor_core_s_available} ÷ 3600; NaN when unknown
 * @param gbHours executor memory (GB, 10^9 bytes) × executor-seconds alive ÷ 3600; NaN without {@code spark.executor.memory}
 */
public record RunPoint(String workloadId, String logId, String appId, String appAttemptId, long startMs,
    double wallS, double coreHours, double gbHours) {
  /** Start time, then app id and log id: the order runs are judged in, whatever order they were ingested in. */
  public static final Comparator<RunPoint> START_ORDER = Comparator.comparingLong(RunPoint::startMs)
      .thenComparing(RunPoint::appId).thenComparing(RunPoint::logId);

  private static final double GB = 1e9;

  /** Every run of {@code workloads} with its costs from {@code app_features}; one Spark job. */
  public static List<RunPoint> collect(Dataset<Row> workloads, Dataset<Row> appFeatures) {
    Column coreS = col("f.executor_core_s_available");
    Column executorS = coreS.divide(col("f.cores_per_executor"));
    Column complete = col("f.completed").equalTo(true);
    return workloads.as("w").join(appFeatures.as("f"), col("w.log_id").equalTo(col("f.log_id"))
            .and(col("w.app_id").equalTo(col("f.app_id"))).and(col("w.app_attempt_id").equalTo(col("f.app_attempt_id"))))
        .select(col("w.workload_id"), col("w." + KeyColumns.LOG_ID), col("w." + KeyColumns.APP_ID),
            col("w." + KeyColumns.APP_ATTEMPT_ID), col("w.start_time_ms"),
            when(complete, col("f.wall_time_s")).as("wall_s"),
            when(complete, coreS.divide(3600)).as("core_hours"),
            when(complete, col("f.executor_memory_bytes").divide(lit(GB)).multiply(executorS).divide(3600))
                .as("gb_hours"))
        .collectAsList().stream().map(RunPoint::of).sorted(START_ORDER).toList();
  }

  private static RunPoint of(Row r) {
    return new RunPoint(r.getString(0), r.getString(1), r.getString(2), r.getString(3),
        r.isNullAt(4) ? Long.MIN_VALUE : r.getLong(4), number(r, 5), number(r, 6), number(r, 7));
  }

  private static double number(Row r, int i) {
    return r.isNullAt(i) ? Double.NaN : ((Number) r.get(i)).doubleValue();
  }
}
