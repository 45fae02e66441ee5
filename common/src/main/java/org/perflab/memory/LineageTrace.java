package org.perflab.memory;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Tier A of reference 004 §4.3 item 2: the ideal access trace of an application synthesised from the RDD lineage of
 * its event log, for a run with enough memory (so it has no misses to remove). Tasks are replayed in launch order
 * (ties by task id). A task of stage s at partition i reads the partitions of the nearest memory-persisted RDDs it
 * reaches through the stage's narrow dependencies (index i when parent and child have as many partitions, otherwise the
 * whole parent: an unknown dependency shape such as coalesce or union, counted), and writes each persisted partition
 * it computes the first time; a task that writes shuffle bytes writes its piece of its stage's shuffle, and every task
 * reads the shuffles of its stage's parent stages.
 *
 * <p>A partition's size is its RDD's largest observed in-memory size over its cached partitions (the disk size when
 * only that was logged); RDDs never seen cached are unsized (size 0, counted). Broadcasts are not in event logs.
 */
public final class LineageTrace {
  private final Map<Integer, Map<Integer, RddNode>> stageRdds = new HashMap<>();
  private final Map<Integer, List<Integer>> parentStages = new HashMap<>();
  private final Map<Integer, Long> partitionBytes = new HashMap<>();
  private final Set<Integer> unsized = new HashSet<>();
  private final Set<String> written = new HashSet<>();
  private final Map<String, Long> blockBytes = new LinkedHashMap<>();
  private final List<Access> accesses = new ArrayList<>();
  private int unknownShapes;

  /**
   * One RDD of a stage's lineage, as the {@code stages.rdds} column holds it.
   *
   * @param memoryPersisted whether its storage level keeps it in memory
   * @param memoryBytes cached bytes in memory at the time of the stage's event
   * @param diskBytes cached bytes on disk at that time
   */
  public record RddNode(int rddId, List<Integer> parentIds, int numPartitions, int numCachedPartitions,
      boolean memoryPersisted, long memoryBytes, long diskBytes) {}

  /** A stage (any attempt) with its parent stages and the RDDs of its pipeline. */
  public record StageLineage(int stageId, List<Integer> parentStageIds, List<RddNode> rdds) {}

  /**
   * A successful task.
   *
   * @param launchTimeMs launch time, epoch ms
   * @param peakExecutionBytes Spark's "Peak Execution Memory", bytes
   * @param memorySpilledBytes Spark's "Memory Bytes Spilled" (the in-memory size of what it spilled), bytes
   * @param shuffleWriteBytes shuffle bytes written, bytes
   */
  public record TaskRun(int stageId, int index, long taskId, long launchTimeMs, long peakExecutionBytes,
      long memorySpilledBytes, long shuffleWriteBytes) {}

  /**
   * The synthesised trace and what it could not see.
   *
   * @param accesses the trace (shuffle pieces not yet consolidated)
   * @param partitionBytes the size of every distinct RDD partition the trace touches, bytes
   * @param taskExecutionBytes each task's execution need, peak plus spilled memory, bytes
   * @param unknownShapes dependencies read as a whole parent because the partition counts differ
   * @param unsizedRdds persisted RDDs with no cached size in the log
   */
  public record Synthesis(List<Access> accesses, long[] partitionBytes, long[] taskExecutionBytes, int unknownShapes,
      int unsizedRdds) {}

  private LineageTrace(List<StageLineage> stages) {
    for (StageLineage s : stages) {
      Map<Integer, RddNode> rdds = stageRdds.computeIfAbsent(s.stageId(), k -> new LinkedHashMap<>());
      s.rdds().forEach(r -> rdds.putIfAbsent(r.rddId(), r));
      parentStages.putIfAbsent(s.stageId(), s.parentStageIds());
      s.rdds().forEach(this::observeSize);
    }
  }

  /** The Tier A trace of an application from its stages (every attempt) and its successful tasks. */
  public static Synthesis of(List<StageLineage> stages, List<TaskRun> tasks) {
    LineageTrace trace = new LineageTrace(stages);
    List<TaskRun> ordered = tasks.stream()
        .sorted(Comparator.comparingLong(TaskRun::launchTimeMs).thenComparingLong(TaskRun::taskId)).toList();
    long[] execution = new long[ordered.size()];
    for (int i = 0; i < ordered.size(); i++) {
      TaskRun t = ordered.get(i);
      trace.replay(t);
      execution[i] = t.peakExecutionBytes() + t.memorySpilledBytes();
    }
    trace.stageRdds.values().forEach(rdds -> rdds.values().stream()
        .filter(r -> r.memoryPersisted() && !trace.partitionBytes.containsKey(r.rddId()))
        .forEach(r -> trace.unsized.add(r.rddId())));
    long[] partitions = trace.blockBytes.values().stream().mapToLong(Long::longValue).toArray();
    return new Synthesis(List.copyOf(trace.accesses), partitions, execution, trace.unknownShapes,
        trace.unsized.size());
  }

  private void observeSize(RddNode r) {
    if (!r.memoryPersisted() || r.numCachedPartitions() <= 0) {
      return;
    }
    long cached = r.memoryBytes() > 0 ? r.memoryBytes() : r.diskBytes();
    if (cached > 0) {
      partitionBytes.merge(r.rddId(), -Math.floorDiv(-cached, r.numCachedPartitions()), Math::max);
    }
  }

  private void replay(TaskRun task) {
    for (int parent : parentStages.getOrDefault(task.stageId(), List.of())) {
      accesses.add(Access.read(Domain.SHUFFLE.prefix() + parent, 0));
    }
    Map<Integer, RddNode> rdds = stageRdds.getOrDefault(task.stageId(), Map.of());
    Set<Integer> parents = new HashSet<>();
    rdds.values().forEach(r -> parents.addAll(r.parentIds()));
    Set<String> visited = new HashSet<>();
    for (RddNode r : rdds.values()) {
      if (!parents.contains(r.rddId())) {
        visit(rdds, r, task.index(), visited);
      }
    }
    if (task.shuffleWriteBytes() > 0) {
      accesses.add(Access.write(Domain.SHUFFLE.prefix() + task.stageId() + "_" + task.index(),
          task.shuffleWriteBytes()));
    }
  }

  /** Visits partition {@code index} of {@code rdd} (-1: every partition) and what it needs, recording accesses. */
  private void visit(Map<Integer, RddNode> rdds, RddNode rdd, int index, Set<String> visited) {
    if (!visited.add(rdd.rddId() + ":" + index)) {
      return;
    }
    if (rdd.memoryPersisted()) {
      int first = index < 0 ? 0 : index;
      int last = index < 0 ? rdd.numPartitions() - 1 : index;
      for (int p = first; p <= last; p++) {
        computeOrRead(rdds, rdd, p, visited);
      }
      return;
    }
    visitParents(rdds, rdd, index, visited);
  }

  private void computeOrRead(Map<Integer, RddNode> rdds, RddNode rdd, int partition, Set<String> visited) {
    String block = Domain.RDD.prefix() + rdd.rddId() + "_" + partition;
    long bytes = partitionBytes.getOrDefault(rdd.rddId(), 0L);
    if (written.contains(block)) {
      accesses.add(Access.read(block, bytes));
      return;
    }
    visitParents(rdds, rdd, partition, visited);
    accesses.add(Access.write(block, bytes));
    written.add(block);
    blockBytes.put(block, bytes);
  }

  private void visitParents(Map<Integer, RddNode> rdds, RddNode rdd, int index, Set<String> visited) {
    for (int parentId : rdd.parentIds()) {
      RddNode parent = rdds.get(parentId);
      if (parent == null) {
        continue; // a shuffle dependency: the parent is in another stage
      }
      boolean oneToOne = parent.numPartitions() == rdd.numPartitions();
      if (!oneToOne && index >= 0) {
        unknownShapes++;
      }
      visit(rdds, parent, oneToOne ? index : -1, visited);
    }
  }
}
