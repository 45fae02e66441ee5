package org.perflab.jobs.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Measures, from one uncompressed event log written with {@code spark.eventLog.logBlockUpdates.enabled=true}, the
 * bytes of cached RDD partitions that tasks had to compute again, and the bytes tasks spilled.
 *
 * <p>Spark's public APIs do not report a cache miss. They do report, in log order, every change of a block's storage
 * (SparkListenerBlockUpdated: stored, dropped, on disk; a drop carries the level the block has now and, as its memory
 * size, the bytes it freed, so a size counts only where the level holds it) and every task's start with its stage and
 * partition. With the
 * stage's RDD lineage (its RDD infos and their parents), the replay knows which persisted partitions a task needs:
 * from the stage's last RDDs it walks parents with the same partition count (narrow one-to-one dependencies, partition
 * {@code i} of the child needs partition {@code i} of the parent). At a persisted RDD, a block that some executor holds
 * in memory or on disk is a hit, and the walk stops there (Spark's {@code getOrElseUpdate} fetches it, locally or
 * remotely); a block that no executor holds is computed by the task, and the walk goes on to the parents. A computed
 * block that a task computed before is a <em>recomputation</em> of the block's size; the first computation is
 * compulsory. This sees what block updates alone cannot: a partition that {@code MEMORY_ONLY} declined to store is
 * never reported, yet every later task that needs it recomputes it. Block updates see what task starts cannot: a block
 * that was held when its task started, evicted while the task ran (by that task's own execution memory), and stored
 * again, was recomputed by that task.
 *
 * <p>A recomputed block's size is its last stored size in this log, else its size in {@code referenceSizes} (the same
 * block of a run that stored it, e.g. the run with enough memory), else the mean stored size of its RDD in this log.
 */
public final class CacheReplay {
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * What one log shows.
   *
   * @param recomputedBytes bytes of persisted partitions computed again after a first computation
   * @param recomputedBlocks such recomputations, count
   * @param hitBytes bytes of persisted partitions found held (memory or disk) when a task needed them
   * @param hits such reads, count
   * @param compulsoryBlocks first computations of persisted partitions, count
   * @param unsizedRecomputations recomputations whose block size was unknown (counted with 0 bytes)
   * @param memorySpilledBytes the sum of successful tasks' Memory Bytes Spilled (in-memory size of spilled data)
   * @param diskSpilledBytes the sum of successful tasks' Disk Bytes Spilled (bytes written to spill files)
   * @param peakCachedBytes the most bytes of RDD blocks one executor held in memory at once
   * @param evictedBytes bytes of RDD blocks the memory store evicted (block updates whose level no longer uses memory
   *     and that report the freed size); an unpersisted RDD's removal is not an eviction
   * @param evictedBlocks such evictions, count
   * @param blockSizes each RDD block's last stored size (memory, else disk), bytes, for a later run's replay
   */
  public record Measurement(long recomputedBytes, int recomputedBlocks, long hitBytes, int hits, int compulsoryBlocks,
      int unsizedRecomputations, long memorySpilledBytes, long diskSpilledBytes, long peakCachedBytes,
      long evictedBytes, int evictedBlocks, Map<String, Long> blockSizes) {}

  private record RddInfo(int id, List<Integer> parents, int partitions, boolean persisted) {}

  private final Map<String, Long> referenceSizes;
  private final Map<Integer, Map<Integer, RddInfo>> stages = new HashMap<>();
  /** Block → bytes it occupies now (memory + disk); absent when no executor holds it. */
  private final Map<String, Long> held = new HashMap<>();
  private final Map<String, Long> lastSize = new HashMap<>();
  private final Set<String> computed = new HashSet<>();
  /** Blocks a task start found missing, whose store (by that task) is still to come. */
  private final Set<String> expectedStores = new HashSet<>();
  /** Executor → block → bytes in memory. */
  private final Map<String, Map<String, Long>> inMemory = new HashMap<>();
  private long recomputedBytes;
  private int recomputedBlocks;
  private long hitBytes;
  private int hits;
  private int compulsory;
  private int unsized;
  private long memorySpilled;
  private long diskSpilled;
  private long peakCached;
  private long evictedBytes;
  private int evictedBlocks;

  private CacheReplay(Map<String, Long> referenceSizes) {
    this.referenceSizes = referenceSizes;
  }

  /** Replays {@code log} (one uncompressed event-log file); {@code referenceSizes} may be empty. */
  public static Measurement replay(Path log, Map<String, Long> referenceSizes) throws IOException {
    CacheReplay replay = new CacheReplay(referenceSizes);
    try (BufferedReader reader = Files.newBufferedReader(log, StandardCharsets.UTF_8)) {
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        if (!line.isBlank()) {
          replay.onEvent(JSON.readTree(line));
        }
      }
    }
    return replay.measurement();
  }

  private void onEvent(JsonNode event) {
    switch (event.path("Event").asText()) {
      case "SparkListenerStageSubmitted" -> onStage(event.path("Stage Info"));
      case "SparkListenerTaskStart" -> onTaskStart(event.path("Stage ID").asInt(), event.path("Task Info"));
      case "SparkListenerBlockUpdated" -> onBlock(event.path("Block Updated Info"));
      case "SparkListenerTaskEnd" -> onTaskEnd(event);
      case "SparkListenerUnpersistRDD" -> onUnpersist(event.path("RDD ID").asInt());
      default -> { }
    }
  }

  private void onStage(JsonNode stage) {
    Map<Integer, RddInfo> rdds = new HashMap<>();
    for (JsonNode rdd : stage.path("RDD Info")) {
      JsonNode level = rdd.path("Storage Level");
      boolean persisted = level.path("Use Memory").asBoolean() || level.path("Use Disk").asBoolean();
      List<Integer> parents = new java.util.ArrayList<>();
      rdd.path("Parent IDs").forEach(parent -> parents.add(parent.asInt()));
      int id = rdd.path("RDD ID").asInt();
      rdds.put(id, new RddInfo(id, parents, rdd.path("Number of Partitions").asInt(), persisted));
    }
    stages.put(stage.path("Stage ID").asInt(), rdds);
  }

  private void onTaskStart(int stageId, JsonNode task) {
    Map<Integer, RddInfo> rdds = stages.getOrDefault(stageId, Map.of());
    int partition = task.has("Partition ID") ? task.path("Partition ID").asInt() : task.path("Index").asInt();
    Set<Integer> parentsInStage = new HashSet<>();
    rdds.values().forEach(rdd -> parentsInStage.addAll(rdd.parents()));
    Deque<RddInfo> toVisit = new ArrayDeque<>();
    rdds.values().stream().filter(rdd -> !parentsInStage.contains(rdd.id())).forEach(toVisit::push);
    Set<Integer> visited = new HashSet<>();
    while (!toVisit.isEmpty()) {
      RddInfo rdd = toVisit.pop();
      if (!visited.add(rdd.id()) || rdd.persisted() && hit("rdd_" + rdd.id() + "_" + partition)) {
        continue;
      }
      for (int parentId : rdd.parents()) {
        RddInfo parent = rdds.get(parentId);
        if (parent != null && parent.partitions() == rdd.partitions()) {
          toVisit.push(parent);
        }
      }
    }
  }

  /** Whether {@code block} is held; if not, records its computation (compulsory or recomputed). */
  private boolean hit(String block) {
    Long size = held.get(block);
    if (size != null) {
      hits++;
      hitBytes += size;
      return true;
    }
    expectedStores.add(block);
    if (computed.add(block)) {
      compulsory++;
    } else {
      recomputedBlocks++;
      long bytes = sizeOf(block);
      unsized += bytes == 0 ? 1 : 0;
      recomputedBytes += bytes;
    }
    return false;
  }

  private long sizeOf(String block) {
    Long size = lastSize.getOrDefault(block, referenceSizes.get(block));
    if (size != null) {
      return size;
    }
    String rddPrefix = block.substring(0, block.lastIndexOf('_') + 1);
    return Math.round(lastSize.entrySet().stream().filter(entry -> entry.getKey().startsWith(rddPrefix))
        .mapToLong(Map.Entry::getValue).average().orElse(0));
  }

  private void onBlock(JsonNode update) {
    String block = update.path("Block ID").asText();
    if (!block.startsWith("rdd_")) {
      return;
    }
    String executor = update.path("Block Manager ID").path("Executor ID").asText();
    // an eviction is logged with the level the block has now and, as its memory size, the bytes it freed
    JsonNode level = update.path("Storage Level");
    boolean inMemoryNow = level.path("Use Memory").asBoolean(true);
    long reportedMemory = update.path("Memory Size").asLong();
    long memory = inMemoryNow ? reportedMemory : 0;
    long disk = level.path("Use Disk").asBoolean(true) ? update.path("Disk Size").asLong() : 0;
    if (!inMemoryNow && reportedMemory > 0) {
      evictedBlocks++;
      evictedBytes += reportedMemory;
    }
    Map<String, Long> executorBlocks = inMemory.computeIfAbsent(executor, key -> new HashMap<>());
    if (memory > 0) {
      executorBlocks.put(block, memory);
    } else {
      executorBlocks.remove(block);
    }
    peakCached = Math.max(peakCached, executorBlocks.values().stream().mapToLong(Long::longValue).sum());
    if (memory + disk > 0) {
      if (!expectedStores.remove(block) && !held.containsKey(block) && computed.contains(block)) {
        // stored again after an eviction by a task that found it held when it started: evicted while the task ran
        recomputedBlocks++;
        recomputedBytes += memory > 0 ? memory : disk;
      }
      held.put(block, memory + disk);
      lastSize.put(block, memory > 0 ? memory : disk);
      computed.add(block);
    } else if (inMemory.values().stream().noneMatch(blocks -> blocks.containsKey(block))) {
      held.remove(block);
    }
  }

  /** {@code unpersist} removes an RDD's blocks without a block update for each. */
  private void onUnpersist(int rddId) {
    String prefix = "rdd_" + rddId + "_";
    held.keySet().removeIf(block -> block.startsWith(prefix));
    inMemory.values().forEach(blocks -> blocks.keySet().removeIf(block -> block.startsWith(prefix)));
  }

  private void onTaskEnd(JsonNode event) {
    if (!"Success".equals(event.path("Task End Reason").path("Reason").asText())) {
      return;
    }
    JsonNode metrics = event.path("Task Metrics");
    memorySpilled += metrics.path("Memory Bytes Spilled").asLong();
    diskSpilled += metrics.path("Disk Bytes Spilled").asLong();
  }

  private Measurement measurement() {
    return new Measurement(recomputedBytes, recomputedBlocks, hitBytes, hits, compulsory, unsized, memorySpilled,
        diskSpilled, peakCached, evictedBytes, evictedBlocks, Map.copyOf(lastSize));
  }
}
