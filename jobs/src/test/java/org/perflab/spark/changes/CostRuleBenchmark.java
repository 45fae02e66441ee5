package org.perflab.spark.changes;

import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.perflab.changes.ChangeDetector;
import org.perflab.changes.DetectorOptions;
import org.perflab.changes.Judgement;
import org.perflab.changes.Verdict;

/**
 * {@code bench/run cost-rule [series]}: the three metrics of {@code regressions} over fixed-seed synthetic runs, judged
 * the way the job does, once with a cost metric's change counted alone (the union of the three metrics, before
 * 2026-12-06), once with the rule of 2e07261 (the wall time at least the open-run threshold off the same way, or the
 * cost per second changed the same way) and once with {@link Regressions#corroborated} (the wall time or the cost per
 * second changed the same way, or the wall time at least the open-run threshold off it and the cost either not an
 * echo of the wall time or its cost per second that far off too). Each run's wall time has log-normal noise and its
 * cores held per second of wall time their own; core-hours = wall time × cores held (GB-hours, with a fixed memory
 * per core, move with them and are left out). Printed: steady runs flagged, and changed runs flagged at their first
 * run, for a wall-time step with the same resources, a cost step of resources at the same wall time, and executors
 * that work longer while the driver's share does not grow (the cores held per second rise with the wall time).
 */
public final class CostRuleBenchmark {
  private static final int RUNS = 60;
  private static final int CHANGE_AT = 30;

  private CostRuleBenchmark() {}

  /** The kind of series: what happens at run {@value #CHANGE_AT}. */
  private enum Change {
    NONE("steady runs (from the 6th) flagged"),
    WALL_STEP("wall time x1.25, same cores held: flagged at its first run"),
    RESOURCE_STEP("cores held x1.3, same wall time: flagged at its first run"),
    EXECUTOR_WORK("wall time x1.15, cores held per second x1.10: flagged at its first run");

    private final String label;

    Change(String label) {
      this.label = label;
    }
  }

  /** Runs the benchmark; {@code args[0]} the series per figure (default 1,000). */
  public static void main(String[] args) {
    int series = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    DetectorOptions options = DetectorOptions.withMinHistory(5);
    System.out.printf(Locale.ROOT, "cost rule: %d series of %d runs per figure, minimum history %d, change at run %d%n",
        series, RUNS, options.minHistory(), CHANGE_AT + 1);
    System.out.println("wall noise | cores-held noise | series | cost counted alone | the wall time part of the way"
        + " backs it (2e07261) | cost corroborated");
    for (double wallNoise : new double[] {0.03, 0.05, 0.10}) {
      for (double rateNoise : new double[] {0.01, 0.03}) {
        for (Change change : Change.values()) {
          double[] shares = shares(change, wallNoise, rateNoise, series, options);
          System.out.printf(Locale.ROOT, "%.0f %% | %.0f %% | %s | %.2f %% | %.2f %% | %.2f %%%n", 100 * wallNoise,
              100 * rateNoise, change.label, shares[0], shares[1], shares[2]);
        }
      }
    }
  }

  /**
   * The share (%) of the counted runs flagged {@code REGRESSION}: by the union; with the rule of 2e07261 (a cost change
   * counted when the wall time stood at least the open-run threshold off the same way, whatever the cost per second
   * did); with {@link Regressions#corroborated}.
   */
  private static double[] shares(Change change, double wallNoise, double rateNoise, int series,
      DetectorOptions options) {
    ChangeDetector detector = new ChangeDetector(options);
    long counted = 0;
    long union = 0;
    long wallPartWay = 0;
    long corroborated = 0;
    for (int s = 0; s < series; s++) {
      Random random = new Random(1_000_003L * s + 31L * change.ordinal() + Math.round(1000 * wallNoise)
          + Math.round(100_000 * rateNoise));
      double[] wall = new double[RUNS];
      double[] core = new double[RUNS];
      double[] rate = new double[RUNS];
      for (int i = 0; i < RUNS; i++) {
        boolean after = i >= CHANGE_AT;
        double wallFactor = !after ? 1 : switch (change) {
          case WALL_STEP -> 1.25;
          case EXECUTOR_WORK -> 1.15;
          default -> 1;
        };
        double rateFactor = !after ? 1 : switch (change) {
          case RESOURCE_STEP -> 1.3;
          case EXECUTOR_WORK -> 1.10;
          default -> 1;
        };
        wall[i] = 100 * wallFactor * Math.exp(wallNoise * random.nextGaussian());
        core[i] = wall[i] * 8 * rateFactor * Math.exp(rateNoise * random.nextGaussian()) / 3600;
        rate[i] = core[i] / wall[i];
      }
      List<Judgement> w = detector.judge(wall);
      List<Judgement> c = detector.judge(core);
      List<Judgement> r = detector.judge(rate);
      int from = change == Change.NONE ? options.minHistory() : CHANGE_AT;
      int to = change == Change.NONE ? RUNS : CHANGE_AT + 1;
      for (int i = from; i < to; i++) {
        counted++;
        boolean wallUp = w.get(i).verdict() == Verdict.REGRESSION;
        if (wallUp || c.get(i).verdict() == Verdict.REGRESSION) {
          union++;
        }
        if (wallUp || c.get(i).verdict() == Verdict.REGRESSION && (r.get(i).verdict() == Verdict.REGRESSION
            || w.get(i).z() >= options.tripleZ())) {
          wallPartWay++;
        }
        double correlation = Regressions.correlation(wall, core, w.get(i).baseline());
        if (wallUp || Regressions.corroborated(c.get(i), w.get(i), r.get(i), options.tripleZ(), correlation).verdict()
            == Verdict.REGRESSION) {
          corroborated++;
        }
      }
    }
    return new double[] {100.0 * union / counted, 100.0 * wallPartWay / counted, 100.0 * corroborated / counted};
  }
}
