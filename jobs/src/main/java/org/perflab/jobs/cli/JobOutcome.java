package org.perflab.jobs.cli;

/**
 * What a job run in a session returns, besides what it printed: its exit code and the first line of its summary
 * (such as {@code "features: incremental run ..., 3 applications recomputed"}). The nightly pipeline reads a step's
 * result from here, not from the console.
 *
 * @param code the job's exit code: {@link ExitCode#SUCCESS}, {@link ExitCode#BAD_INPUT} for a job that wrote what it
 *     could and skipped bad input, {@link ExitCode#FAILURE} for a check that failed (doctor); a job that cannot do its
 *     work throws instead, and {@link Failures} turns that into an exit code
 * @param message the summary's first line; empty when the job printed none
 */
public record JobOutcome(ExitCode code, String message) {
  public JobOutcome {
    message = message == null ? "" : message;
  }

  /** Prints {@code summary} ({@link RunSummary#print}) and returns it as the outcome of a run that exits {@code code}. */
  public static JobOutcome printed(ExitCode code, String summary) {
    RunSummary.print(summary);
    return new JobOutcome(code, firstLine(summary));
  }

  /** {@link #printed} for a successful run. */
  public static JobOutcome printed(String summary) {
    return printed(ExitCode.SUCCESS, summary);
  }

  private static String firstLine(String text) {
    int end = text.indexOf('\n');
    return (end < 0 ? text : text.substring(0, end)).strip();
  }
}
