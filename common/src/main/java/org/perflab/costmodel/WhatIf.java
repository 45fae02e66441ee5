package org.perflab.costmodel;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.perflab.errors.BadInputException;

/**
 * A configuration change to predict: each field null keeps the source run's value.
 *
 * @param executorMemoryBytes spark.executor.memory, bytes
 * @param shufflePartitions spark.sql.shuffle.partitions / spark.default.parallelism: the task count of every stage
 *     whose {@link StageSpec#partitionsFromConf()} is set
 * @param codec spark.io.compression.codec
 * @param serializer spark.serializer
 * @param coresPerExecutor spark.executor.cores
 * @param executors executors
 */
public record WhatIf(Long executorMemoryBytes, Integer shufflePartitions, Codec codec, SerializerKind serializer,
    Integer coresPerExecutor, Integer executors) implements Serializable {

  /** No change. */
  public static final WhatIf NONE = new WhatIf(null, null, null, null, null, null);

  public WhatIf {
    BadInputException.require(shufflePartitions == null || shufflePartitions >= 1,
        "Cannot predict shuffle partitions: fewer than one (%s; ≥ 1)", shufflePartitions);
  }

  public WhatIf withExecutorMemoryBytes(long bytes) {
    return new WhatIf(bytes, shufflePartitions, codec, serializer, coresPerExecutor, executors);
  }

  public WhatIf withShufflePartitions(int partitions) {
    return new WhatIf(executorMemoryBytes, partitions, codec, serializer, coresPerExecutor, executors);
  }

  public WhatIf withCodec(Codec c) {
    return new WhatIf(executorMemoryBytes, shufflePartitions, c, serializer, coresPerExecutor, executors);
  }

  public WhatIf withSerializer(SerializerKind s) {
    return new WhatIf(executorMemoryBytes, shufflePartitions, codec, s, coresPerExecutor, executors);
  }

  public WhatIf withCoresPerExecutor(int cores) {
    return new WhatIf(executorMemoryBytes, shufflePartitions, codec, serializer, cores, executors);
  }

  public WhatIf withExecutors(int count) {
    return new WhatIf(executorMemoryBytes, shufflePartitions, codec, serializer, coresPerExecutor, count);
  }

  /** The changed configuration. */
  public CostConfig apply(CostConfig c) {
    CostConfig r = executorMemoryBytes == null ? c : c.withExecutorMemoryBytes(executorMemoryBytes);
    r = codec == null ? r : r.withCodec(codec);
    r = serializer == null ? r : r.withSerializer(serializer);
    r = coresPerExecutor == null ? r : r.withCores(coresPerExecutor);
    return executors == null ? r : r.withExecutors(executors);
  }

  /**
   * The statistics under this change, for statistics fitted on the run configured as {@code source} (see
   * {@link ClusterStats#rebased}): unchanged when codec and serializer stay the source's, otherwise rebased by
   * {@code table}'s measured ratios. Bad input when the table lacks the source's or the new setting.
   */
  public ClusterStats apply(CostConfig source, ClusterStats stats, CodecCostTable table) {
    Codec c = codec == null ? source.codec() : codec;
    SerializerKind s = serializer == null ? source.serializer() : serializer;
    return c == source.codec() && s == source.serializer() ? stats : stats.rebased(source, c, s, table);
  }

  /**
   * The change from configuration {@code a} to {@code b}: each of executor memory, codec, serializer, cores per
   * executor and executors that differs, and {@code shufflePartitionsB} (null: unchanged).
   */
  public static WhatIf between(CostConfig a, CostConfig b, Integer shufflePartitionsB) {
    return new WhatIf(a.executorMemoryBytes() == b.executorMemoryBytes() ? null : b.executorMemoryBytes(),
        shufflePartitionsB, a.codec() == b.codec() ? null : b.codec(),
        a.serializer() == b.serializer() ? null : b.serializer(),
        a.coresPerExecutor() == b.coresPerExecutor() ? null : b.coresPerExecutor(),
        a.executors() == b.executors() ? null : b.executors());
  }

  /** The changed stages: new task counts where partitions come from the configuration. */
  public List<StageSpec> apply(List<StageSpec> stages) {
    List<StageSpec> r = new ArrayList<>();
    for (StageSpec s : stages) {
      r.add(shufflePartitions != null && s.partitionsFromConf() && s.readsShuffle() ? s.withTasks(shufflePartitions)
          : s);
    }
    return r;
  }
}
