package org.perflab.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code submit/perflab corpus} for real: one spark-submit per grid point through the launcher. */
class CorpusIT {
  private static final Path REPOSITORY = Scripts.repository();
  private static final String PERFLAB = REPOSITORY.resolve("submit/perflab").toString();
  private static final Duration TIMEOUT = Duration.ofMinutes(5);
  private static final String SHORT_SLEEP = "\"workloadArgs\": [\"--sleep-tasks\", \"2\", \"--sleep-stages\", \"1\","
      + " \"--sleep-mean-ms\", \"100\"]";

  private static Scripts.Result corpus(Path temp, Path grid, Path events, String... more)
      throws IOException, InterruptedException {
    List<String> command = new java.util.ArrayList<>(List.of(PERFLAB, "corpus", "--grid", grid.toString(),
        "--event-log-dir", events.toString(), "--work-dir", temp.resolve("work").toString()));
    command.addAll(List.of(more));
    return Scripts.run(temp, Map.of(), TIMEOUT, command.toArray(String[]::new));
  }

  private static List<List<String>> manifest(Path events) throws IOException {
    return Files.readAllLines(events.resolve("_perflab_corpus.csv")).stream()
        .skip(1).map(line -> List.of(line.split(",", -1))).toList();
  }

  @Test
  void runsEachPointAsItsOwnApplicationWritesTheManifestAndResumes(@TempDir Path temp) throws Exception {
    Path grid = Files.writeString(temp.resolve("two.json"), """
        {"name": "two", "sweeps": [{"workloads": ["sleep"], "coresPerExecutor": [1, 2], %s}]}
        """.formatted(SHORT_SLEEP));
    Path events = temp.resolve("events");

    Scripts.Result run = corpus(temp, grid, events);
    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(run.stdout()).contains("run 1 of 2 OK sleep-tiny-local-1x1-1g-r1")
        .contains("run 2 of 2 OK sleep-tiny-local-1x2-1g-r1").contains("elapsed").contains("remaining");
    List<List<String>> rows = manifest(events);
    assertThat(rows).hasSize(2);
    for (List<String> row : rows) {
      assertThat(row.get(9)).as("status").isEqualTo("OK");
      assertThat(row.get(10)).as("exit code").isEqualTo("0");
      assertThat(row.get(11)).as("app id").matches("local-\\d+");
      assertThat(Path.of(URI.create(row.get(12)))).as("event log").exists();
      assertThat(row.get(12)).contains(row.get(11));
      assertThat(Long.parseLong(row.get(13))).as("wall time, ms").isPositive();
    }
    assertThat(rows.get(0).get(3)).isEqualTo("local[1]");
    assertThat(rows.get(1).get(3)).isEqualTo("local[2]");
    String before = Files.readString(events.resolve("_perflab_corpus.csv"));

    Scripts.Result resumed = corpus(temp, grid, events, "--resume");
    assertThat(resumed.exitCode()).as(resumed.stderr()).isZero();
    assertThat(resumed.stdout()).contains("2 grid points, 0 to run, 2 already done").doesNotContain("run 1 of");
    assertThat(Files.readString(events.resolve("_perflab_corpus.csv"))).isEqualTo(before);
    try (var logs = Files.list(events)) {
      assertThat(logs.map(p -> p.getFileName().toString()).filter(name -> name.startsWith("eventlog_v2_local-")))
          .hasSize(2);
    }
  }

  @Test
  void recordsFailedAndTimedOutPointsGoesOnAndExitsOne(@TempDir Path temp) throws Exception {
    Path grid = Files.writeString(temp.resolve("mixed.json"), """
        {"name": "mixed", "sweeps": [
          {"name": "bad", "workloads": ["sleep"], "workloadArgs": ["--sleep-distribution", "gaussian"]},
          {"name": "good", "workloads": ["sleep"], %s},
          {"name": "slow", "workloads": ["sleep"], "timeoutSeconds": 20,
           "workloadArgs": ["--sleep-tasks", "1", "--sleep-mean-ms", "600000"]}]}
        """.formatted(SHORT_SLEEP));
    Path events = temp.resolve("events");

    Scripts.Result run = corpus(temp, grid, events);
    assertThat(run.exitCode()).as(run.stdout() + run.stderr()).isEqualTo(1);
    List<List<String>> rows = manifest(events);
    assertThat(rows).extracting(row -> row.get(0) + " " + row.get(9) + " " + row.get(10)).containsExactly(
        "bad-sleep-tiny-local-1x1-1g-r1 FAILED 2",
        "good-sleep-tiny-local-1x1-1g-r1 OK 0",
        "slow-sleep-tiny-local-1x1-1g-r1 TIMEOUT -1");
    assertThat(Long.parseLong(rows.get(2).get(13))).as("killed at its 20 s timeout").isBetween(20_000L, 50_000L);
    assertThat(run.stdout()).contains("done, 1 OK, 2 failed");
    Optional<ProcessHandle> leftover = ProcessHandle.allProcesses()
        .filter(p -> p.info().commandLine().orElse("").contains("slow-sleep-tiny-local")).findAny();
    assertThat(leftover).as("the timed-out run's process tree is gone").isEmpty();
  }
}
