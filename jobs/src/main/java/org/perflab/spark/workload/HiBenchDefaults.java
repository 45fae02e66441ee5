package org.perflab.spark.workload;

/** Defaults of the workloads that callers outside this package need. */
public final class HiBenchDefaults {
  private HiBenchDefaults() {}

  /** Sleep's task count, stage count and duration at {@code scale}, deterministic. */
  public static SleepSpec sleepDefaults(Scale scale) {
    return SleepWorkload.defaults(scale);
  }
}
