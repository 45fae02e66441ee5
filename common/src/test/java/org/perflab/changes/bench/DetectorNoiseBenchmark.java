package org.perflab.changes.bench;

import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.function.Function;
import org.perflab.changes.ChangeDetector;
import org.perflab.changes.DetectorOptions;
import org.perflab.changes.Judgement;
import org.perflab.changes.SyntheticNoise;
import org.perflab.changes.Verdict;

/**
 * {@code bench/run detector [series]}: the change detector ({@link ChangeDetector}, the defaults with 5 runs of
 * history) over synthetic series, no Spark: the share of judgements flagged where nothing changed (steady runs from
 * the 6th; the 23 runs after a 50 % step, from the step's third run) and the share of 20 % steps after 15 runs that
 * are flagged at once, under log-normal noise and right-skewed noise (each run × 1 + a gamma variable of shape 1,
 * 1.5 or 2: slowed, never sped up). Seeds are fixed, so a run prints the same figures every time; the rule is judged
 * by docs/regressions.md's goals (false alarms ≤ 2 %, detection ≥ 95 %).
 */
public final class DetectorNoiseBenchmark {
  private static final ChangeDetector DETECTOR = new ChangeDetector(DetectorOptions.withMinHistory(5));

  private DetectorNoiseBenchmark() {}

  /** Noise: a run's multiplier given the random source. */
  private record Noise(String name, Function<Random, Double> factor) {}

  /** Runs the benchmark; {@code args[0]} the number of series per figure (default 2,000). */
  public static void main(String[] args) {
    int series = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
    List<Noise> noises = List.of(
        logNormal(0.02), logNormal(0.03), logNormal(0.05), skewed(1, 0.05), skewed(1.5, 0.05), skewed(2, 0.05),
        skewed(2, 0.03));
    System.out.println("noise\tsteady flagged %\tafter a 50 % step flagged %\t20 % step detected %");
    for (Noise noise : noises) {
      double steady = flagged(series, 7, noise, 30, 0, 1.0, 5);
      double afterStep = flagged(series, 29, noise, 20, 25, 1.5, 22);
      double detected = detected(series * 2, 17, noise);
      System.out.printf(Locale.ROOT, "%s\t%.2f\t%.2f\t%.1f%n", noise.name(), 100 * steady, 100 * afterStep,
          100 * detected);
    }
  }

  private static Noise logNormal(double sigma) {
    return new Noise(String.format(Locale.ROOT, "log-normal σ %.0f %%", 100 * sigma),
        r -> Math.exp(sigma * r.nextGaussian()));
  }

  private static Noise skewed(double shape, double sigma) {
    return new Noise(String.format(Locale.ROOT, "1 + gamma(shape %s) σ %.0f %%", shape, 100 * sigma),
        r -> SyntheticNoise.skewedFactor(r, shape, sigma));
  }

  /** The share of judgements from index {@code from} flagged, over series of {@code pre} + {@code post} runs. */
  private static double flagged(int series, long seed, Noise noise, int pre, int post, double step, int from) {
    Random random = new Random(seed);
    long judged = 0;
    long flagged = 0;
    for (int s = 0; s < series; s++) {
      List<Judgement> j = DETECTOR.judge(series(random, noise, pre, post, step));
      for (Judgement x : j.subList(from, j.size())) {
        judged++;
        flagged += x.verdict() == Verdict.REGRESSION || x.verdict() == Verdict.IMPROVEMENT ? 1 : 0;
      }
    }
    return (double) flagged / judged;
  }

  /** The share of 20 % steps after 15 runs whose first slower run is a regression. */
  private static double detected(int series, long seed, Noise noise) {
    Random random = new Random(seed);
    int detected = 0;
    for (int s = 0; s < series; s++) {
      detected += DETECTOR.judge(series(random, noise, 15, 3, 1.2)).get(15).verdict() == Verdict.REGRESSION ? 1 : 0;
    }
    return (double) detected / series;
  }

  private static double[] series(Random random, Noise noise, int pre, int post, double step) {
    double[] xs = new double[pre + post];
    for (int i = 0; i < xs.length; i++) {
      xs[i] = 100 * (i < pre ? 1 : step) * noise.factor().apply(random);
    }
    return xs;
  }
}
