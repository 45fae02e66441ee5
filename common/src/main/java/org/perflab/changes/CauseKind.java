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
  /** Every stage slower by a similar factor with data and configuration unchanged: outside the application. */
  ENVIRONMENT
}
