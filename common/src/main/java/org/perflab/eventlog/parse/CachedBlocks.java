package org.perflab.eventlog.parse;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashMap;
import java.util.Map;

/**
 * The RDD blocks the executors hold, from {@code SparkListenerBlockUpdated} events (logged when
 * {@code spark.eventLog.logBlockUpdates.enabled} is on). Since Spark 2.0 a stage's RDD infos no longer carry cached
 * partitions and sizes (always 0); Spark 1.x filled them in at stage completion from the same block statuses, and this
 * gives the stage rows those values back.
 */
final class CachedBlocks {
  /** RDD id → "partition@executor" → {memory bytes, disk bytes}. */
  private final Map<Integer, Map<String, long[]>> blocks = new HashMap<>();

  /**
   * What an RDD has cached now, over all executors.
   *
   * @param partitions distinct partitions held in memory or on disk
   * @param memoryBytes bytes in memory
   * @param diskBytes bytes on disk
   */
  record Cached(int partitions, long memoryBytes, long diskBytes) {}

  /**
   * Records one {@code SparkListenerBlockUpdated}; other blocks than RDD blocks are ignored. A size counts only where
   * the block's new storage level says it is held: a block evicted from memory is reported with a level that does not
   * use memory and, as its memory size, the bytes it freed ({@code BlockManager.tryToReportBlockStatus} sends the
   * larger of the held and the dropped size; the History Server's {@code AppStatusListener} subtracts it).
   *
   * @return the in-memory bytes this update evicted (an RDD block whose new level does not use memory), else 0
   */
  long update(JsonNode event) {
    JsonNode info = Json.requireNode(event, "Block Updated Info");
    String block = Json.text(info, "Block ID");
    if (block == null || !block.startsWith("rdd_")) {
      return 0;
    }
    String[] parts = block.split("_");
    if (parts.length != 3) {
      return 0;
    }
    int rdd = Integer.parseInt(parts[1]);
    String executor = Json.text(Json.node(info, "Block Manager ID"), "Executor ID");
    JsonNode level = Json.node(info, "Storage Level");
    boolean inMemory = level == null || Json.flag(level, "Use Memory");
    long reportedMemory = orZero(Json.longValue(info, "Memory Size"));
    long memoryBytes = inMemory ? reportedMemory : 0;
    long diskBytes = level == null || Json.flag(level, "Use Disk") ? orZero(Json.longValue(info, "Disk Size")) : 0;
    Map<String, long[]> held = blocks.computeIfAbsent(rdd, k -> new HashMap<>());
    String key = parts[2] + "@" + executor;
    if (memoryBytes + diskBytes > 0) {
      held.put(key, new long[] {memoryBytes, diskBytes});
    } else {
      held.remove(key);
    }
    return inMemory ? 0 : reportedMemory;
  }

  private static long orZero(Long bytes) {
    return bytes == null ? 0 : bytes;
  }

  /** What {@code rddId} has cached now; null when no block of it was ever reported. */
  Cached cached(int rddId) {
    Map<String, long[]> held = blocks.get(rddId);
    if (held == null) {
      return null;
    }
    long memory = 0;
    long disk = 0;
    java.util.Set<String> partitions = new java.util.HashSet<>();
    for (Map.Entry<String, long[]> entry : held.entrySet()) {
      memory += entry.getValue()[0];
      disk += entry.getValue()[1];
      partitions.add(entry.getKey().substring(0, entry.getKey().indexOf('@')));
    }
    return new Cached(partitions.size(), memory, disk);
  }
}
