package org.perflab.spark.workload;

import java.util.Locale;

/**
 * What the {@code stragglers} workload does to its injected tasks, and the root cause a straggler detector should
 * name for them (the vocabulary of the {@code stragglers} table's {@code causes}).
 */
public enum Injection {
  /** No injection: every task does like work (a control run). */
  NONE(Side.MAP, "NONE"),
  /** The injected reduce partitions read {@code factor} times the shuffle records and bytes of the others. */
  DATA_SKEW(Side.REDUCE, "DATA_SKEW"),
  /** The injected tasks churn garbage that lives long enough to be copied, on like data: JVM GC time. */
  GC(Side.MAP, "GC"),
  /** The injected tasks compute {@code factor} times longer on like data: executor CPU time. */
  CPU(Side.MAP, "CPU"),
  /**
   * The injected reduce partitions read as many records and bytes as the others, but every key distinct, so their
   * aggregation map outgrows the (small) execution memory and spills.
   */
  SPILL(Side.REDUCE, "SPILL"),
  /** The injected tasks sleep: run time only, no metric moves, so no cause can be named ({@code NONE}). */
  SLEEP(Side.MAP, "NONE");

  /** Where the injection happens: in a single-stage job's tasks, or in the shuffle-reading stage of a job. */
  public enum Side {
    MAP,
    REDUCE
  }

  private final Side side;
  private final String expectedCause;

  Injection(Side side, String expectedCause) {
    this.side = side;
    this.expectedCause = expectedCause;
  }

  public Side side() {
    return side;
  }

  /** The cause a detector should report for an injected task; {@code NONE}: a straggler with no nameable cause. */
  public String expectedCause() {
    return expectedCause;
  }

  /** Lower-case id with dashes, e.g. {@code data-skew}, as {@code --inject} takes it. */
  public String id() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** Parses an id ({@code data-skew}) or a name ({@code DATA_SKEW}), case-insensitively. */
  public static Injection parse(String text) {
    String name = text.trim().toUpperCase(Locale.ROOT).replace('-', '_');
    for (Injection injection : values()) {
      if (injection.name().equals(name)) {
        return injection;
      }
    }
    throw new IllegalArgumentException(
        "Cannot parse injection: unknown type (" + text + "; valid: none, data-skew, gc, cpu, spill, sleep)");
  }
}
