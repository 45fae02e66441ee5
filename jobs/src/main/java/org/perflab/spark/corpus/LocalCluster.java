package org.perflab.spark.corpus;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Drives {@code submit/local-cluster} with its own state directory, so the corpus runner's cluster is never anyone
 * else's: {@link #start()} returns the master URL (the last line {@code start} prints) and remembers whether it
 * started the cluster, so {@link #stopIfStarted()} ends only what it started.
 */
public final class LocalCluster {
  private final Path script;
  private final LocalClusterSpec spec;
  private final Path stateDir;
  private final long timeoutMs;
  private boolean started;

  public LocalCluster(Path script, LocalClusterSpec spec, Path stateDir, long timeoutMs) {
    this.script = script;
    this.spec = spec;
    this.stateDir = stateDir;
    this.timeoutMs = timeoutMs;
  }

  /** Starts the cluster unless it already runs; returns its master URL, or throws when it cannot start. */
  public String start() {
    boolean running = command("status", List.of()).exitCode() == 0;
    Path log = stateDir.resolveSibling("local-cluster-start.log");
    RunOutcome outcome = ProcessRunner.run(commandLine("start", List.of("--workers",
        Integer.toString(spec.workers()), "--worker-cores", Integer.toString(spec.workerCores()),
        "--worker-memory", spec.workerMemory())), log, timeoutMs);
    if (outcome.exitCode() != 0) {
      throw new IllegalStateException("Cannot start the local cluster: " + script + " start exited "
          + outcome.exitCode() + " (see " + log + ")");
    }
    started = !running;
    return lastLine(log);
  }

  /** Stops the cluster if {@link #start()} started it. */
  public void stopIfStarted() {
    if (started) {
      ProcessRunner.run(commandLine("stop", List.of()), stateDir.resolveSibling("local-cluster-stop.log"), timeoutMs);
      started = false;
    }
  }

  private RunOutcome command(String action, List<String> options) {
    return ProcessRunner.run(commandLine(action, options),
        stateDir.resolveSibling("local-cluster-" + action + ".log"), timeoutMs);
  }

  private List<String> commandLine(String action, List<String> options) {
    List<String> command = new ArrayList<>(List.of(script.toString(), action));
    command.addAll(options);
    command.addAll(List.of("--state-dir", stateDir.toString()));
    return command;
  }

  private static String lastLine(Path log) {
    try {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      for (int i = lines.size() - 1; i >= 0; i--) {
        if (lines.get(i).startsWith("spark://")) {
          return lines.get(i).trim();
        }
      }
      throw new IllegalStateException("Cannot start the local cluster: no spark:// URL in " + log);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
