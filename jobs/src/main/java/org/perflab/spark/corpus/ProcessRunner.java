package org.perflab.spark.corpus;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.perflab.jobs.WorkloadJob;

/** Runs one command with a timeout, its stdout and stderr into a log file; kills the whole process tree on timeout. */
public final class ProcessRunner {
  private ProcessRunner() {}

  /** Runs {@code command}, writing its output to {@code log}, killing it after {@code timeoutMs}. */
  public static RunOutcome run(List<String> command, Path log, long timeoutMs) {
    long start = System.nanoTime();
    try {
      Files.createDirectories(log.getParent());
      Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
      boolean finished = process.waitFor(timeoutMs, TimeUnit.MILLISECONDS);
      if (!finished) {
        killTree(process);
      }
      long wallMs = (System.nanoTime() - start) / 1_000_000;
      return new RunOutcome(finished ? process.exitValue() : -1, !finished, wallMs, appId(log));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot run " + command.get(0) + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Cannot run " + command.get(0) + ": interrupted", e);
    }
  }

  /** Kills the descendants first (the JVM under the launcher script), then the process itself, and waits. */
  private static void killTree(Process process) throws InterruptedException {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
    process.waitFor(30, TimeUnit.SECONDS);
  }

  /** The application id line the workload job prints, or empty. */
  static String appId(Path log) {
    if (!Files.exists(log)) {
      return "";
    }
    try (Stream<String> lines = Files.lines(log, StandardCharsets.UTF_8)) {
      return lines.filter(line -> line.startsWith(WorkloadJob.APP_ID_LINE))
          .map(line -> line.substring(WorkloadJob.APP_ID_LINE.length()).trim())
          .reduce((first, second) -> second)
          .orElse("");
    } catch (UncheckedIOException | IOException e) {
      return "";
    }
  }
}
