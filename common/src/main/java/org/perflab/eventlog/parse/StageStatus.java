package org.perflab.eventlog.parse;

/** A stage attempt's status, with the History Server's names. */
enum StageStatus {
  /** Named by a job, not yet submitted. */
  PENDING,
  /** Submitted, not completed in the log. */
  ACTIVE,
  COMPLETE,
  FAILED,
  /** Never ran because its output already existed. */
  SKIPPED;

  boolean isTerminal() {
    return this == COMPLETE || this == FAILED || this == SKIPPED;
  }
}
