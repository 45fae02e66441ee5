package org.perflab.eventlog.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perflab.table.Table;
import org.perflab.table.TableRow;
import org.perflab.testing.HistoryServerComparison;
import org.perflab.testing.HistoryServerReplay;

/**
 * A job that reuses a stage an earlier job ran, as older Spark versions log it (the same stage id and attempt in the
 * second JobStart). The History Server overwrites the stage that ran with a SKIPPED copy and loses its metrics;
 * PerfLab keeps the run and records the skipping job, and agrees with the History Server on everything else.
 */
class StageReuseTest {
  @TempDir Path dir;

  private static String stageInfo(int stage, int tasks, Long submitted, Long completed) {
    return "{\"Stage ID\":" + stage + ",\"Stage Attempt ID\":0,\"Stage Name\":\"stage " + stage + "\",\"Number of Tasks\":"
        + tasks + ",\"RDD Info\":[],\"Parent IDs\":[],\"Details\":\"\""
        + (submitted == null ? "" : ",\"Submission Time\":" + submitted)
        + (completed == null ? "" : ",\"Completion Time\":" + completed) + ",\"Accumulables\":[]}";
  }

  private static String task(String event, int stage, long taskId, long launch, Long finish) {
    String info = "{\"Task ID\":" + taskId + ",\"Index\":0,\"Attempt\":0,\"Launch Time\":" + launch
        + ",\"Executor ID\":\"driver\",\"Host\":\"localhost\",\"Locality\":\"PROCESS_LOCAL\",\"Speculative\":false,"
        + "\"Getting Result Time\":0,\"Finish Time\":" + (finish == null ? 0 : finish) + ",\"Failed\":false,"
        + "\"Killed\":false,\"Accumulables\":[]}";
    String end = finish == null ? "" : ",\"Task Type\":\"ResultTask\",\"Task End Reason\":{\"Reason\":\"Success\"},"
        + "\"Task Metrics\":{\"Executor Deserialize Time\":1,\"Executor Run Time\":" + (finish - launch)
        + ",\"Result Size\":10,\"JVM GC Time\":0,\"Result Serialization Time\":0,\"Memory Bytes Spilled\":0,"
        + "\"Disk Bytes Spilled\":0}";
    return "{\"Event\":\"" + event + "\",\"Stage ID\":" + stage + ",\"Stage Attempt ID\":0" + end + ",\"Task Info\":"
        + info + "}";
  }

  private static List<String> log() {
    List<String> lines = new ArrayList<>();
    lines.add("{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"2.4.0\"}");
    lines.add("{\"Event\":\"SparkListenerBlockManagerAdded\",\"Block Manager ID\":{\"Executor ID\":\"driver\","
        + "\"Host\":\"localhost\",\"Port\":1},\"Maximum Memory\":1000,\"Timestamp\":1000}");
    lines.add("{\"Event\":\"SparkListenerApplicationStart\",\"App Name\":\"reuse\",\"App ID\":\"local-1\","
        + "\"Timestamp\":1000,\"User\":\"me\"}");
    lines.add("{\"Event\":\"SparkListenerJobStart\",\"Job ID\":0,\"Submission Time\":1100,\"Stage Infos\":["
        + stageInfo(0, 1, null, null) + "," + stageInfo(1, 1, null, null) + "],\"Stage IDs\":[0,1]}");
    lines.add("{\"Event\":\"SparkListenerStageSubmitted\",\"Stage Info\":" + stageInfo(0, 1, 1100L, null) + "}");
    lines.add(task("SparkListenerTaskStart", 0, 0, 1100, null));
    lines.add(task("SparkListenerTaskEnd", 0, 0, 1100, 1150L));
    lines.add("{\"Event\":\"SparkListenerStageCompleted\",\"Stage Info\":" + stageInfo(0, 1, 1100L, 1150L) + "}");
    lines.add("{\"Event\":\"SparkListenerStageSubmitted\",\"Stage Info\":" + stageInfo(1, 1, 1150L, null) + "}");
    lines.add(task("SparkListenerTaskStart", 1, 1, 1150, null));
    lines.add(task("SparkListenerTaskEnd", 1, 1, 1150, 1200L));
    lines.add("{\"Event\":\"SparkListenerStageCompleted\",\"Stage Info\":" + stageInfo(1, 1, 1150L, 1200L) + "}");
    lines.add("{\"Event\":\"SparkListenerJobEnd\",\"Job ID\":0,\"Completion Time\":1200,"
        + "\"Job Result\":{\"Result\":\"JobSucceeded\"}}");
    lines.add("{\"Event\":\"SparkListenerJobStart\",\"Job ID\":1,\"Submission Time\":1300,\"Stage Infos\":["
        + stageInfo(0, 1, 1100L, 1150L) + "," + stageInfo(2, 1, null, null) + "],\"Stage IDs\":[0,2]}");
    lines.add("{\"Event\":\"SparkListenerStageSubmitted\",\"Stage Info\":" + stageInfo(2, 1, 1300L, null) + "}");
    lines.add(task("SparkListenerTaskStart", 2, 2, 1300, null));
    lines.add(task("SparkListenerTaskEnd", 2, 2, 1300, 1390L));
    lines.add("{\"Event\":\"SparkListenerStageCompleted\",\"Stage Info\":" + stageInfo(2, 1, 1300L, 1390L) + "}");
    lines.add("{\"Event\":\"SparkListenerJobEnd\",\"Job ID\":1,\"Completion Time\":1400,"
        + "\"Job Result\":{\"Result\":\"JobSucceeded\"}}");
    lines.add("{\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":1500}");
    return lines;
  }

  @Test
  void reusedStageKeepsItsRunAndNamesTheJobThatSkippedIt() throws IOException {
    Path file = dir.resolve("local-1");
    Files.write(file, log());
    ParsedLog parsed = ParsedLog.parse(file, false);

    TableRow stage0 = parsed.rows(Table.STAGES).stream().filter(s -> s.get("stage_id").equals(0)).findFirst()
        .orElseThrow();
    assertThat(stage0.get("status")).isEqualTo("COMPLETE");
    assertThat(stage0.get("executor_run_time_ms")).isEqualTo(50L);
    assertThat((Integer[]) stage0.get("skipped_in_job_ids")).containsExactly(1);
    TableRow job1 = parsed.rows(Table.JOBS).stream().filter(j -> j.get("job_id").equals(1)).findFirst()
        .orElseThrow();
    assertThat(job1.get("num_skipped_stages")).isEqualTo(1L);
    assertThat(parsed.status().get("status")).isEqualTo("OK");

    HistoryServerReplay replay = HistoryServerReplay.replay(file.toString());
    assertThat(replay.stages().get("0.0").get("status")).isEqualTo("SKIPPED");
    assertThat(HistoryServerComparison.differences(replay, parsed.getters(Table.STAGES),
        parsed.getters(Table.EXECUTORS), parsed.getters(Table.JOBS))).isEmpty();
  }
}
