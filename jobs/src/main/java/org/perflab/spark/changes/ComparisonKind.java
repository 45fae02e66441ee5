package org.perflab.spark.changes;

/** What a row of the {@code comparisons} table compares. */
public enum ComparisonKind {
  /** A total of each run: wall time, task time, task slots. */
  RUN,
  /** An effective Spark property (or the Spark version) that differs. */
  CONFIGURATION,
  /**
   * The runs' SQL physical plans ({@link org.perflab.changes.RunSettings#planShown}: join operators and fingerprint),
   * one row when either run has SQL.
   */
  PLAN,
  /** Input, shuffle or output bytes or records, summed over the run's stages. */
  DATA,
  /** A stage of either run, aligned with its counterpart in the other ({@link StageMatch}). */
  STAGE
}
