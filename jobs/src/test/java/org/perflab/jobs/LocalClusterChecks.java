package org.perflab.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The contract of {@code submit/local-cluster} (a Master and Workers as separate JVMs, recorded pids, an idempotent
 * start, a status, a stop that leaves no process behind), checked on a running cluster by whichever test started it.
 * {@link NightlyClusterIT} checks it around the cluster it needs anyway; {@link LocalClusterIT} (tag {@code long})
 * checks it alone with a job on two executors.
 */
final class LocalClusterChecks {
  static final Path REPOSITORY = Scripts.repository();
  static final String LOCAL_CLUSTER = REPOSITORY.resolve("submit/local-cluster").toString();
  private static final Duration TIMEOUT = Duration.ofMinutes(3);

  private LocalClusterChecks() {}

  /** Runs {@code submit/local-cluster} with {@code arguments}. */
  static Scripts.Result localCluster(Map<String, String> environment, String... arguments)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(LOCAL_CLUSTER));
    command.addAll(List.of(arguments));
    return Scripts.run(REPOSITORY, environment, TIMEOUT, command.toArray(String[]::new));
  }

  /**
   * A started cluster of {@code workers} Workers with {@code cores} cores each, whose {@code start} printed
   * {@code masterUrl}: its pids are recorded and alive, the Master's JSON lists the Workers ALIVE, a second
   * {@code start} returns the same URL without starting anything, and {@code status} lists the Workers.
   */
  static void assertRunning(Path state, String masterUrl, int workers, int cores) throws Exception {
    assertThat(masterUrl).matches("spark://127\\.0\\.0\\.1:\\d+");
    List<Long> pids = recordedPids(state);
    assertThat(pids).hasSize(1 + workers).allSatisfy(pid -> assertThat(ProcessHandle.of(pid)).isPresent());

    JsonNode master = masterJson(Files.readString(state.resolve("webui-url")).strip());
    assertThat(master.get("url").asText()).isEqualTo(masterUrl);
    assertThat(master.get("aliveworkers").asInt()).isEqualTo(workers);
    assertThat(master.get("workers")).hasSize(workers)
        .allSatisfy(worker -> assertThat(worker.get("state").asText()).isEqualTo("ALIVE"))
        .allSatisfy(worker -> assertThat(worker.get("cores").asInt()).isEqualTo(cores));

    Scripts.Result again = localCluster(Map.of(), "start", "--state-dir", state.toString());
    assertThat(again.exitCode()).as(again.stderr()).isZero();
    assertThat(again.lastLine()).isEqualTo(masterUrl);
    assertThat(recordedPids(state)).as("a second start starts nothing").isEqualTo(pids);

    Scripts.Result status = localCluster(Map.of(), "status", "--state-dir", state.toString());
    assertThat(status.exitCode()).isZero();
    assertThat(status.stdout()).contains(masterUrl)
        .containsPattern("(?s)(registered worker-\\S+ ALIVE.*){" + workers + "}");
  }

  /** Stops the cluster of {@code state}: exit 0, no recorded pid left running, no process using the state, status 1. */
  static void stopAndAssertGone(Path state) throws Exception {
    List<Long> pids = Files.isDirectory(state) ? recordedPids(state) : List.of();
    Scripts.Result stopped = localCluster(Map.of(), "stop", "--state-dir", state.toString());
    assertThat(stopped.exitCode()).as(stopped.stderr()).isZero();
    assertThat(pids).as("recorded pids still running").noneMatch(LocalClusterChecks::running);
    assertThat(processesUsing(state)).as("processes that still use the state dir").isEmpty();
    assertThat(localCluster(Map.of(), "status", "--state-dir", state.toString()).exitCode()).isEqualTo(1);
  }

  static List<Long> recordedPids(Path state) throws IOException {
    try (Stream<Path> files = Files.list(state)) {
      return files.filter(file -> file.getFileName().toString().endsWith(".pid"))
          .sorted()
          .map(LocalClusterChecks::pid)
          .toList();
    }
  }

  private static long pid(Path pidFile) {
    try {
      return Long.parseLong(Files.readString(pidFile).strip().split(" ")[0]);
    } catch (IOException e) {
      throw new AssertionError("Cannot read " + pidFile, e);
    }
  }

  /** Whether a process exists and has not exited: a zombie has exited, and only its parent (not us) can reap it. */
  static boolean running(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
    } catch (IOException e) {
      return false;
    }
  }

  private static JsonNode masterJson(String webUiUrl) throws IOException, InterruptedException {
    HttpResponse<String> response = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create(webUiUrl + "/json/")).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    return new ObjectMapper().readTree(response.body());
  }

  /** Live processes whose command line or working directory mentions {@code state} (daemons, executors). */
  private static List<String> processesUsing(Path state) {
    String marker = state.toAbsolutePath().toString();
    return ProcessHandle.allProcesses()
        .filter(process -> running(process.pid()))
        .filter(process -> process.info().commandLine().orElse("").contains(marker)
            || workingDirectory(process).startsWith(marker))
        .map(process -> process.pid() + " " + process.info().commandLine().orElse(""))
        .toList();
  }

  private static String workingDirectory(ProcessHandle process) {
    try {
      return Files.readSymbolicLink(Path.of("/proc", Long.toString(process.pid()), "cwd")).toString();
    } catch (IOException | UnsupportedOperationException e) {
      return "";
    }
  }
}
