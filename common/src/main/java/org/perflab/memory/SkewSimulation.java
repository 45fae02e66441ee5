package org.perflab.memory;

import java.util.Arrays;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

/**
 * The skew simulation of reference 004 Table 5.3: {@code machines} machines each run one task at a time from a queue of
 * {@code meanTasks × machines} tasks whose durations are log-normal with mean 1 and standard deviation {@code sd}
 * (the distribution's own moments, not the underlying normal's); a run's statistic is the most tasks any machine ran.
 * Each run draws from its own seed, so a run gives the same count wherever it is computed (locally or in a Spark task).
 *
 * @param meanTasks tasks per machine on average (the table's "mean #"), at least 1
 * @param machines machines, at least 1 (the table: 100)
 * @param sd standard deviation of a task's duration, in units of the mean duration (the table: 0.5, 0.25, 0.1)
 */
public record SkewSimulation(int meanTasks, int machines, double sd) {
  /** Reference 004's percentile of the per-run maxima: the 99th. */
  public static final double PERCENTILE = 0.99;

  public SkewSimulation {
    if (meanTasks < 1 || machines < 1 || !(sd >= 0)) {
      throw new IllegalArgumentException(String.format("Cannot simulate skew: mean tasks and machines must be at"
          + " least 1 and sd at least 0 (%d, %d, %s)", meanTasks, machines, sd));
    }
  }

  /** The most tasks any machine ran in the run seeded {@code seed}. */
  public int maxTasksOnAMachine(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    double sigma2 = Math.log1p(sd * sd);
    double sigma = Math.sqrt(sigma2);
    double mu = -sigma2 / 2;
    PriorityQueue<double[]> free = new PriorityQueue<>((a, b) -> Double.compare(a[0], b[0]));
    int[] ran = new int[machines];
    for (int m = 0; m < machines; m++) {
      free.add(new double[] {0, m});
    }
    for (long t = (long) meanTasks * machines; t > 0; t--) {
      double[] machine = free.poll();
      int m = (int) machine[1];
      ran[m]++;
      machine[0] += Math.exp(mu + sigma * gaussian(random));
      free.add(machine);
    }
    return Arrays.stream(ran).max().orElse(0);
  }

  /** The maxima of runs {@code firstRun} to {@code firstRun + runs - 1}, run r seeded {@code seed + r}. */
  public int[] maxima(long seed, int firstRun, int runs) {
    int[] out = new int[runs];
    for (int r = 0; r < runs; r++) {
      out[r] = maxTasksOnAMachine(seed + firstRun + r);
    }
    return out;
  }

  /**
   * The {@code percentile} of {@code values} by the nearest-rank rule: the value at rank ceil(p·n) of the sorted values.
   */
  public static int percentile(int[] values, double percentile) {
    int[] sorted = values.clone();
    Arrays.sort(sorted);
    int rank = (int) Math.ceil(percentile * sorted.length);
    return sorted[Math.max(0, rank - 1)];
  }

  /** The correction factor of Table 5.3: the 99th-percentile maximum over (mean + 1), as a fraction. */
  public double correction(int percentileMax) {
    return percentileMax / (double) (meanTasks + 1);
  }

  private static double gaussian(SplittableRandom random) {
    // Box-Muller; one of the pair suffices.
    double u = 1.0 - random.nextDouble();
    double v = random.nextDouble();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
}
