package org.perflab.jobs.nightly;

import java.util.List;

/** Runs one step of a night: in the night's own SparkSession, or as a submission of its own ({@code --separate}). */
public interface StepRunner {
  /**
   * Runs {@code step} with {@code arguments} (its job's name, then its options) as part of night {@code runId}.
   * Returns its result; a step that fails returns its failure's exit code and line instead of throwing.
   */
  StepResult run(Step step, List<String> arguments, String runId);
}
