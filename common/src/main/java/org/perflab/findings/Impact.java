package org.perflab.findings;

/**
 * What a finding of a rule costs its application, the measure that bounds how severe it can be
 * ({@link ImpactLimits}): the time it would save, the capacity it wastes, or nothing when it is about the evidence.
 */
public enum Impact {
  /** Estimated savings in seconds: bounded by their share of the wall time and the core-hours they stand for. */
  TIME,
  /** Idle executor cores: bounded by the core-hours they waste. */
  CORE_HOURS,
  /** Executor memory never used: bounded by the GB-hours it wastes. */
  GB_HOURS,
  /** Lost events: the grade stands, since it says how far the other findings can be trusted. */
  EVIDENCE;

  /** The impact measure of {@code rule}'s findings. */
  public static Impact of(Rule rule) {
    return switch (rule) {
      case IDLE_EXECUTORS -> CORE_HOURS;
      case EXECUTOR_MEMORY_OVERSIZED -> GB_HOURS;
      case DROPPED_EVENTS -> EVIDENCE;
      default -> TIME;
    };
  }
}
