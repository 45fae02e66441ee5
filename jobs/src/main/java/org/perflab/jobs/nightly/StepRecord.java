package org.perflab.jobs.nightly;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * One step of one night, as {@code nightly_runs} keeps it.
 *
 * @param runId the night's run id
 * @param step the step's job
 * @param startedAt when the step started (or was skipped)
 * @param seconds how long it ran, in seconds; 0 for a skipped step
 * @param exitCode its exit code; empty when it was skipped
 * @param rowsWritten rows the step's commits wrote, per table it committed to (0 for a commit that wrote no rows,
 *     such as OPTIMIZE)
 * @param message its summary line, or its failure's
 * @param skippedReason why it did not run; empty when it ran
 */
public record StepRecord(String runId, String step, Instant startedAt, double seconds, Optional<Integer> exitCode,
    Map<String, Long> rowsWritten, String message, Optional<String> skippedReason) {
  public StepRecord {
    rowsWritten = Map.copyOf(rowsWritten);
  }

  /** Whether the steps that depend on this one may run. */
  public boolean usable() {
    return exitCode.map(code -> code == 0 || code == 2).orElse(false);
  }
}
