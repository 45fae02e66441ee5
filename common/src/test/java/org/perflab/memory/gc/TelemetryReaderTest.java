package org.perflab.memory.gc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The telemetry reader on complete, truncated and malformed files: counts by reason, never an exception. */
class TelemetryReaderTest {
  private static final String START = "{\"type\":\"executor_start\",\"executor\":\"1\",\"uptime_ms\":1000}\n";
  private static final String END =
      "{\"type\":\"executor_end\",\"executor\":\"1\",\"uptime_ms\":61000,\"gc_count\":5,\"gc_time_ms\":30}\n";
  private static final String BLOCK = "{\"type\":\"block\",\"time_ms\":5,\"executor\":\"1\",\"block\":\"rdd_3_1\","
      + "\"kind\":\"rdd\",\"rdd_id\":3,\"partition\":1,\"use_memory\":true,\"use_disk\":false,\"deserialized\":true,"
      + "\"replication\":1,\"mem_bytes\":4096,\"disk_bytes\":0}\n";
  private static final String TASK = "{\"type\":\"task\",\"stage\":0,\"stage_attempt\":0,\"task\":7,\"executor\":\"1\","
      + "\"launch_ms\":1,\"finish_ms\":9,\"successful\":true,\"gc_ms\":2,\"peak_execution_bytes\":100,"
      + "\"memory_spilled_bytes\":0,\"disk_spilled_bytes\":0,\"input_bytes\":4096,\"shuffle_read_bytes\":0,"
      + "\"shuffle_write_bytes\":10}\n";

  @TempDir
  Path dir;

  private static String gc(String action, long start, long edenBefore, long oldBefore, long oldAfter) {
    return "{\"type\":\"gc\",\"executor\":\"1\",\"seq\":0,\"collector\":\"PS Scavenge\",\"action\":\"" + action
        + "\",\"cause\":\"Allocation Failure\",\"start_ms\":" + start + ",\"duration_ms\":4,\"eden_before\":"
        + edenBefore + ",\"eden_after\":0,\"eden_committed\":1000,\"survivor_before\":0,\"survivor_after\":0,"
        + "\"old_before\":" + oldBefore + ",\"old_after\":" + oldAfter + ",\"old_committed\":5000}\n";
  }

  private static Telemetry read(Path telemetry) throws Exception {
    return TelemetryReader.read(FileSystem.getLocal(new Configuration()).getRaw(),
        new org.apache.hadoop.fs.Path(telemetry.toUri()));
  }

  @Test
  void aCompleteDirectoryGivesRunsBlocksAndTasksWithoutProblems() throws Exception {
    Path t = Files.createDirectory(dir.resolve("app-1.perflab-telemetry"));
    Files.writeString(t.resolve("gc-1.jsonl"), START + gc("end of minor GC", 2000, 990, 100, 300)
        + gc("end of minor GC", 3000, 1000, 300, 350) + gc("end of major GC", 4000, 500, 350, 200)
        + gc("end of minor GC", 5000, 980, 200, 260) + gc("end of concurrent GC", 6000, 0, 0, 0) + END);
    Files.writeString(t.resolve("blocks.jsonl"), BLOCK + "{\"type\":\"unpersist_rdd\",\"time_ms\":9,\"rdd_id\":3}\n");
    Files.writeString(t.resolve("tasks.jsonl"), TASK);
    Files.writeString(t.resolve("manifest.json"), "{\"format\":\"perflab-telemetry\",\"version\":1,\"app_id\":\"app-1\","
        + "\"lines\":{\"gc-1.jsonl\":7,\"blocks.jsonl\":2,\"tasks.jsonl\":1}}\n");
    Telemetry telemetry = read(t);
    assertThat(telemetry.problems()).isEmpty();
    assertThat(telemetry.linesRead()).isEqualTo(10);
    GcRun run = telemetry.gcRuns().get("1");
    assertThat(run.runtimeMs()).isEqualTo(60_000);
    assertThat(run.collections()).containsExactly(GcObservation.young(990, 1000, 200, 300, 5000, 4),
        GcObservation.young(1000, 1000, 50, 350, 5000, 4), GcObservation.full(500, 1000, 200, 5000, 4),
        GcObservation.young(980, 1000, 60, 260, 5000, 4));
    assertThat(telemetry.hasGcModelData()).isTrue();
    assertThat(telemetry.blocks()).extracting(BlockEvent::action, BlockEvent::rddId, BlockEvent::memBytes)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(BlockEvent.Action.UPDATE, 3, 4096L),
            org.assertj.core.groups.Tuple.tuple(BlockEvent.Action.UNPERSIST_RDD, 3, 0L));
    assertThat(telemetry.tasks()).singleElement().satisfies(task -> {
      assertThat(task.taskId()).isEqualTo(7);
      assertThat(task.peakExecutionBytes()).isEqualTo(100);
    });
  }

  @Test
  void truncatedAndMalformedLinesAreSkippedAndCountedByReason() throws Exception {
    Path t = Files.createDirectory(dir.resolve("app-2.perflab-telemetry"));
    String good = gc("end of minor GC", 2000, 990, 100, 300);
    Files.writeString(t.resolve("gc-1.jsonl"), START + good + "{\"type\":\"gc\",\"action\n" + "[1,2]\n"
        + gc("end of minor GC", 2000, -5, 100, 300) + "{\"type\":\"heap_dump\"}\n" + good
        + good.substring(0, 40));
    Files.writeString(t.resolve("blocks.jsonl"), BLOCK.replace("\"rdd\",", "\"disk\",") + TASK + BLOCK);
    Files.writeString(t.resolve("manifest.json"),
        "{\"format\":\"perflab-telemetry\",\"version\":1,\"lines\":{\"gc-1.jsonl\":9,\"blocks.jsonl\":3}}");
    Telemetry telemetry = read(t);
    assertThat(telemetry.problems()).isEqualTo(Map.of(Telemetry.Problem.TRUNCATED_LINE, 1L,
        Telemetry.Problem.MALFORMED_JSON, 2L, Telemetry.Problem.BAD_FIELD, 2L, Telemetry.Problem.UNKNOWN_TYPE, 2L,
        Telemetry.Problem.MISSING_LINE, 2L, Telemetry.Problem.NO_EXECUTOR_END, 1L));
    assertThat(telemetry.gcRuns().get("1").collections()).hasSize(2);
    assertThat(telemetry.gcRuns().get("1").runtimeMs()).isEqualTo(2004 - 1000);
    assertThat(telemetry.blocks()).hasSize(1);
    assertThat(telemetry.hasGcModelData()).isFalse();
  }

  @Test
  void aMissingDirectoryOrManifestIsCountedAndMissedCollectionsToo() throws Exception {
    assertThat(read(dir.resolve("absent")).problems()).isEqualTo(Map.of(Telemetry.Problem.NO_DIRECTORY, 1L));
    Path t = Files.createDirectory(dir.resolve("app-3.perflab-telemetry"));
    Files.writeString(t.resolve("gc-driver.jsonl"), START + gc("end of minor GC", 2000, 990, 100, 300) + END);
    Files.writeString(t.resolve("manifest.json"), "{\"format\":\"other\"");
    Telemetry telemetry = read(t);
    assertThat(telemetry.problems()).isEqualTo(Map.of(Telemetry.Problem.BAD_MANIFEST, 1L,
        Telemetry.Problem.MISSED_COLLECTION, 4L));
    Files.delete(t.resolve("manifest.json"));
    assertThat(read(t).problems()).containsEntry(Telemetry.Problem.NO_MANIFEST, 1L);
  }

  @Test
  void theDirectorySitsBesideTheEventLogWhateverItsLayout() {
    org.apache.hadoop.fs.Path logs = new org.apache.hadoop.fs.Path("hdfs://nn/spark-history");
    for (String log : new String[] {"app-9_1", "app-9_1.zstd", "app-9_1.lz4.inprogress", "eventlog_v2_app-9_1"}) {
      assertThat(TelemetryReader.directoryFor(new org.apache.hadoop.fs.Path(logs, log)))
          .isEqualTo(new org.apache.hadoop.fs.Path(logs, "app-9_1.perflab-telemetry"));
    }
  }
}
