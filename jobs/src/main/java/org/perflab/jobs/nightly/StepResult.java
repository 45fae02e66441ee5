package org.perflab.jobs.nightly;

/**
 * What a step returned: its exit code and the first line of its summary (or of its failure).
 *
 * @param exitCode the job's exit code: 0 success, 2 bad input (it wrote what it could), 1 or any other code failure
 * @param message the job's summary line, or the line that explains its failure
 */
public record StepResult(int exitCode, String message) {
  public StepResult {
    message = message == null ? "" : message;
  }

  /** Whether the steps that depend on this one may run: it succeeded, or wrote what it could (exit 0 or 2). */
  public boolean usable() {
    return exitCode == 0 || exitCode == 2;
  }
}
