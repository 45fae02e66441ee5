package org.perflab.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Corpus runs ingested for real: Sleep's stage times against wave arithmetic, and a run on the local standalone
 * cluster with two executors. The corpus and the ingest run through {@code submit/perflab}; this JVM's session only
 * reads the Parquet tables.
 */
@org.junit.jupiter.api.Tag("long")
class CorpusIngestIT {
  private static final Path REPOSITORY = Scripts.repository();
  private static final String PERFLAB = REPOSITORY.resolve("submit/perflab").toString();
  private static final Duration TIMEOUT = Duration.ofMinutes(6);
  private static final int TASKS = 8;
  private static final long TASK_MS = 600;
  /**
   * Scheduler overhead allowed per stage (first task deserialisation, stage bookkeeping) and per wave (task end to
   * next launch); generous, for a loaded CI machine. Still, 1 slot (8 waves, at least 4.8 s) and 4 slots (2 waves,
   * at most 1.2 + 1.0 + 2.0 s) cannot be mistaken for each other.
   */
  private static final long STAGE_OVERHEAD_MS = 2_000;
  private static final long WAVE_OVERHEAD_MS = 500;
  private static SparkSession spark;

  @BeforeAll
  static void startSpark() {
    spark = org.perflab.spark.storage.DeltaSessions.builder("perflab-tests").master("local[2]").appName("CorpusIngestIT")
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1").getOrCreate();
  }

  @AfterAll
  static void stopSpark() {
    spark.stop();
  }

  private static Scripts.Result perflab(Path temp, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(PERFLAB));
    command.addAll(List.of(args));
    return Scripts.run(temp, Map.of(), TIMEOUT, command.toArray(String[]::new));
  }

  /** Runs {@code grid} as a corpus into {@code temp/events}, ingests it into {@code temp/tables}; returns app id → slots. */
  private static Map<String, Integer> corpusAndIngest(Path temp, String grid) throws Exception {
    Path gridFile = Files.writeString(temp.resolve("grid.json"), grid);
    Path events = temp.resolve("events");
    Scripts.Result corpus = perflab(temp, "corpus", "--grid", gridFile.toString(), "--event-log-dir",
        events.toString(), "--work-dir", temp.resolve("work").toString());
    assertThat(corpus.exitCode()).as(corpus.stdout() + corpus.stderr()).isZero();
    Scripts.Result ingest = perflab(temp, "--master", "local[2]", "--conf", "spark.ui.enabled=false", "ingest",
        "--input", events.toString(), "--output", temp.resolve("tables").toString());
    assertThat(ingest.exitCode()).as(ingest.stderr()).isZero();
    List<Row> status = table(temp, "ingest_status").select("status").collectAsList();
    assertThat(status).hasSize(corpusRuns(events)).allSatisfy(row -> assertThat(row.getString(0)).isEqualTo("OK"));
    return Files.readAllLines(events.resolve("_perflab_corpus.csv")).stream().skip(1)
        .map(line -> line.split(",", -1))
        .collect(Collectors.toMap(fields -> fields[11], fields -> Integer.parseInt(fields[7])));
  }

  private static int corpusRuns(Path events) throws IOException {
    return Files.readAllLines(events.resolve("_perflab_corpus.csv")).size() - 1;
  }

  private static org.apache.spark.sql.Dataset<Row> table(Path temp, String name) {
    return spark.read().format("delta").load(temp.resolve("tables").resolve(name).toString());
  }

  @Test
  void sleepStagesTakeTheirWavesOfTaskDurations(@TempDir Path temp) throws Exception {
    Map<String, Integer> slotsByApp = corpusAndIngest(temp, """
        {"name": "waves", "sweeps": [{"workloads": ["sleep"], "coresPerExecutor": [1, 4],
          "workloadArgs": ["--sleep-tasks", "%d", "--sleep-stages", "2", "--sleep-mean-ms", "%d"]}]}
        """.formatted(TASKS, TASK_MS));
    assertThat(slotsByApp).hasSize(2).containsValues(1, 4);
    List<Row> stages = table(temp, "stages")
        .selectExpr("app_id", "stage_id", "num_tasks", "completion_time_ms - first_task_launch_time_ms")
        .collectAsList();
    assertThat(stages).hasSize(4);
    for (Row stage : stages) {
      int slots = slotsByApp.get(stage.getString(0));
      long waves = (TASKS + slots - 1) / slots;
      assertThat(stage.getInt(2)).isEqualTo(TASKS);
      assertThat(stage.getLong(3)).as("stage %d of %s: %d waves of %d ms on %d slots", stage.getInt(1),
              stage.getString(0), waves, TASK_MS, slots)
          .isBetween(waves * TASK_MS, waves * (TASK_MS + WAVE_OVERHEAD_MS) + STAGE_OVERHEAD_MS);
    }
    for (Map.Entry<String, Integer> app : slotsByApp.entrySet()) {
      // A task holds its slot from launch through deserialisation and run; its driver-side finish time comes
      // later (the result is fetched asynchronously), so it would overstate the overlap.
      List<Row> tasks = table(temp, "tasks").where("app_id = '" + app.getKey() + "'")
          .selectExpr("launch_time_ms", "launch_time_ms + executor_deserialize_time_ms + executor_run_time_ms",
              "executor_run_time_ms").collectAsList();
      assertThat(tasks).hasSize(2 * TASKS)
          .allSatisfy(task -> assertThat(task.getLong(2)).isGreaterThanOrEqualTo(TASK_MS));
      assertThat(maxConcurrent(tasks)).as("tasks running at once on %d slots", app.getValue())
          .isEqualTo(Math.min(app.getValue(), TASKS));
    }
  }

  /** The most tasks whose [start, end) intervals overlap. */
  private static int maxConcurrent(List<Row> tasks) {
    List<long[]> events = new ArrayList<>();
    for (Row task : tasks) {
      events.add(new long[] {task.getLong(0), 1});
      events.add(new long[] {task.getLong(1), -1});
    }
    events.sort(Comparator.<long[]>comparingLong(e -> e[0]).thenComparingLong(e -> e[1]));
    int running = 0;
    int most = 0;
    for (long[] event : events) {
      running += (int) event[1];
      most = Math.max(most, running);
    }
    return most;
  }

  @Test
  void aLocalClusterRunHasTwoExecutorsBesidesTheDriver(@TempDir Path temp) throws Exception {
    Map<String, Integer> slotsByApp = corpusAndIngest(temp, """
        {"name": "cluster", "cluster": {"workers": 2, "workerCores": 1, "workerMemory": "1g"},
         "sweeps": [{"master": "local-cluster", "workloads": ["sleep"], "executors": [2], "coresPerExecutor": [1],
          "executorMemory": ["512m"], "workloadArgs": ["--sleep-tasks", "4", "--sleep-mean-ms", "200"]}]}
        """);
    String appId = slotsByApp.keySet().iterator().next();
    assertThat(appId).startsWith("app-");
    List<Row> executors = table(temp, "executors").where("app_id = '" + appId + "' AND NOT is_driver")
        .select("executor_id").collectAsList();
    assertThat(executors).extracting(row -> row.getString(0)).containsExactlyInAnyOrder("0", "1");
    Scripts.Result status = Scripts.run(temp, Map.of(), TIMEOUT, REPOSITORY.resolve("submit/local-cluster").toString(),
        "status", "--state-dir", temp.resolve("work/local-cluster").toString());
    assertThat(status.exitCode()).as("the corpus stopped the cluster it started").isEqualTo(1);
  }
}
