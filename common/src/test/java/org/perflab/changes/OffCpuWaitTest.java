package org.perflab.changes;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.DoubleSupplier;
import org.junit.jupiter.api.Test;

class OffCpuWaitTest {
  private static final DetectorOptions OPTIONS = DetectorOptions.withMinHistory(DetectorOptions.DEFAULT_MIN_HISTORY);

  private static StageStats stage(int id, double taskTimeS, double cpuS) {
    return new StageStats(new StageRef(id, 0, "stage " + id), 0, 10, 0, taskTimeS / 4, taskTimeS, cpuS, 0, 0, 0, 0, 0,
        0, 0, 1);
  }

  private static RunProfile profile(List<StageStats> stages) {
    return new RunProfile("app", 100, stages.stream().mapToDouble(StageStats::taskTimeS).sum(), 8, 4, 4, 0, 0, 0, 0,
        0, 0, 0, 0, 0, "", Map.of(), Map.of(), stages, new WallTimeSplit(1, 98, 0, 1));
  }

  /** A wall-time judgement within noise at {@code z} of a level of 15 runs, 3 % noise. */
  private static Judgement wall(double z) {
    return new Judgement(Verdict.WITHIN_NOISE, Math.exp(0.03 * z), z, 100, 0.03, List.of(0, 1, 2, 3, 4, 5, 6, 7, 8,
        9, 10, 11, 12, 13, 14), false, null, List.of());
  }

  /** {@code n} baseline runs' task time per CPU second: 2 × log-normal noise of σ {@code sigma}. */
  private static double[] baseline(Random random, int n, double sigma) {
    return random.doubles(n).map(u -> 2 * Math.exp(sigma * random.nextGaussian())).toArray();
  }

  @Test
  void perCpuSecondSumsTheStagesThatLoggedCpuTime() {
    RunProfile run = profile(List.of(stage(0, 30, 20), stage(1, 50, 20), stage(2, 40, 0)));
    assertThat(OffCpuWait.perCpuSecond(run)).isEqualTo(80.0 / 40);
    assertThat(OffCpuWait.perCpuSecond(profile(List.of(stage(0, 30, 0))))).isNaN();
  }

  @Test
  void aSlowerRunWhoseTasksWaitedOffTheCpuIsARegressionConfirmedByIt() {
    double[] baseline = baseline(new Random(7), 15, 0.03);
    Judgement judged = OffCpuWait.corroborate(wall(3.0), 2 * 1.4, baseline, OPTIONS);
    assertThat(judged.verdict()).isEqualTo(Verdict.REGRESSION);
    assertThat(judged.kind()).contains(ChangeKind.CORROBORATED);
    assertThat(judged.ratio()).isEqualTo(wall(3.0).ratio());
    assertThat(judged.z()).isEqualTo(3.0);
    Corroboration c = (Corroboration) judged.confirmation();
    assertThat(c.metric()).isEqualTo(OffCpuWait.METRIC);
    assertThat(c.runs()).isEqualTo(15);
    assertThat(c.ratio()).isBetween(1.3, 1.5);
    assertThat(c.z()).isGreaterThanOrEqualTo(DetectorOptions.DEFAULT_THRESHOLD);
  }

  @Test
  void eitherMeasurementShortOfItsThresholdConfirmsNothing() {
    double[] baseline = baseline(new Random(8), 15, 0.03);
    Judgement closeToLevel = wall(DetectorOptions.DEFAULT_PAIR_Z - 0.1);
    assertThat(OffCpuWait.corroborate(closeToLevel, 2 * 1.4, baseline, OPTIONS)).isSameAs(closeToLevel);
    Judgement off = wall(3.0);
    double withinItsNoise = 2 * Math.exp(0.03 * 2);
    assertThat(OffCpuWait.corroborate(off, withinItsNoise, baseline, OPTIONS)).isSameAs(off);
    // waited less than the baseline: judged by the wall time alone
    assertThat(OffCpuWait.corroborate(off, 2 / 1.4, baseline, OPTIONS)).isSameAs(off);
    // a wall time that is already a change, or faster, is not a candidate
    Judgement faster = wall(-3.0);
    assertThat(OffCpuWait.corroborate(faster, 2 * 1.4, baseline, OPTIONS)).isSameAs(faster);
  }

  @Test
  void aRunThatOneBaselineRunOutwaitedOrTooFewKnownBaselineRunsConfirmNothing() {
    double[] baseline = baseline(new Random(9), 15, 0.03);
    baseline[4] = 2 * 1.5;
    Judgement off = wall(3.0);
    assertThat(OffCpuWait.corroborate(off, 2 * 1.4, baseline, OPTIONS)).isSameAs(off);
    double[] unknown = baseline(new Random(9), 15, 0.03);
    Arrays.fill(unknown, 2 * OPTIONS.minHistory() - 1, unknown.length, Double.NaN);
    assertThat(OffCpuWait.corroborate(off, 2 * 1.4, unknown, OPTIONS)).isSameAs(off);
  }

  /**
   * The claim of {@link OffCpuWait} for normal noise: with a wall time at the pair threshold (1 steady run in 180), the
   * two together are rarer than one run beyond the threshold (3.2 in 100,000). So a steady run's task time per CPU
   * second, log-normal, must pass its own test at most 180 × 3.2e-5 = 0.57 % of the time, its noise estimated from 10
   * runs (the fewest judged) or 20.
   */
  @Test
  void underNormalNoiseBothTogetherAreRarerThanOneRunBeyondTheThreshold() {
    double bound = (1 - normalCdf(DetectorOptions.DEFAULT_THRESHOLD)) / (1 - normalCdf(DetectorOptions.DEFAULT_PAIR_Z));
    Random random = new Random(11);
    for (int n : new int[] {10, 20}) {
      double passed = passRate(() -> 2 * Math.exp(0.05 * random.nextGaussian()), n, 100_000);
      assertThat(passed).as("%d baseline runs", n).isLessThan(bound);
    }
  }

  /**
   * The claim for right-skewed noise (× 1 + a gamma variable of shape 1, σ 5 %, in both measurements, independent):
   * the steady runs that both tests pass, P(the wall time is a candidate) × P(the second test passes), measured here
   * with the detector on the same noise, are less than a tenth of the steady runs the detector flags on its own.
   */
  @Test
  void underSkewedNoiseBothTogetherAddLessThanATenthToTheRunsTheDetectorFlags() {
    Random random = new Random(12);
    DoubleSupplier skewed = () -> 2 * SyntheticNoise.skewedFactor(random, 1, 0.05);
    ChangeDetector detector = new ChangeDetector(OPTIONS);
    int series = 20_000;
    int candidates = 0;
    int flagged = 0;
    for (int t = 0; t < series; t++) {
      double[] runs = new double[21];
      for (int k = 0; k < runs.length; k++) {
        runs[k] = skewed.getAsDouble();
      }
      Judgement last = detector.judge(runs).get(20);
      candidates += OffCpuWait.candidate(last, OPTIONS) ? 1 : 0;
      flagged += last.verdict() == Verdict.REGRESSION ? 1 : 0;
    }
    double both = (double) candidates / series * passRate(skewed, 20, 100_000);
    System.out.printf(Locale.ROOT, "skewed: candidates %.2f %%, flagged %.2f %%, both %.4f %%%n",
        100.0 * candidates / series, 100.0 * flagged / series, 100 * both);
    assertThat(flagged).isPositive();
    assertThat(both).isLessThan(0.1 * flagged / series);
  }

  /** How often a steady run passes the second test against {@code n} steady baseline runs, its wall time a candidate. */
  private static double passRate(DoubleSupplier noise, int n, int trials) {
    Judgement candidate = wall(3.0);
    int passed = 0;
    for (int t = 0; t < trials; t++) {
      double[] baseline = new double[n];
      for (int k = 0; k < n; k++) {
        baseline[k] = noise.getAsDouble();
      }
      if (OffCpuWait.corroborate(candidate, noise.getAsDouble(), baseline, OPTIONS) != candidate) {
        passed++;
      }
    }
    System.out.printf(Locale.ROOT, "second test passed by %.3f %% of steady runs against %d%n",
        100.0 * passed / trials, n);
    return (double) passed / trials;
  }

  /** Φ(x) by the polynomial approximation of Abramowitz and Stegun 26.2.17 (absolute error below 7.5e-8). */
  private static double normalCdf(double x) {
    double t = 1 / (1 + 0.2316419 * Math.abs(x));
    double poly = t * (0.319381530 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
    double tail = Math.exp(-x * x / 2) / Math.sqrt(2 * Math.PI) * poly;
    return x >= 0 ? 1 - tail : tail;
  }
}
