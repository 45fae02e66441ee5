package org.perflab.sim.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.perflab.sim.Distribution;
import org.perflab.sim.Engine;
import org.perflab.sim.Model;
import org.perflab.sim.Result;
import org.perflab.sim.Stage;
import org.perflab.sim.TaskChoice;

/**
 * Simulated tasks per second on one core, for the three models whose public-dagSim figures (compiled at -O3 on a
 * machine like ours) the simulator issue quotes, and the ratio to those figures. Not a test: it prints figures.
 * Run with {@code bench/run simulator} (see docs/benchmarks.md).
 */
public final class SimulatorBenchmark {
  private SimulatorBenchmark() {}

  /** A benchmark case: a model and public dagSim's figure for it, in simulated tasks per second. */
  record Case(String name, Model model, double dagSimTasksPerSecond) {}

  public static void main(String[] args) {
    int repeats = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    System.out.printf("Simulator benchmark: %d timed runs per model after 2 warm-up runs; best and median run%n",
        repeats);
    System.out.printf("%-34s %12s %12s %12s %10s %8s%n", "model", "tasks/run", "best M/s", "median M/s",
        "dagSim M/s", "ratio");
    for (Case c : cases()) {
      Engine engine = new Engine(c.model());
      engine.run(1);
      engine.run(2);
      double[] rates = new double[repeats];
      long tasks = 0;
      for (int i = 0; i < repeats; i++) {
        long start = System.nanoTime();
        Result r = engine.run(100 + i);
        double seconds = (System.nanoTime() - start) / 1e9;
        tasks = r.tasks();
        rates[i] = r.tasks() / seconds;
      }
      Arrays.sort(rates);
      double best = rates[repeats - 1];
      double median = rates[repeats / 2];
      System.out.printf("%-34s %12d %12.2f %12.2f %10.2f %7.2fx%n", c.name(), tasks, best / 1e6, median / 1e6,
          c.dagSimTasksPerSecond() / 1e6, median / c.dagSimTasksPerSecond());
    }
  }

  static List<Case> cases() {
    return List.of(
        new Case("fig2: 5 stages, 510 tasks, 64 slots", fig2(), 2.5e6),
        new Case("4 stages, 195 tasks, 12 slots", fourStages(), 4.0e6),
        new Case("30 stages, 2771 tasks, 100 slots", thirtyStages(), 0.66e6));
  }

  private static Stage stage(String name, int tasks, double mean, String... pre) {
    return new Stage(name, tasks, List.of(pre), List.of(), new Distribution.Exponential(1 / mean));
  }

  private static Model model(List<Stage> stages, int nodes, int maxJobs) {
    return new Model(stages, nodes, 1, new Distribution.Exponential(0.001), maxJobs, 1.96, 1L, TaskChoice.FIFO);
  }

  /** The paper's Fig. 2 model: 64 slots, 1 user, 20,000 applications of 510 tasks. */
  static Model fig2() {
    return model(List.of(
        stage("S0", 100, 200), stage("S1", 100, 100), stage("S2", 200, 50, "S1"),
        stage("S3", 100, 20, "S0", "S2"), stage("S4", 10, 500, "S3")), 64, 20_000);
  }

  /** A TPC-DS-query-like DAG: two scans, a join, a final aggregation; 100 + 60 + 30 + 5 = 195 tasks on 12 slots. */
  static Model fourStages() {
    return model(List.of(
        stage("scan1", 100, 8), stage("scan2", 60, 5), stage("join", 30, 12, "scan1", "scan2"),
        stage("agg", 5, 3, "join")), 12, 50_000);
  }

  /**
   * An ML-like DAG of 10 jobs with 3 stages each (two parallel maps, then a reduce that the next job's maps wait for),
   * 30 stages and 2,771 tasks on 100 slots.
   */
  static Model thirtyStages() {
    List<Stage> stages = new ArrayList<>();
    int total = 0;
    String previous = null;
    for (int j = 0; j < 10; j++) {
      int a = 80 + 13 * j;
      int b = 60 + 7 * j;
      int c = j == 9 ? 2771 - total - a - b : 40 + 3 * j;
      String[] pre = previous == null ? new String[0] : new String[] {previous};
      stages.add(stage("J" + j + "a", a, 4 + j % 3, pre));
      stages.add(stage("J" + j + "b", b, 6, pre));
      stages.add(stage("J" + j + "c", c, 2, "J" + j + "a", "J" + j + "b"));
      total += a + b + c;
      previous = "J" + j + "c";
    }
    if (total != 2771) {
      throw new IllegalStateException("30-stage model has " + total + " tasks");
    }
    return model(stages, 100, 2_000);
  }
}
