package org.perflab.findings;

/**
 * The rules of the {@code findings} table. The enum name is the stable id written to {@code findings.rule}; each
 * rule grades one metric with its {@link Thresholds} (see {@link FindingLimits} and docs/findings.md).
 */
public enum Rule {
  DATA_SKEW(Scope.STAGE, FindingLimits.SKEW_MAX_OVER_MEDIAN),
  TINY_TASKS(Scope.STAGE, FindingLimits.TINY_TASK_MEDIAN_MS),
  TOO_FEW_PARTITIONS(Scope.STAGE, FindingLimits.FEW_SLOTS_OVER_TASKS),
  SHUFFLE_PARTITIONS(Scope.STAGE, FindingLimits.SHUFFLE_PARTITION_FACTOR),
  SPILL(Scope.STAGE, FindingLimits.SPILL_RATIO),
  GC_PRESSURE(Scope.APPLICATION, FindingLimits.GC_SHARE),
  IDLE_EXECUTORS(Scope.APPLICATION, FindingLimits.IDLE_SHARE),
  EXECUTOR_MEMORY_OVERSIZED(Scope.APPLICATION, FindingLimits.MEMORY_OVER_PEAK),
  WASTED_TASKS(Scope.APPLICATION, FindingLimits.WASTED_TASK_SHARE),
  DRIVER_BOUND(Scope.APPLICATION, FindingLimits.DRIVER_SHARE),
  SLOW_HOSTS(Scope.APPLICATION, FindingLimits.SLOW_HOST_SHARE),
  COLD_EXECUTORS(Scope.APPLICATION, FindingLimits.COLD_EXECUTOR_SHARE),
  DROPPED_EVENTS(Scope.APPLICATION, FindingLimits.DROPPED_EVENT_COUNT),
  BROADCAST_JOIN_CANDIDATE(Scope.SQL_OPERATOR, FindingLimits.BROADCAST_SIDE_OVER_THRESHOLD),
  HOT_SQL_OPERATOR(Scope.SQL_OPERATOR, FindingLimits.OPERATOR_TIME_SHARE);

  /** What a finding of the rule is about: which of stage_id or execution_id/node_id it fills. */
  public enum Scope {
    APPLICATION,
    STAGE,
    SQL_OPERATOR
  }

  private final Scope scope;
  private final Thresholds thresholds;

  Rule(Scope scope, Thresholds thresholds) {
    this.scope = scope;
    this.thresholds = thresholds;
  }

  public Scope scope() {
    return scope;
  }

  public Thresholds thresholds() {
    return thresholds;
  }
}
