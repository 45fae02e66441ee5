package org.perflab.eventlog.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perflab.table.Table;
import org.perflab.table.TableRow;

/**
 * Spark 2.0 and later log a stage's RDD infos with no cached partitions or sizes; with block updates in the log the
 * stage row gets them from the blocks held at StageCompleted, as Spark 1.x logged them. Evictions are counted per
 * executor.
 */
class CachedBlocksTest {
  private static String stageInfo(boolean completed) {
    String level = "{\"Use Disk\":false,\"Use Memory\":true,\"Use Off Heap\":false,\"Deserialized\":true,"
        + "\"Replication\":1}";
    return "{\"Stage ID\":0,\"Stage Attempt ID\":0,\"Stage Name\":\"s\",\"Number of Tasks\":3,\"RDD Info\":["
        + "{\"RDD ID\":5,\"Name\":\"cached\",\"Parent IDs\":[],\"Storage Level\":" + level
        + ",\"Number of Partitions\":3,\"Number of Cached Partitions\":0,\"Memory Size\":0,\"Disk Size\":0},"
        + "{\"RDD ID\":6,\"Name\":\"logged\",\"Parent IDs\":[5],\"Storage Level\":" + level
        + ",\"Number of Partitions\":3,\"Number of Cached Partitions\":2,\"Memory Size\":70,\"Disk Size\":0}],"
        + "\"Parent IDs\":[],\"Submission Time\":1100" + (completed ? ",\"Completion Time\":1200" : "")
        + ",\"Accumulables\":[]}";
  }

  private static String block(String executor, String block, long memory, long disk) {
    return block(executor, block, memory > 0, disk > 0, memory, disk);
  }

  /** A block update as Spark logs it: the new storage level, and the held sizes (the dropped size on eviction). */
  private static String block(String executor, String block, boolean useMemory, boolean useDisk, long memory,
      long disk) {
    return "{\"Event\":\"SparkListenerBlockUpdated\",\"Block Updated Info\":{\"Block Manager ID\":{\"Executor ID\":\""
        + executor + "\",\"Host\":\"h\",\"Port\":1},\"Block ID\":\"" + block + "\",\"Storage Level\":{\"Use Disk\":"
        + useDisk + ",\"Use Memory\":" + useMemory + ",\"Use Off Heap\":false,\"Deserialized\":true,\"Replication\":1},"
        + "\"Memory Size\":" + memory + ",\"Disk Size\":" + disk + "}}";
  }

  @Test
  void stageRowsGetTheCachedSizesOfTheBlocksHeldAtCompletion(@TempDir Path dir) throws Exception {
    Path file = Files.write(dir.resolve("app-1"), List.of(
        "{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"4.1.0\"}",
        "{\"Event\":\"SparkListenerApplicationStart\",\"App Name\":\"c\",\"App ID\":\"app-1\",\"Timestamp\":1000,"
            + "\"User\":\"me\"}",
        blockManagerAdded("1"),
        blockManagerAdded("2"),
        "{\"Event\":\"SparkListenerStageSubmitted\",\"Stage Info\":" + stageInfo(false) + "}",
        block("1", "rdd_5_0", 100, 0),
        block("2", "rdd_5_1", 120, 0),
        block("2", "rdd_5_2", 0, 90),
        // evicted from memory: Spark logs the level it has now (none) with the memory size it freed
        block("1", "rdd_5_0", false, false, 100, 0),
        block("1", "rdd_5_2", 40, 0),
        // evicted to disk (MEMORY_AND_DISK): the level uses disk only, the memory size is what it freed
        block("1", "rdd_5_2", false, true, 40, 35),
        block("1", "broadcast_0_piece0", 50, 0),
        "{\"Event\":\"SparkListenerStageCompleted\",\"Stage Info\":" + stageInfo(true) + "}",
        "{\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":1500}"));

    ParsedLog parsed = ParsedLog.parse(file, false);

    TableRow stage = parsed.rows(Table.STAGES).get(0);
    List<Row> rdds = List.of((Row[]) stage.get("rdds"));
    assertThat(rdds).hasSize(2);
    Row cached = rdds.get(0);
    assertThat(List.of(cached.getInt(0), cached.getInt(6), cached.getLong(8), cached.getLong(9)))
        .containsExactly(5, 2, 120L, 125L);
    Row logged = rdds.get(1);
    assertThat(List.of(logged.getInt(0), logged.getInt(6), logged.getLong(8))).containsExactly(6, 2, 70L);
    assertThat(((Number) parsed.status().get("unknown_events")).longValue()).isZero();

    // both evictions were executor 1's (to nowhere, and to disk); executor 2 evicted nothing
    assertThat(parsed.rows(Table.EXECUTORS)).extracting(r -> r.get("executor_id"), r -> r.get("evicted_rdd_blocks"),
        r -> r.get("evicted_rdd_bytes")).containsExactlyInAnyOrder(tuple("1", 2L, 140L), tuple("2", 0L, 0L));
  }

  private static String blockManagerAdded(String executor) {
    return "{\"Event\":\"SparkListenerBlockManagerAdded\",\"Block Manager ID\":{\"Executor ID\":\"" + executor
        + "\",\"Host\":\"h\",\"Port\":1},\"Maximum Memory\":1000,\"Timestamp\":1001}";
  }
}
