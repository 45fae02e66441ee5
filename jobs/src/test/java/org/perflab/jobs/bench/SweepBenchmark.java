package org.perflab.jobs.bench;

import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.perflab.spark.sweep.SweepTrials;
import org.perflab.sim.Distribution;
import org.perflab.sim.Model;
import org.perflab.sim.Stage;
import org.perflab.sim.TaskChoice;
import org.perflab.sweep.Grid;
import org.perflab.sweep.ScalingRule;
import org.perflab.sweep.Sweep;

/**
 * Wall time of the sweep's trial phase on Spark {@code local[1]} and {@code local[2]}, and the speedup (goal 1.8×).
 * The grid: the paper's Fig. 2 model at 6 configurations (executors 4, 8, 16 × cores 4, 8) × 4 replications of
 * {@code apps} applications each (default 20,000: about 244 M simulated tasks, 14 s on one core). Not a test: it
 * prints figures.
 * Run with {@code bench/run sweep [apps]} (see docs/benchmarks.md).
 */
public final class SweepBenchmark {
  private SweepBenchmark() {}

  public static void main(String[] args) {
    int apps = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
    Sweep sweep = Sweep.plan(fig2(), new Grid(List.of(4, 8, 16), List.of(4, 8), List.of(), 4),
        new ScalingRule.Baseline(), 1, 1L, apps, 0);
    Sweep warmUp = Sweep.plan(fig2(), new Grid(List.of(4, 8), List.of(4), List.of(), 2),
        new ScalingRule.Baseline(), 1, 2L, 200, 0);
    warmUp.runSequentially();
    long start = System.nanoTime();
    sweep.runSequentially();
    double sequential = (System.nanoTime() - start) / 1e9;
    double threadsOne = timeOnThreads(1, sweep);
    double threadsTwo = timeOnThreads(2, sweep);
    double one = timeOnSpark("local[1]", sweep, warmUp);
    double two = timeOnSpark("local[2]", sweep, warmUp);
    long tasks = (long) sweep.trials().size() * apps * 510;
    System.out.printf("Sweep benchmark: %d points x %d replications x %d applications (%d M tasks)%n",
        sweep.plans().size(), sweep.grid().replications(), apps, tasks / 1_000_000);
    System.out.printf("%-28s %10s %14s%n", "run", "seconds", "M tasks/s");
    System.out.printf("%-28s %10.2f %14.2f%n", "sequential, no Spark", sequential, tasks / sequential / 1e6);
    System.out.printf("%-28s %10.2f %14.2f%n", "plain Java, 1 thread", threadsOne, tasks / threadsOne / 1e6);
    System.out.printf("%-28s %10.2f %14.2f%n", "plain Java, 2 threads", threadsTwo, tasks / threadsTwo / 1e6);
    System.out.printf("%-28s %10.2f %14.2f%n", "Spark local[1]", one, tasks / one / 1e6);
    System.out.printf("%-28s %10.2f %14.2f%n", "Spark local[2]", two, tasks / two / 1e6);
    System.out.printf("speedup local[1] -> local[2]: %.2fx (goal 1.8x); the machine's own 1 -> 2 thread speedup on the"
        + " same trials (peer): %.2fx; available processors: %d; load average: %.1f%n",
        one / two, threadsOne / threadsTwo, Runtime.getRuntime().availableProcessors(),
        java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
  }

  /** Seconds to run every trial on a plain thread pool (no Spark): what the machine itself allows. */
  private static double timeOnThreads(int threads, Sweep sweep) {
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
    try {
      long start = System.nanoTime();
      List<java.util.concurrent.Future<?>> futures = new java.util.ArrayList<>();
      sweep.trials().forEach(t -> futures.add(pool.submit(() -> sweep.runTrial(t))));
      for (java.util.concurrent.Future<?> f : futures) {
        f.get();
      }
      return (System.nanoTime() - start) / 1e9;
    } catch (InterruptedException | java.util.concurrent.ExecutionException e) {
      throw new IllegalStateException(e);
    } finally {
      pool.shutdown();
    }
  }

  /** Seconds for the trial phase (fan-out, simulation, per-point reduction) on a fresh session. */
  private static double timeOnSpark(String master, Sweep sweep, Sweep warmUp) {
    SparkSession spark = SparkSession.builder().master(master).appName("SweepBenchmark")
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1").getOrCreate();
    try {
      SweepTrials.run(spark, warmUp, 2);
      long start = System.nanoTime();
      SweepTrials.run(spark, sweep, 2);
      return (System.nanoTime() - start) / 1e9;
    } finally {
      spark.stop();
    }
  }

  private static Model fig2() {
    return new Model(List.of(
        stage("S0", 100, 200), stage("S1", 100, 100), stage("S2", 200, 50, "S1"),
        stage("S3", 100, 20, "S0", "S2"), stage("S4", 10, 500, "S3")),
        64, 1, new Distribution.Exponential(0.001), 1000, 1.96, 1L, TaskChoice.FIFO);
  }

  private static Stage stage(String name, int tasks, double mean, String... pre) {
    return new Stage(name, tasks, List.of(pre), List.of(), new Distribution.Exponential(1 / mean));
  }
}
