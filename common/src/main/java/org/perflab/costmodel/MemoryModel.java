package org.perflab.costmodel;

import java.io.Serializable;
import org.perflab.errors.BadInputException;

/**
 * The memory a task may fill before it spills: {@code dSpillBufferSize} of the reference's eq. (19), in bytes. The
 * paper assumed Spark 1.x's legacy static manager ({@link Legacy}); Spark ≥ 1.6 uses the unified one
 * ({@link Unified}), which PerfLab takes by default.
 */
public sealed interface MemoryModel extends Serializable {

  /** Bytes of execution memory one task may use before it spills, with {@code concurrentTasks} tasks running. */
  double spillBufferBytes(long executorMemoryBytes, int concurrentTasks);

  /**
   * Spark 1.x's static manager, the paper's eq. (19): heap × spark.shuffle.memoryFraction ×
   * spark.shuffle.safetyFraction ÷ concurrent tasks.
   */
  record Legacy(double shuffleMemoryFraction, double safetyFraction) implements MemoryModel {
    /** The paper's defaults, 0.2 and 0.8. */
    public static final Legacy DEFAULT = new Legacy(0.2, 0.8);

    public Legacy {
      Unified.requireFraction("spark.shuffle.memoryFraction", shuffleMemoryFraction);
      Unified.requireFraction("spark.shuffle.safetyFraction", safetyFraction);
    }

    @Override
    public double spillBufferBytes(long executorMemoryBytes, int concurrentTasks) {
      return executorMemoryBytes * shuffleMemoryFraction * safetyFraction / concurrentTasks;
    }
  }

  /**
   * Spark's unified memory manager. Usable = (heap − 300 MiB) × spark.memory.fraction is shared by storage and
   * execution: storage grows into free execution memory, and only spark.memory.storageFraction of usable memory is
   * safe from eviction, so execution may take all of usable memory except the cached bytes inside that protected
   * region: max execution = usable − min(cached, usable × storageFraction). There is no fixed storage cap. The
   * execution pool gives each of N running tasks at most 1/N of it (at least 1/(2N)); the model takes 1/N, as eq. (19)
   * takes an equal share.
   *
   * @param memoryFraction spark.memory.fraction, in (0, 1]
   * @param storageFraction spark.memory.storageFraction, in [0, 1]
   * @param cachedBytes bytes of cached blocks in the executor's storage memory while the stage runs (≥ 0)
   */
  record Unified(double memoryFraction, double storageFraction, long cachedBytes) implements MemoryModel {
    /** Spark's reserved system memory, bytes (300 MiB). */
    public static final long RESERVED_BYTES = 300L * 1024 * 1024;
    /** Spark ≥ 2 defaults (0.6, 0.5) with nothing cached. */
    public static final Unified DEFAULT = new Unified(0.6, 0.5, 0L);

    public Unified {
      requireFraction("spark.memory.fraction", memoryFraction);
      BadInputException.require(storageFraction >= 0 && storageFraction <= 1,
          "Cannot use spark.memory.storageFraction: out of range (%s; [0, 1])", storageFraction);
      BadInputException.require(cachedBytes >= 0, "Cannot use cached bytes: negative (%d; ≥ 0)", cachedBytes);
    }

    /** Usable memory: (heap − 300 MiB) × spark.memory.fraction, bytes; Spark refuses heaps below 450 MiB. */
    public double usableBytes(long executorMemoryBytes) {
      BadInputException.require(executorMemoryBytes >= RESERVED_BYTES * 3 / 2,
          "Cannot model executor memory: below Spark's minimum of 1.5 × 300 MiB (%d bytes; ≥ %d)",
          executorMemoryBytes, RESERVED_BYTES * 3 / 2);
      return (executorMemoryBytes - RESERVED_BYTES) * memoryFraction;
    }

    /** Execution memory of the executor: usable − min(cached, usable × storageFraction), bytes. */
    public double executionBytes(long executorMemoryBytes) {
      double usable = usableBytes(executorMemoryBytes);
      return usable - Math.min(cachedBytes, usable * storageFraction);
    }

    @Override
    public double spillBufferBytes(long executorMemoryBytes, int concurrentTasks) {
      return executionBytes(executorMemoryBytes) / concurrentTasks;
    }

    private static void requireFraction(String key, double value) {
      BadInputException.require(value > 0 && value <= 1, "Cannot use %s: out of range (%s; (0, 1])", key, value);
    }
  }
}
