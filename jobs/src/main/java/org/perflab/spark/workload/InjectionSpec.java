package org.perflab.spark.workload;

import java.io.Serializable;
import java.util.Random;
import java.util.TreeSet;

/**
 * Injected stragglers of the {@code stragglers} workload: {@code stages} injected stages, in each of which
 * {@code tasks} partitions, drawn from the seed, get {@link #type()}.
 *
 * @param type what is injected
 * @param stages number of injected stages (each its own job, after one job without injection)
 * @param tasks injected partitions per injected stage, at most half the stage's tasks
 * @param factor how much heavier an injected task is: records (DATA_SKEW), computation (CPU), sleep as a multiple of
 *     the task's own work time (SLEEP), garbage as a multiple of the records (GC); at least 1
 */
public record InjectionSpec(Injection type, int stages, int tasks, double factor) implements Serializable {
  /** No injection: what workloads other than {@code stragglers} carry. */
  public static final InjectionSpec NONE = new InjectionSpec(Injection.NONE, 1, 0, 1.0);

  public InjectionSpec {
    require(stages >= 1, "inject-stages must be at least 1 (" + stages + ")");
    require(tasks >= 0, "inject-tasks must be 0 or more (" + tasks + ")");
    require(factor >= 1.0, "inject-factor must be at least 1 (" + factor + ")");
  }

  /**
   * The partitions injected in injected stage {@code stage} (0-based) of a stage of {@code partitions} tasks: the
   * same for the same seed; none for {@link Injection#NONE}.
   */
  public TreeSet<Integer> partitions(long seed, int stage, int partitions) {
    TreeSet<Integer> chosen = new TreeSet<>();
    if (type == Injection.NONE) {
      return chosen;
    }
    requireFits(partitions);
    Random random = new Random(Generators.mix(seed, 1_000L + stage, partitions * 16L + type.ordinal()));
    while (chosen.size() < tasks) {
      chosen.add(random.nextInt(partitions));
    }
    return chosen;
  }

  /** Checks that the injected partitions are at most half of a stage of {@code partitions} tasks. */
  public void requireFits(int partitions) {
    require(type == Injection.NONE || tasks * 2 <= partitions,
        "inject-tasks must be at most half the partitions (" + tasks + " of " + partitions + ")");
  }

  private static void require(boolean condition, String reason) {
    if (!condition) {
      throw new IllegalArgumentException("Cannot plan stragglers workload: " + reason);
    }
  }
}
