package org.perflab.changes;

/** The kinds of difference {@link Attribution} ranks, from what the tables hold. */
public enum CauseKind {
  /** An effective Spark property, or the Spark version, differs. */
  CONFIGURATION,
  /** Input, shuffle or output bytes and records differ. */
  DATA,
  /** Executors granted versus requested, time waiting for executors, executors lost. */
  RESOURCES,
  /** The SQL physical plan or its join strategies changed, stages were added or removed. */
  PLAN,
  /** Matched stages grew: task time, GC, spill, shuffle fetch wait, skew. */
  STAGES,
  /** Failed and speculative tasks, retried stages. */
  FAILURES,
  /**
   * Outside the application: the same work (data, configuration, slots and stages unchanged) slower, every stage by a
   * similar factor, or its stages and the time outside them both.
   */
  ENVIRONMENT,
  /**
   * The time outside every stage grew (driver start-up, driver work and waiting between jobs and stages, after the
   * last stage) while the environment does not explain it; {@code what} names the part that grew most.
   */
  OUTSIDE_STAGES
}
