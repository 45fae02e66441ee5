package org.perflab.workload;

/** Defaults of the workloads that callers outside this package need. */
public final class Workloads {
  private Workloads() {}

  /** Sleep's task count, stage count and duration at {@code scale}, deterministic. */
  public static SleepSpec sleepDefaults(Scale scale) {
    return SleepWorkload.defaults(scale);
  }
}
