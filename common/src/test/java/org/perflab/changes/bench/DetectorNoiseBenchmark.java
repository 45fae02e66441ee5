package org.perflab.changes.bench;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.function.Function;
import org.perflab.changes.ChangeDetector;
import org.perflab.changes.ChangeKind;
import org.perflab.changes.DetectorOptions;
import org.perflab.changes.Judgement;
import org.perflab.changes.SyntheticNoise;
import org.perflab.changes.Verdict;

/**
 * {@code bench/run detector [series]}: the change detector ({@link ChangeDetector}, the defaults with 5 runs of
 * history) over synthetic series, no Spark, with steps alone, with the trend test, with the pair test as well, and
 * with the triple test too, on the same series: the share of judgements flagged where nothing changed (100 steady
 * runs from the 6th; the 23 runs after a 50 % step, from the step's third run), the share of 20 % steps after 15
 * runs that are flagged at once and within the step's first 5 runs, the same within 5 runs after 30 (a full window
 * of 20 runs before the step), and the share of slow drifts (1 % a run after 20 steady runs) flagged before the drift reaches 20 %, with the median run
 * of the drift at which it was. Noise is log-normal or right-skewed (each run × 1 + a gamma variable of shape 1, 1.5 or
 * 2: slowed, never sped up). Then, for the default detector alone, where its steady false alarms are (by the runs of
 * history before the judged run, and by the test that found them), and how often a step of 20 % or 50 % after 15 runs
 * is reported twice or more among its first 10 runs. Seeds are fixed, so a run prints the same figures every time; the
 * rule is judged by docs/regressions.md's goals (false alarms ≤ 2 %, detection ≥ 95 %, a regression once).
 */
public final class DetectorNoiseBenchmark {
  private static final DetectorOptions OPTIONS = DetectorOptions.withMinHistory(5);
  private static final int DRIFT_RUNS = 18;

  private DetectorNoiseBenchmark() {}

  /**
   * The detector's tests compared: steps alone, with the trend test, with the pair test as well, and with the triple
   * test too (the default).
   */
  private enum Variant {
    STEPS("steps only"), TRENDS("steps and trends"), PAIRS("steps, trends and pairs"),
    TRIPLES("steps, trends, pairs and triples");

    final String label;

    Variant(String label) {
      this.label = label;
    }

    DetectorOptions options() {
      return switch (this) {
        case STEPS -> OPTIONS.withoutTrend().withoutPairs();
        case TRENDS -> OPTIONS.withoutPairs();
        case PAIRS -> OPTIONS.withoutTriples();
        case TRIPLES -> OPTIONS;
      };
    }
  }

  /** Noise: a run's multiplier given the random source. */
  private record Noise(String name, Function<Random, Double> factor) {}

  /** Runs the benchmark; {@code args[0]} the number of series per figure (default 2,000). */
  public static void main(String[] args) {
    int series = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
    List<Noise> noises = List.of(
        logNormal(0.02), logNormal(0.03), logNormal(0.05), skewed(1, 0.05), skewed(1.5, 0.05), skewed(2, 0.05),
        skewed(2, 0.03));
    System.out.println("noise\tdetector\tsteady flagged %\tafter a 50 % step flagged %\t20 % step detected at once %"
        + "\twithin 5 runs %\tafter 30 runs: within 5 runs %\t1 %/run drift detected by 20 % %"
        + "\tmedian drift run detected");
    for (Noise noise : noises) {
      for (Variant variant : Variant.values()) {
        ChangeDetector detector = new ChangeDetector(variant.options());
        double steady = flagged(detector, series, 7, noise, 100, 0, 1.0, 5);
        double afterStep = flagged(detector, series, 29, noise, 20, 25, 1.5, 22);
        double[] step = detected(detector, series * 2, 17, noise, 15);
        double[] late = detected(detector, series * 2, 23, noise, 30);
        double[] drift = drift(detector, series, 19, noise);
        System.out.printf(Locale.ROOT, "%s\t%s\t%.2f\t%.2f\t%.1f\t%.1f\t%.1f\t%.1f\t%.0f%n", noise.name(),
            variant.label, 100 * steady, 100 * afterStep, 100 * step[0], 100 * step[1], 100 * late[1],
            100 * drift[0], drift[1]);
      }
    }
    System.out.println();
    System.out.println("the default detector: where its steady false alarms are (% of the judgements of runs with this"
        + " much history flagged; of all flagged, the share found by each test), and steps after 15 runs reported more"
        + " than once among their first 10 runs (a workload that stays at a new level is a regression once)");
    System.out.println("noise\thistory 5-9 %\t10-19 %\t20-39 %\t40-99 %\tstep %\tpair %\ttriple %\ttrend %"
        + "\t20 % step reported again %\t50 % step reported again %");
    ChangeDetector detector = new ChangeDetector(OPTIONS);
    for (Noise noise : noises) {
      System.out.printf(Locale.ROOT, "%s\t%s\t%.1f\t%.1f%n", noise.name(), falseAlarms(detector, series, 7, noise),
          100 * reportedAgain(detector, series, 37, noise, 1.2), 100 * reportedAgain(detector, series, 37, noise, 1.5));
    }
  }

  /** Of steps of {@code step} after 15 steady runs, the share with two regressions or more among its first 10 runs. */
  private static double reportedAgain(ChangeDetector detector, int series, long seed, Noise noise, double step) {
    Random random = new Random(seed);
    int again = 0;
    for (int s = 0; s < series; s++) {
      List<Judgement> j = detector.judge(series(random, noise, 15, 10, step));
      again += j.subList(15, 25).stream().filter(x -> x.verdict() == Verdict.REGRESSION).count() >= 2 ? 1 : 0;
    }
    return (double) again / series;
  }

  /** History lengths of {@link #falseAlarms}: judgements of runs with at least this many earlier runs. */
  private static final int[] HISTORY_FROM = {5, 10, 20, 40};

  /**
   * Over series of 100 steady runs (the seed of the steady figure): the share of judgements flagged by how many runs
   * came before, and the share of the flagged ones by the test that found them ({@link Judgement#kind()}), as one
   * tab-separated line of percentages.
   */
  private static String falseAlarms(ChangeDetector detector, int series, long seed, Noise noise) {
    Random random = new Random(seed);
    long[] judged = new long[HISTORY_FROM.length];
    long[] flagged = new long[HISTORY_FROM.length];
    long[] byKind = new long[ChangeKind.values().length];
    for (int s = 0; s < series; s++) {
      List<Judgement> j = detector.judge(series(random, noise, 100, 0, 1.0));
      for (int i = HISTORY_FROM[0]; i < j.size(); i++) {
        int bucket = HISTORY_FROM.length - 1;
        while (i < HISTORY_FROM[bucket]) {
          bucket--;
        }
        judged[bucket]++;
        if (changed(j.get(i))) {
          flagged[bucket]++;
          byKind[j.get(i).kind().orElseThrow().ordinal()]++;
        }
      }
    }
    long all = Arrays.stream(flagged).sum();
    StringBuilder line = new StringBuilder();
    for (int b = 0; b < HISTORY_FROM.length; b++) {
      line.append(String.format(Locale.ROOT, "%.2f\t", 100.0 * flagged[b] / judged[b]));
    }
    for (ChangeKind kind : List.of(ChangeKind.STEP, ChangeKind.PAIR, ChangeKind.TRIPLE, ChangeKind.TREND)) {
      line.append(String.format(Locale.ROOT, "%.0f\t", all == 0 ? 0.0 : 100.0 * byKind[kind.ordinal()] / all));
    }
    return line.toString().strip();
  }

  private static Noise logNormal(double sigma) {
    return new Noise(String.format(Locale.ROOT, "log-normal σ %.0f %%", 100 * sigma),
        r -> Math.exp(sigma * r.nextGaussian()));
  }

  private static Noise skewed(double shape, double sigma) {
    return new Noise(String.format(Locale.ROOT, "1 + gamma(shape %s) σ %.0f %%", shape, 100 * sigma),
        r -> SyntheticNoise.skewedFactor(r, shape, sigma));
  }

  private static boolean changed(Judgement j) {
    return j.verdict() == Verdict.REGRESSION || j.verdict() == Verdict.IMPROVEMENT;
  }

  /** The share of judgements from index {@code from} flagged, over series of {@code pre} + {@code post} runs. */
  private static double flagged(ChangeDetector detector, int series, long seed, Noise noise, int pre, int post,
      double step, int from) {
    Random random = new Random(seed);
    long judged = 0;
    long flagged = 0;
    for (int s = 0; s < series; s++) {
      List<Judgement> j = detector.judge(series(random, noise, pre, post, step));
      for (Judgement x : j.subList(from, j.size())) {
        judged++;
        flagged += changed(x) ? 1 : 0;
      }
    }
    return (double) flagged / judged;
  }

  /**
   * Of 20 % steps after {@code pre} runs: the share whose first slower run is a regression, and the share with a
   * regression among the step's first 5 runs.
   */
  private static double[] detected(ChangeDetector detector, int series, long seed, Noise noise, int pre) {
    Random random = new Random(seed);
    int atOnce = 0;
    int within = 0;
    for (int s = 0; s < series; s++) {
      List<Judgement> j = detector.judge(series(random, noise, pre, 5, 1.2));
      atOnce += j.get(pre).verdict() == Verdict.REGRESSION ? 1 : 0;
      within += j.subList(pre, pre + 5).stream().anyMatch(x -> x.verdict() == Verdict.REGRESSION) ? 1 : 0;
    }
    return new double[] {(double) atOnce / series, (double) within / series};
  }

  /**
   * Of series of 20 steady runs then runs each 1 % slower than the last: the share with a regression among the
   * drift's first {@link #DRIFT_RUNS} runs (up to 1.01^18 = 1.196), and the median run of the drift (1 = its first)
   * at which the first regression came, among those detected.
   */
  private static double[] drift(ChangeDetector detector, int series, long seed, Noise noise) {
    Random random = new Random(seed);
    int detected = 0;
    int[] at = new int[series];
    for (int s = 0; s < series; s++) {
      double[] xs = new double[20 + DRIFT_RUNS];
      for (int i = 0; i < xs.length; i++) {
        xs[i] = 100 * Math.pow(1.01, Math.max(0, i - 19)) * noise.factor().apply(random);
      }
      List<Judgement> j = detector.judge(xs);
      for (int i = 20; i < xs.length; i++) {
        if (j.get(i).verdict() == Verdict.REGRESSION) {
          at[detected++] = i - 19;
          break;
        }
      }
    }
    int[] found = Arrays.copyOf(at, detected);
    Arrays.sort(found);
    return new double[] {(double) detected / series, detected == 0 ? Double.NaN : found[detected / 2]};
  }

  private static double[] series(Random random, Noise noise, int pre, int post, double step) {
    double[] xs = new double[pre + post];
    for (int i = 0; i < xs.length; i++) {
      xs[i] = 100 * (i < pre ? 1 : step) * noise.factor().apply(random);
    }
    return xs;
  }
}
