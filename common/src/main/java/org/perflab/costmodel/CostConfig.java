package org.perflab.costmodel;

import java.io.Serializable;
import org.perflab.errors.BadInputException;

/**
 * The Spark configuration the cost model reads (the reference's Table 5 parameters p*).
 *
 * @param executors pNumExec, executors (≥ 1)
 * @param coresPerExecutor pExecCores, spark.executor.cores (≥ taskCpus)
 * @param taskCpus pTaskCpus, spark.task.cpus (≥ 1)
 * @param executorMemoryBytes pExecMem, spark.executor.memory (the heap), bytes (≥ 1)
 * @param memory how the heap becomes a task's spill buffer (legacy eq. (19) or Spark's unified manager)
 * @param shuffleManager spark.shuffle.manager
 * @param bypassThreshold spark.shuffle.sort.bypassMergeThreshold, reduce partitions (≥ 0)
 * @param spill spark.shuffle.spill (always true since Spark 1.6)
 * @param shuffleCompress spark.shuffle.compress
 * @param spillCompress spark.shuffle.spill.compress
 * @param codec spark.io.compression.codec
 * @param serializer spark.serializer
 */
public record CostConfig(int executors, int coresPerExecutor, int taskCpus, long executorMemoryBytes,
    MemoryModel memory, ShuffleManager shuffleManager, int bypassThreshold, boolean spill, boolean shuffleCompress,
    boolean spillCompress, Codec codec, SerializerKind serializer) implements Serializable {

  /** Spark's default spark.shuffle.sort.bypassMergeThreshold. */
  public static final int DEFAULT_BYPASS_THRESHOLD = 200;

  public CostConfig {
    BadInputException.require(executors >= 1, "Cannot model executors: fewer than one (%d; ≥ 1)", executors);
    BadInputException.require(taskCpus >= 1, "Cannot model spark.task.cpus: below one (%d; ≥ 1)", taskCpus);
    BadInputException.require(coresPerExecutor >= taskCpus,
        "Cannot model cores per executor: fewer than spark.task.cpus (%d; ≥ %d)", coresPerExecutor, taskCpus);
    BadInputException.require(executorMemoryBytes >= 1,
        "Cannot model executor memory: not positive (%d bytes; ≥ 1)", executorMemoryBytes);
    BadInputException.require(bypassThreshold >= 0,
        "Cannot model spark.shuffle.sort.bypassMergeThreshold: negative (%d; ≥ 0)", bypassThreshold);
    BadInputException.require(memory != null && shuffleManager != null && codec != null && serializer != null,
        "Cannot model configuration: memory model, shuffle manager, codec and serializer are required (%s)",
        "null given");
  }

  /** Spark ≥ 2 defaults (unified memory, sort manager, compression on, lz4, Java serializer) for a cluster shape. */
  public static CostConfig sparkDefaults(int executors, int coresPerExecutor, long executorMemoryBytes) {
    return new CostConfig(executors, coresPerExecutor, 1, executorMemoryBytes, MemoryModel.Unified.DEFAULT,
        ShuffleManager.SORT, DEFAULT_BYPASS_THRESHOLD, true, true, true, Codec.LZ4, SerializerKind.JAVA);
  }

  /** Tasks one executor runs at once: pExecCores ÷ pTaskCpus, rounded down. */
  public int slotsPerExecutor() {
    return coresPerExecutor / taskCpus;
  }

  /** Task slots of the cluster: executors × slots per executor. */
  public int slots() {
    return executors * slotsPerExecutor();
  }

  /** dSpillBufferSize, eq. (19) or its unified-memory replacement: bytes one task may buffer before it spills. */
  public double spillBufferBytes() {
    return memory.spillBufferBytes(executorMemoryBytes, slotsPerExecutor());
  }

  public CostConfig withExecutorMemoryBytes(long bytes) {
    return new CostConfig(executors, coresPerExecutor, taskCpus, bytes, memory, shuffleManager, bypassThreshold,
        spill, shuffleCompress, spillCompress, codec, serializer);
  }

  public CostConfig withCores(int cores) {
    return new CostConfig(executors, cores, taskCpus, executorMemoryBytes, memory, shuffleManager, bypassThreshold,
        spill, shuffleCompress, spillCompress, codec, serializer);
  }

  public CostConfig withExecutors(int count) {
    return new CostConfig(count, coresPerExecutor, taskCpus, executorMemoryBytes, memory, shuffleManager,
        bypassThreshold, spill, shuffleCompress, spillCompress, codec, serializer);
  }

  public CostConfig withCodec(Codec c) {
    return new CostConfig(executors, coresPerExecutor, taskCpus, executorMemoryBytes, memory, shuffleManager,
        bypassThreshold, spill, shuffleCompress, spillCompress, c, serializer);
  }

  public CostConfig withSerializer(SerializerKind s) {
    return new CostConfig(executors, coresPerExecutor, taskCpus, executorMemoryBytes, memory, shuffleManager,
        bypassThreshold, spill, shuffleCompress, spillCompress, codec, s);
  }

  public CostConfig withShuffleManager(ShuffleManager m) {
    return new CostConfig(executors, coresPerExecutor, taskCpus, executorMemoryBytes, memory, m, bypassThreshold,
        spill, shuffleCompress, spillCompress, codec, serializer);
  }

  public CostConfig withSpill(boolean on) {
    return new CostConfig(executors, coresPerExecutor, taskCpus, executorMemoryBytes, memory, shuffleManager,
        bypassThreshold, on, shuffleCompress, spillCompress, codec, serializer);
  }

  public CostConfig withShuffleCompress(boolean on) {
    return new CostConfig(executors, coresPerExecutor, taskCpus, executorMemoryBytes, memory, shuffleManager,
        bypassThreshold, spill, on, spillCompress, codec, serializer);
  }
}
