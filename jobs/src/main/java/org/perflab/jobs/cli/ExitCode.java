package org.perflab.jobs.cli;

/** The process exit codes every PerfLab entry point uses. */
public enum ExitCode {
  /** The job did what was asked; skipped input is reported in status tables, not here. */
  SUCCESS(0),
  /** The job itself failed: a bug, a lost cluster, an unwritable output. */
  FAILURE(1),
  /** Bad arguments or unusable input, such as an {@code --input} that matches nothing. */
  BAD_INPUT(2);

  private final int code;

  ExitCode(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }
}
