package org.perflab.jobs.nightly;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.perflab.jobs.cli.OutcomeFile;

/**
 * Runs each step as a submission of its own ({@code --separate}): {@code <launcher> [spark options] <job> <options>},
 * the launcher being {@code submit/perflab} (which sets {@code PERFLAB_SUBMIT} to itself). The step's console is the
 * night's; its exit code is the process's, and its summary line the one it leaves in its {@link OutcomeFile}. A night
 * that is stopped stops the step it is running.
 */
public final class SubmitSteps implements StepRunner {
  /** The environment variable submit/perflab sets to itself. */
  public static final String LAUNCHER = "PERFLAB_SUBMIT";

  private final String launcher;
  private final List<String> sparkOptions;
  /** Options the steps get from some point of the night on ({@link #wrote}). */
  private final List<String> laterOptions = new java.util.concurrent.CopyOnWriteArrayList<>();

  /**
   * @param launcher the launcher's path
   * @param sparkOptions spark-submit options every step's submission gets (such as {@code --master URL})
   */
  public SubmitSteps(String launcher, List<String> sparkOptions) {
    this.launcher = launcher;
    this.sparkOptions = List.copyOf(sparkOptions);
  }

  @Override
  public StepResult run(Step step, List<String> arguments, String runId) {
    Path outcome = null;
    try {
      outcome = Files.createTempFile("perflab-" + step.job() + "-", ".outcome");
      ProcessBuilder builder = new ProcessBuilder(command(arguments)).inheritIO();
      builder.environment().put(OutcomeFile.VARIABLE, outcome.toString());
      Process process = builder.start();
      Thread stop = new Thread(process::destroy, "perflab-nightly-stop-" + step.job());
      Runtime.getRuntime().addShutdownHook(stop);
      int code = waitFor(process);
      Runtime.getRuntime().removeShutdownHook(stop);
      String message = OutcomeFile.read(outcome).map(OutcomeFile.JobOutcomeLine::message)
          .orElse("exit " + code + " without a summary (its console and log say why)");
      return new StepResult(code, message);
    } catch (IOException e) {
      return new StepResult(1, "Cannot submit " + step.job() + ": " + e.getMessage() + " (" + launcher + ")");
    } finally {
      if (outcome != null) {
        outcome.toFile().delete();
      }
    }
  }

  /** The submission of a step with {@code arguments}: the launcher, the Spark options, then the job's arguments. */
  List<String> command(List<String> arguments) {
    List<String> command = new ArrayList<>();
    command.add(launcher);
    command.addAll(sparkOptions);
    command.addAll(laterOptions);
    command.addAll(arguments);
    return command;
  }

  /**
   * After an ingest of millions of task rows, every later submission compiles its SQL expressions ({@link CompiledSql}):
   * {@code --conf key=value} for each key the night's Spark options do not set.
   */
  @Override
  public Optional<String> wrote(Step step, Map<String, Long> rows) {
    return CompiledSql.after(step, rows).map(settings -> {
      List<String> changed = new ArrayList<>();
      settings.forEach((key, value) -> {
        if (!sets(sparkOptions, key) && !sets(laterOptions, key)) {
          laterOptions.addAll(List.of("--conf", key + "=" + value));
          changed.add(key);
        }
      });
      return CompiledSql.line(rows, changed);
    });
  }

  /** Whether {@code options} set Spark property {@code key} ({@code --conf key=value} or {@code --conf=key=value}). */
  private static boolean sets(List<String> options, String key) {
    for (int i = 0; i < options.size(); i++) {
      String option = options.get(i);
      if (option.startsWith("--conf=" + key + "=")
          || option.equals("--conf") && i + 1 < options.size() && options.get(i + 1).startsWith(key + "=")) {
        return true;
      }
    }
    return false;
  }

  private static int waitFor(Process process) {
    try {
      return process.waitFor();
    } catch (InterruptedException e) {
      process.destroy();
      Thread.currentThread().interrupt();
      throw new UncheckedIOException(new IOException("interrupted while " + process.pid() + " ran", e));
    }
  }
}
