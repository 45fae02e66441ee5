package org.perflab.eventlog.parse;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.perflab.table.Table;
import org.perflab.table.TableRow;
import org.perflab.testing.HistoryServerComparison;
import org.perflab.testing.HistoryServerReplay;
import org.perflab.testing.SharedData;

/**
 * Apache Spark's own test event logs (Spark 1.2 to 3.0), parsed by PerfLab and compared with the History Server: with
 * the REST responses Spark's test suite expects, and with a replay through Spark's {@code AppStatusListener}.
 */
class ReferenceLogsTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  static Stream<String> referenceLogs() {
    return Stream.of(
        "local-1422981780767", "local-1426533911241", "app-20161116163331-0000", "application_1553914137147_0018");
  }

  @ParameterizedTest
  @MethodSource("referenceLogs")
  void everyStageExecutorAndJobEqualsTheHistoryServerReplay(String log) throws IOException {
    Path file = SharedData.sparkEvents().resolve(log);
    ParsedLog parsed = ParsedLog.parse(file, false);
    HistoryServerReplay replay = HistoryServerReplay.replay(file.toString());

    List<String> differences = HistoryServerComparison.differences(
        replay, parsed.getters(Table.STAGES), parsed.getters(Table.EXECUTORS), parsed.getters(Table.JOBS));

    assertThat(differences).isEmpty();
    assertThat(parsed.rows(Table.STAGES)).isNotEmpty();
    assertThat(parsed.status().get("status")).isEqualTo("OK");
  }

  @Test
  void stagesEqualTheRestExpectations() throws IOException {
    ParsedLog parsed = ParsedLog.parse(SharedData.sparkEvents().resolve("local-1422981780767"), false);
    JsonNode expected = read("stage_list_json_expectation.json");

    assertThat(expected.size()).isEqualTo(parsed.rows(Table.STAGES).size());
    for (JsonNode stage : expected) {
      TableRow ours = stage(parsed, stage.get("stageId").asInt(), stage.get("attemptId").asInt());
      assertThat(ours.get("status")).isEqualTo(stage.get("status").asText());
      assertThat(ours.get("num_tasks")).isEqualTo(stage.get("numTasks").asInt());
      assertThat(ours.get("num_complete_tasks")).isEqualTo(stage.get("numCompleteTasks").asLong());
      assertThat(ours.get("num_failed_tasks")).isEqualTo(stage.get("numFailedTasks").asLong());
      assertThat(ours.get("executor_run_time_ms")).isEqualTo(stage.get("executorRunTime").asLong());
      assertThat(orZero(ours.get("executor_cpu_time_ns"))).isEqualTo(stage.get("executorCpuTime").asLong());
      assertThat(ours.get("input_bytes")).isEqualTo(stage.get("inputBytes").asLong());
      assertThat(orZero(ours.get("input_records"))).isEqualTo(stage.get("inputRecords").asLong());
      assertThat(ours.get("output_bytes")).isEqualTo(stage.get("outputBytes").asLong());
      assertThat(orZero(ours.get("output_records"))).isEqualTo(stage.get("outputRecords").asLong());
      assertThat(ours.get("shuffle_read_bytes")).isEqualTo(stage.get("shuffleReadBytes").asLong());
      assertThat(orZero(ours.get("shuffle_read_records"))).isEqualTo(stage.get("shuffleReadRecords").asLong());
      assertThat(ours.get("shuffle_write_bytes")).isEqualTo(stage.get("shuffleWriteBytes").asLong());
      assertThat(orZero(ours.get("shuffle_write_records"))).isEqualTo(stage.get("shuffleWriteRecords").asLong());
      assertThat(ours.get("memory_spilled_bytes")).isEqualTo(stage.get("memoryBytesSpilled").asLong());
      assertThat(ours.get("disk_spilled_bytes")).isEqualTo(stage.get("diskBytesSpilled").asLong());
    }
  }

  @Test
  void spark12LogRecordsNoCpuTimeSoItIsNullNotZero() {
    ParsedLog parsed = ParsedLog.parse(SharedData.sparkEvents().resolve("local-1422981780767"), false);

    assertThat(parsed.rows(Table.TASKS)).allSatisfy(task -> assertThat(task.get("executor_cpu_time_ns")).isNull());
    assertThat(parsed.rows(Table.STAGES)).allSatisfy(s -> assertThat(s.get("executor_cpu_time_ns")).isNull());
    assertThat(parsed.application().get("spark_version")).isNull();
  }

  @Test
  void executorsAndJobsEqualTheRestExpectations() throws IOException {
    ParsedLog parsed = ParsedLog.parse(SharedData.sparkEvents().resolve("local-1422981780767"), false);
    JsonNode executor = read("executor_list_json_expectation.json").get(0);
    TableRow driver = parsed.rows(Table.EXECUTORS).get(0);

    assertThat(driver.get("is_driver")).isEqualTo(true);
    assertThat(driver.get("total_tasks")).isEqualTo(executor.get("totalTasks").asLong());
    assertThat(driver.get("completed_tasks")).isEqualTo(executor.get("completedTasks").asLong());
    assertThat(driver.get("failed_tasks")).isEqualTo(executor.get("failedTasks").asLong());
    assertThat(driver.get("total_duration_ms")).isEqualTo(executor.get("totalDuration").asLong());
    assertThat(driver.get("total_input_bytes")).isEqualTo(executor.get("totalInputBytes").asLong());
    assertThat(driver.get("total_shuffle_write_bytes")).isEqualTo(executor.get("totalShuffleWrite").asLong());
    assertThat(driver.get("max_memory_bytes")).isEqualTo(executor.get("maxMemory").asLong());

    for (JsonNode job : read("job_list_json_expectation.json")) {
      TableRow ours = parsed.rows(Table.JOBS).stream()
          .filter(row -> row.get("job_id").equals(job.get("jobId").asInt())).findFirst().orElseThrow();
      assertThat(ours.get("status")).isEqualTo(job.get("status").asText());
      assertThat(ours.get("name")).isEqualTo(job.get("name").asText());
      assertThat(ours.get("num_tasks")).isEqualTo(job.get("numTasks").asLong());
      assertThat(ours.get("num_completed_tasks")).isEqualTo(job.get("numCompletedTasks").asLong());
      assertThat(ours.get("num_failed_tasks")).isEqualTo(job.get("numFailedTasks").asLong());
      assertThat(ours.get("num_failed_stages")).isEqualTo(job.get("numFailedStages").asLong());
      assertThat(ours.get("num_completed_stages")).isEqualTo(job.get("numCompletedStages").asLong());
    }
  }

  @Test
  void executorPeakMemoryEqualsTheRestExpectation() throws IOException {
    ParsedLog parsed = ParsedLog.parse(SharedData.sparkEvents().resolve("application_1553914137147_0018"), false);

    for (JsonNode executor : read("executor_list_with_executor_metrics_json_expectation.json")) {
      TableRow ours = parsed.rows(Table.EXECUTORS).stream()
          .filter(row -> row.get("executor_id").equals(executor.get("id").asText())).findFirst().orElseThrow();
      JsonNode peaks = executor.get("peakMemoryMetrics");
      if (peaks != null) {
        assertThat(ours.get("peak_jvm_heap_bytes")).isEqualTo(peaks.get("JVMHeapMemory").asLong());
        assertThat(ours.get("peak_on_heap_storage_bytes")).isEqualTo(peaks.get("OnHeapStorageMemory").asLong());
      }
      assertThat(ours.get("total_tasks")).isEqualTo(executor.get("totalTasks").asLong());
    }
  }

  @Test
  void multiAttemptApplicationCarriesItsAttemptId() throws IOException {
    ParsedLog parsed = ParsedLog.parse(SharedData.sparkEvents().resolve("local-1426533911241"), false);
    JsonNode expected = read("stage_list_with_accumulable_json_expectation.json");

    assertThat(parsed.application().get("app_attempt_id")).isEqualTo("1");
    assertThat(parsed.rows(Table.TASKS)).allSatisfy(t -> assertThat(t.get("app_attempt_id")).isEqualTo("1"));
    TableRow stage = stage(parsed, expected.get(0).get("stageId").asInt(), 0);
    assertThat(stage.get("executor_run_time_ms")).isEqualTo(expected.get(0).get("executorRunTime").asLong());
  }

  private static TableRow stage(ParsedLog parsed, int stageId, int attempt) {
    return parsed.rows(Table.STAGES).stream()
        .filter(row -> row.get("stage_id").equals(stageId) && row.get("stage_attempt_id").equals(attempt))
        .findFirst()
        .orElseThrow();
  }

  private static long orZero(Object value) {
    return value == null ? 0L : ((Number) value).longValue();
  }

  private static JsonNode read(String expectation) throws IOException {
    return MAPPER.readTree(Files.readAllBytes(SharedData.historyExpectations().resolve(expectation)));
  }
}
