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
