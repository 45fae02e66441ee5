package org.perflab.jobs.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A job's outcome handed to the process that launched it: when {@code PERFLAB_OUTCOME_FILE} names a file, a job writes
 * its exit code on the first line and its summary line (or its failure's) on the second. The nightly pipeline's
 * {@code --separate} mode reads a step's result from there, not from its console.
 */
public final class OutcomeFile {
  /** The environment variable naming the file. */
  public static final String VARIABLE = "PERFLAB_OUTCOME_FILE";
  private static final Logger LOG = LoggerFactory.getLogger(OutcomeFile.class);

  private OutcomeFile() {}

  /** Writes {@code code} and {@code message} to the file the environment names, if it names one; only warns. */
  static void write(int code, String message) {
    String file = System.getenv(VARIABLE);
    if (file == null || file.isBlank()) {
      return;
    }
    try {
      Files.writeString(Path.of(file), code + "\n" + message.replace('\n', ' ') + "\n", StandardCharsets.UTF_8);
    } catch (IOException e) {
      LOG.warn("Cannot write the job's outcome to {}: {}", file, e.getMessage());
    }
  }

  /** The exit code and message in {@code file}, or empty when the job wrote none. */
  public static Optional<JobOutcomeLine> read(Path file) {
    try {
      java.util.List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      return lines.isEmpty() ? Optional.empty()
          : Optional.of(new JobOutcomeLine(Integer.parseInt(lines.get(0).strip()), lines.size() > 1 ? lines.get(1) : ""));
    } catch (IOException | NumberFormatException e) {
      return Optional.empty();
    }
  }

  /** An exit code and a line, as a job wrote them. */
  public record JobOutcomeLine(int code, String message) {}
}
