package org.perflab.spark.clustering;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.spark.sql.types.StructType;
import org.perflab.errors.BadInputException;
import org.perflab.table.KeyColumns;

/**
 * The features {@code cluster} groups applications by, each computed from columns of {@code app_features}: a column
 * as it is, or a ratio of two. They describe what a workload does, not how it was configured, so that runs of one
 * workload at other executor counts, cores or memory fall together: shares of task time, bytes per input byte or
 * per task, time per task, tasks per stage, and totals that do not depend on the executors (input, task time, driver
 * time, stages, the critical path). Wall time, utilisation, executors, cores and memory are left out on purpose, and
 * so is spill, which follows executor memory.
 *
 * <p>A value that is null, or a ratio whose denominator is null or not positive, counts as 0. A log-scaled feature is
 * clustered as {@code log1p(max(value, 0))}; every feature is then standardised to mean 0 and standard deviation 1 over
 * the applications clustered. This list is the one place the columns are named: docs/tables.md ("cluster_centers")
 * lists it too.
 */
public enum ClusterFeature {
  /** Total task time (s): the work done, whatever the slots. */
  TASK_TIME_S("task_time_s", null, true),
  /** Bytes read from storage. */
  INPUT_BYTES("input_bytes", null, true),
  /** Driver-only time (s), when no task runs: planning, collecting, driver-side work. */
  DRIVER_ONLY_S("driver_only_s", null, true),
  /** The critical path (s): the application's time with unlimited executors. */
  CRITICAL_PATH_S("critical_path_s", null, true),
  /** Stages run. */
  STAGES("stages", null, true),
  /** Tasks per stage. */
  TASKS_PER_STAGE("tasks", "stages", true),
  /** Mean task time (s per task). */
  TASK_TIME_PER_TASK_S("task_time_s", "tasks", true),
  /** Input bytes per task. */
  INPUT_BYTES_PER_TASK("input_bytes", "tasks", true),
  /** Shuffle bytes written per input byte. */
  SHUFFLE_WRITE_PER_INPUT_BYTE("shuffle_write_bytes", "input_bytes", true),
  /** Output bytes written per input byte. */
  OUTPUT_PER_INPUT_BYTE("output_bytes", "input_bytes", true),
  /** GC time ÷ task time. */
  GC_SHARE("gc_share", null, false),
  /** (De)serialisation time ÷ task time. */
  SERIALIZATION_SHARE("serialization_share", null, false),
  /** Failed tasks ÷ tasks. */
  FAILED_TASK_SHARE("failed_tasks", "tasks", false);

  /** The {@code app_features} column of each application's workload. */
  public static final String WORKLOAD_ID = "workload_id";
  /** The {@code app_features} column of each application's wall time (s), for the clusters' typical runtime. */
  public static final String WALL_TIME_S = "wall_time_s";

  private final String numerator;
  private final String denominator;
  private final boolean logScaled;

  ClusterFeature(String numerator, String denominator, boolean logScaled) {
    this.numerator = numerator;
    this.denominator = denominator;
    this.logScaled = logScaled;
  }

  /** The feature's name in the outputs ({@code cluster_centers.center} keys): the constant's name in lower case. */
  public String featureName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Whether the feature is clustered as {@code log1p} of its value. */
  public boolean logScaled() {
    return logScaled;
  }

  /** The {@code app_features} columns the feature is computed from. */
  public List<String> columns() {
    return denominator == null ? List.of(numerator) : List.of(numerator, denominator);
  }

  /** The feature's value before log scaling, as a Spark SQL expression over {@code app_features}. */
  public String valueSql() {
    String value = denominator == null
        ? "CAST(" + numerator + " AS DOUBLE)"
        : "CAST(" + numerator + " AS DOUBLE) / CASE WHEN " + denominator + " > 0 THEN " + denominator + " END";
    return "COALESCE(" + value + ", 0D)";
  }

  /** The value as clustered, before standardisation: {@code log1p(max(value, 0))} when log-scaled, else the value. */
  public String clusteredSql() {
    return logScaled ? "LOG1P(GREATEST(" + valueSql() + ", 0D))" : valueSql();
  }

  /** The feature's value as clustered, from its value: the inverse of {@link #fromClustered(double)}. */
  public double toClustered(double value) {
    return logScaled ? Math.log1p(Math.max(value, 0)) : value;
  }

  /** The feature's value from its clustered value (before standardisation). */
  public double fromClustered(double clustered) {
    return logScaled ? Math.expm1(clustered) : clustered;
  }

  /** Every column of {@code app_features} clustering reads: the key, the workload, wall time and the features'. */
  public static Set<String> requiredColumns() {
    Set<String> columns = new LinkedHashSet<>(List.of(KeyColumns.LOG_ID, KeyColumns.APP_ID,
        KeyColumns.APP_ATTEMPT_ID, WORKLOAD_ID, WALL_TIME_S));
    Arrays.stream(values()).forEach(f -> columns.addAll(f.columns()));
    return columns;
  }

  /**
   * Checks that {@code appFeatures} has every column clustering reads.
   *
   * @throws BadInputException naming the first column missing
   */
  public static void requireColumns(StructType appFeatures) {
    Set<String> have = Set.of(appFeatures.fieldNames());
    for (String column : requiredColumns()) {
      BadInputException.require(have.contains(column),
          "Cannot cluster: app_features lacks column %s (run perflab features)", column);
    }
  }
}
