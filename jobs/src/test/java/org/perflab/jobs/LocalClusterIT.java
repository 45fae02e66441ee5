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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code submit/local-cluster} for real: a Master and two Workers as separate JVMs, a job on two executors through
 * {@code submit/perflab}, and a stop that leaves no process behind.
 */
class LocalClusterIT {
  private static final Path REPOSITORY = Scripts.repository();
  private static final String LOCAL_CLUSTER = REPOSITORY.resolve("submit/local-cluster").toString();
  private static final String PERFLAB = REPOSITORY.resolve("submit/perflab").toString();
  private static final Duration TIMEOUT = Duration.ofMinutes(3);

  @Test
  void startsTwoWorkersRunsAJobOnTwoExecutorsAndStopsEverything(@TempDir Path temp) throws Exception {
    Path state = temp.resolve("cluster state");
    try {
      Scripts.Result started = localCluster("start", "--workers", "2", "--worker-cores", "1", "--worker-memory", "1g",
          "--state-dir", state.toString());
      assertThat(started.exitCode()).as(started.stderr()).isZero();
      String masterUrl = started.lastLine();
      assertThat(masterUrl).matches("spark://127\\.0\\.0\\.1:\\d+");
      List<Long> pids = recordedPids(state);
      assertThat(pids).hasSize(3).allSatisfy(pid -> assertThat(ProcessHandle.of(pid)).isPresent());

      JsonNode master = masterJson(Files.readString(state.resolve("webui-url")).strip());
      assertThat(master.get("url").asText()).isEqualTo(masterUrl);
      assertThat(master.get("aliveworkers").asInt()).isEqualTo(2);
      assertThat(master.get("workers")).hasSize(2)
          .allSatisfy(worker -> assertThat(worker.get("state").asText()).isEqualTo("ALIVE"))
          .allSatisfy(worker -> assertThat(worker.get("cores").asInt()).isEqualTo(1));

      Scripts.Result again = localCluster("start", "--state-dir", state.toString());
      assertThat(again.exitCode()).isZero();
      assertThat(again.lastLine()).isEqualTo(masterUrl);
      assertThat(recordedPids(state)).isEqualTo(pids);

      Scripts.Result status = localCluster("status", "--state-dir", state.toString());
      assertThat(status.exitCode()).isZero();
      assertThat(status.stdout()).contains(masterUrl).containsPattern("(?s)registered worker-\\S+ ALIVE.*registered worker-\\S+ ALIVE");

      Scripts.Result doctor = Scripts.run(temp, Map.of(), TIMEOUT, PERFLAB, "--master", masterUrl,
          "--conf", "spark.driver.host=127.0.0.1", "--total-executor-cores", "2", "--executor-cores", "1",
          "--executor-memory", "512m", "doctor", "--executors", "2");
      assertThat(doctor.exitCode()).as(doctor.stderr()).isZero();
      assertThat(doctor.stdout()).contains("master: " + masterUrl)
          .contains("executors: 2")
          .contains("tasks_ran_on_executors: [0, 1]");
    } finally {
      List<Long> pids = Files.isDirectory(state) ? recordedPids(state) : List.of();
      Scripts.Result stopped = localCluster("stop", "--state-dir", state.toString());
      assertThat(stopped.exitCode()).as(stopped.stderr()).isZero();
      assertThat(pids).as("recorded pids still running").noneMatch(LocalClusterIT::running);
      assertThat(processesUsing(state)).as("processes that still use the state dir").isEmpty();
    }
    Scripts.Result status = localCluster("status", "--state-dir", state.toString());
    assertThat(status.exitCode()).isEqualTo(1);
  }

  private static Scripts.Result localCluster(String... arguments) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(LOCAL_CLUSTER));
    command.addAll(List.of(arguments));
    return Scripts.run(REPOSITORY, Map.of(), TIMEOUT, command.toArray(String[]::new));
  }

  private static List<Long> recordedPids(Path state) throws IOException {
    try (Stream<Path> files = Files.list(state)) {
      return files.filter(file -> file.getFileName().toString().endsWith(".pid"))
          .sorted()
          .map(LocalClusterIT::pid)
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
  private static boolean running(long pid) {
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
        .filter(process -> process.info().commandLine().orElse("").contains(marker) || workingDirectory(process).startsWith(marker))
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
