package org.perflab.spark.workload;

import java.io.Serializable;
import java.util.Random;

/**
 * Tasks of the Sleep workload: {@code stages} stages of {@code tasks} tasks each, chained by shuffles, every task
 * sleeping a duration drawn from {@code distribution} (milliseconds) and using no CPU.
 *
 * @param tasks tasks per stage
 * @param stages number of stages, chained so stage k+1 starts when stage k ends
 * @param distribution how durations are drawn
 * @param meanMs mean duration (DETERMINISTIC: the duration), milliseconds
 * @param minMs lower bound of UNIFORM, milliseconds
 * @param maxMs upper bound of UNIFORM, cap of EXPONENTIAL when positive, milliseconds
 * @param failTasks the first {@code failTasks} tasks of the first stage throw on their first attempt (0: none); needs
 *     {@code spark.task.maxFailures} &gt; 1 (on local masters, {@code local[N,F]})
 */
public record SleepSpec(
    int tasks, int stages, SleepDistribution distribution, long meanMs, long minMs, long maxMs, int failTasks)
    implements Serializable {

  public SleepSpec {
    require(tasks >= 1, "tasks must be at least 1 (" + tasks + ")");
    require(stages >= 1, "stages must be at least 1 (" + stages + ")");
    require(meanMs >= 0 && minMs >= 0 && maxMs >= 0, "durations must be 0 or more ms");
    require(distribution != SleepDistribution.UNIFORM || minMs <= maxMs,
        "uniform min must not exceed max (" + minMs + " > " + maxMs + ")");
    require(failTasks >= 0 && failTasks <= tasks, "fail-tasks must be in 0.." + tasks + " (" + failTasks + ")");
  }

  /** A deterministic sleep of {@code durationMs} for every task. */
  public static SleepSpec deterministic(int tasks, int stages, long durationMs) {
    return new SleepSpec(tasks, stages, SleepDistribution.DETERMINISTIC, durationMs, durationMs, durationMs, 0);
  }

  /** The duration of task {@code partition} of stage {@code stage}, the same on every attempt, milliseconds. */
  public long durationMs(long seed, int stage, int partition) {
    Random random = new Random(Generators.mix(seed, stage, partition));
    return distribution.draw(random, this);
  }

  private static void require(boolean condition, String reason) {
    if (!condition) {
      throw new IllegalArgumentException("Cannot plan Sleep workload: " + reason);
    }
  }
}
