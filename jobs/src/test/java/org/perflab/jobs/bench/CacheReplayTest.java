package org.perflab.jobs.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CacheReplayTest {
  private static final String NOT_PERSISTED = "{\"Use Disk\":false,\"Use Memory\":false}";
  private static final String MEMORY_ONLY = "{\"Use Disk\":false,\"Use Memory\":true}";

  private static String stage(int stage, String rdds) {
    return "{\"Event\":\"SparkListenerStageSubmitted\",\"Stage Info\":{\"Stage ID\":" + stage + ",\"RDD Info\":["
        + rdds + "]}}";
  }

  private static String rdd(int id, String parents, String level, int partitions) {
    return "{\"RDD ID\":" + id + ",\"Parent IDs\":[" + parents + "],\"Storage Level\":" + level
        + ",\"Number of Partitions\":" + partitions + "}";
  }

  private static String taskStart(int stage, int partition) {
    return "{\"Event\":\"SparkListenerTaskStart\",\"Stage ID\":" + stage + ",\"Task Info\":{\"Partition ID\":"
        + partition + ",\"Index\":" + partition + "}}";
  }

  /** A block update as Spark logs it: the block's new level, and its memory size (on eviction, the size freed). */
  private static String block(String executor, String block, String level, long memory) {
    return "{\"Event\":\"SparkListenerBlockUpdated\",\"Block Updated Info\":{\"Block Manager ID\":{\"Executor ID\":\""
        + executor + "\"},\"Block ID\":\"" + block + "\",\"Storage Level\":" + level + ",\"Memory Size\":" + memory
        + ",\"Disk Size\":0}}";
  }

  private static String taskEnd(String reason, long memorySpilled, long diskSpilled) {
    return "{\"Event\":\"SparkListenerTaskEnd\",\"Task End Reason\":{\"Reason\":\"" + reason + "\"},\"Task Metrics\":"
        + "{\"Memory Bytes Spilled\":" + memorySpilled + ",\"Disk Bytes Spilled\":" + diskSpilled + "}}";
  }

  @Test
  void countsRecomputationsOfDeclinedAndDroppedPartitionsButNotHits(@TempDir Path temp) throws Exception {
    String source = rdd(0, "", NOT_PERSISTED, 2);
    String cached = rdd(1, "0", MEMORY_ONLY, 2);
    Path log = Files.write(temp.resolve("app"), List.of(
        stage(0, cached + "," + source),
        taskStart(0, 0), block("1", "rdd_1_0", MEMORY_ONLY, 100), taskEnd("Success", 0, 0),
        taskStart(0, 1), taskEnd("Success", 0, 0),                 // declined: never reported
        stage(1, rdd(2, "1", NOT_PERSISTED, 2) + "," + cached + "," + source + "," + rdd(3, "", NOT_PERSISTED, 5)),
        taskStart(1, 0), taskEnd("Success", 7, 3),                 // hit
        taskStart(1, 1), taskEnd("Success", 0, 0),                 // recomputed, size from the reference run
        block("1", "rdd_1_0", NOT_PERSISTED, 100),                 // evicted: no level, the size it freed
        stage(2, rdd(4, "1", NOT_PERSISTED, 2) + "," + cached + "," + source),
        taskStart(2, 0), taskEnd("ExceptionFailure", 50, 50)));   // recomputed, its last stored size

    CacheReplay.Measurement measured = CacheReplay.replay(log, Map.of("rdd_1_1", 80L, "rdd_1_0", 999L));

    assertThat(measured.compulsoryBlocks()).isEqualTo(2);
    assertThat(measured.hits()).isEqualTo(1);
    assertThat(measured.hitBytes()).isEqualTo(100);
    assertThat(measured.recomputedBlocks()).isEqualTo(2);
    assertThat(measured.recomputedBytes()).isEqualTo(80 + 100);
    assertThat(measured.unsizedRecomputations()).isZero();
    assertThat(measured.memorySpilledBytes()).isEqualTo(7);
    assertThat(measured.diskSpilledBytes()).isEqualTo(3);
    assertThat(measured.peakCachedBytes()).isEqualTo(100);
    assertThat(measured.evictedBlocks()).isEqualTo(1);
    assertThat(measured.evictedBytes()).isEqualTo(100);
    assertThat(measured.blockSizes()).containsExactly(Map.entry("rdd_1_0", 100L));
  }

  @Test
  void aBlockEvictedWhileItsTaskRanAndStoredAgainWasRecomputed(@TempDir Path temp) throws Exception {
    String cached = rdd(1, "0", MEMORY_ONLY, 1);
    String source = rdd(0, "", NOT_PERSISTED, 1);
    Path log = Files.write(temp.resolve("app"), List.of(
        stage(0, cached + "," + source),
        taskStart(0, 0), block("1", "rdd_1_0", MEMORY_ONLY, 100), taskEnd("Success", 0, 0),
        stage(1, rdd(2, "1", NOT_PERSISTED, 1) + "," + cached + "," + source),
        taskStart(1, 0),                                           // held at the start
        block("1", "rdd_1_0", NOT_PERSISTED, 100),                 // evicted by the task's execution memory
        block("1", "rdd_1_0", MEMORY_ONLY, 90),                    // computed and stored again by the task
        taskEnd("Success", 0, 0),
        stage(2, rdd(3, "1", NOT_PERSISTED, 1) + "," + cached + "," + source),
        taskStart(2, 0), taskEnd("Success", 0, 0)));               // a hit; no store, nothing recomputed

    CacheReplay.Measurement measured = CacheReplay.replay(log, Map.of());

    assertThat(measured.compulsoryBlocks()).isEqualTo(1);
    assertThat(measured.recomputedBlocks()).isEqualTo(1);
    assertThat(measured.recomputedBytes()).isEqualTo(90);
    assertThat(measured.evictedBytes()).isEqualTo(100);
    assertThat(measured.hits()).isEqualTo(2);
  }

  @Test
  void storageSettingGivesTheUnifiedRegionStoragePlusExecution() {
    long heap = 600L << 20;
    StorageSetting setting = StorageSetting.of(0.8, 100L << 20, 50L << 20, heap);

    assertThat(setting.storageBytes()).isEqualTo(80L << 20);
    assertThat(setting.managedBytes()).isBetween(130L << 20, (130L << 20) + 400);
    assertThat(setting.storageFraction() * setting.managedBytes()).isBetween(80.0 * (1 << 20), 80.0 * (1 << 20) + 400);
    assertThat(setting.executorMemory()).isEqualTo("600m");
    assertThatThrownBy(() -> StorageSetting.of(1.2, 200L << 20, 100L << 20, heap))
        .hasMessageContaining("Cannot size the unified memory");
  }
}
