package org.perflab.spark.regress;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The features runtime regression predicts a run's log duration from, each a Spark SQL expression over a run's
 * columns ({@code org.perflab.spark.prediction.RunTable#SCHEMA}) joined with its workload's {@link WorkloadFeatures} (null
 * when the workload has no training run). Logarithms are natural; sizes are in bytes, durations in seconds.
 *
 * <p>A feature that can be null is imputed with its median over the training rows (MLlib {@code Imputer}); one that
 * is null on every training row is left out of that fit. This list is the one place the features are named:
 * docs/jobs.md ("regress") lists it too.
 */
public enum RuntimeFeature {
  /** ln(input bytes + 1). */
  LOG_INPUT_BYTES("ln(input_bytes + 1)", false),
  /** ln(total cores): the task slots. */
  LOG_TOTAL_CORES("ln(total_cores)", false),
  /** ln(executors). */
  LOG_EXECUTORS("ln(executors)", false),
  /** Cores per executor. */
  CORES_PER_EXECUTOR("cast(cores_per_executor AS double)", false),
  /** ln(executor memory bytes); null when unknown. */
  LOG_EXECUTOR_MEMORY("ln(executor_memory_bytes)", true),
  /** 1 when the executor memory is unknown (and {@link #LOG_EXECUTOR_MEMORY} imputed), else 0. */
  EXECUTOR_MEMORY_UNKNOWN("if(executor_memory_bytes IS NULL, 1.0, 0.0)", false),
  /** ln((input bytes + 1) ÷ total cores): the bytes each slot must process. */
  LOG_INPUT_BYTES_PER_CORE("ln((input_bytes + 1) / total_cores)", false),
  /** The workload's median ln(duration s) over its training runs. */
  WORKLOAD_MEDIAN_LOG_DURATION(WorkloadFeatures.MEDIAN_LOG_DURATION, true),
  /** The workload's median ln(duration s × total cores ÷ (input bytes + 1)): core-seconds per byte. */
  WORKLOAD_MEDIAN_LOG_CORE_S_PER_BYTE(WorkloadFeatures.MEDIAN_LOG_CORE_S_PER_BYTE, true),
  /**
   * ln of the duration (s) this run would take at its workload's median core-seconds per byte: that median + ln((input
   * bytes + 1) ÷ total cores). A sum of two features above, given whole so that trees need not learn the sum.
   */
  LOG_SCALED_DURATION(WorkloadFeatures.MEDIAN_LOG_CORE_S_PER_BYTE + " + ln((input_bytes + 1) / total_cores)", true),
  /**
   * The workload's own log-log fit of duration on bytes per core, at this run: ln duration = intercept + slope ×
   * ln((input bytes + 1) ÷ total cores), fitted over its training runs; where they barely vary bytes per core, the
   * perfect-scaling estimate of {@link #LOG_SCALED_DURATION}.
   */
  LOG_FITTED_DURATION("coalesce(" + WorkloadFeatures.LOG_DURATION_INTERCEPT + " + "
      + WorkloadFeatures.LOG_DURATION_SLOPE + " * ln((input_bytes + 1) / total_cores), "
      + WorkloadFeatures.MEDIAN_LOG_CORE_S_PER_BYTE + " + ln((input_bytes + 1) / total_cores))", true),
  /** ln(the workload's training runs). */
  WORKLOAD_LOG_TRAINING_RUNS("ln(" + WorkloadFeatures.TRAINING_RUNS + ")", true),
  /** ln(1 + the workload's median shuffle bytes read per input byte); from {@code app_features}. */
  WORKLOAD_LOG_SHUFFLE_READ_PER_INPUT_BYTE("ln(1 + " + WorkloadFeatures.SHUFFLE_READ_PER_INPUT_BYTE + ")", true),
  /** The workload's median GC share of executor run time; from {@code app_features}. */
  WORKLOAD_GC_SHARE(WorkloadFeatures.GC_SHARE, true),
  /** The workload's median executor-core utilisation; from {@code app_features}. */
  WORKLOAD_UTILIZATION(WorkloadFeatures.UTILIZATION, true),
  /** The workload's median share of wall time with no task running; from {@code app_features}. */
  WORKLOAD_DRIVER_ONLY_SHARE(WorkloadFeatures.DRIVER_ONLY_SHARE, true),
  /** ln(1 + the workload's median disk-spilled bytes per input byte); from {@code app_features}. */
  WORKLOAD_LOG_SPILL_PER_INPUT_BYTE("ln(1 + " + WorkloadFeatures.SPILL_PER_INPUT_BYTE + ")", true);

  private final String sql;
  private final boolean nullable;

  RuntimeFeature(String sql, boolean nullable) {
    this.sql = sql;
    this.nullable = nullable;
  }

  /** The feature's column in the pipeline: {@code feature_<name in lower case>}. */
  public String column() {
    return "feature_" + name().toLowerCase(Locale.ROOT);
  }

  /** The column the assembler reads: the imputed copy of a nullable feature, the feature itself otherwise. */
  String assembled() {
    return nullable ? "imputed_" + column() : column();
  }

  /** Whether the feature can be null, and is then imputed. */
  public boolean nullable() {
    return nullable;
  }

  /** The SQL statement of the pipeline's first stage: every feature, as a double, beside the input columns. */
  static String statement() {
    return "SELECT *, " + Arrays.stream(values())
        .map(f -> "CAST(" + f.sql + " AS double) AS " + f.column())
        .collect(Collectors.joining(", ")) + " FROM __THIS__";
  }
}
