package org.perflab.jobs.nightly;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Runs one step of a night: in the night's own SparkSession, or as a submission of its own ({@code --separate}). */
public interface StepRunner {
  /**
   * Runs {@code step} with {@code arguments} (its job's name, then its options) as part of night {@code runId}.
   * Returns its result; a step that fails returns its failure's exit code and line instead of throwing.
   */
  StepResult run(Step step, List<String> arguments, String runId);

  /**
   * Told, once {@code step} has ended and before any step that depends on it starts, the rows it wrote per table
   * ({@link TableWrites#since}); the runner may change how the later steps run ({@link CompiledSql}). Returns a line
   * for the night's progress when it did. Nothing by default.
   */
  default Optional<String> wrote(Step step, Map<String, Long> rows) {
    return Optional.empty();
  }
}
