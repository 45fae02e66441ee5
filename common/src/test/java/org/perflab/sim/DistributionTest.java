package org.perflab.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class DistributionTest {
  private static double sampleMean(Distribution d, int n) {
    SplittableRandom rng = new SplittableRandom(11);
    Sampler s = d.sampler();
    double sum = 0;
    for (int i = 0; i < n; i++) {
      sum += s.next(rng);
    }
    return sum / n;
  }

  /** One distribution of every family whose mean has a closed form. */
  private static List<Distribution> families() {
    return List.of(
        new Distribution.Exponential(0.25),
        new Distribution.Erlang(3, 2.0),
        new Distribution.Deterministic(7),
        new Distribution.Uniform(2, 6),
        new Distribution.Normal(10, 2),
        new Distribution.LogNormal(1, 0.5),
        new Distribution.Pareto(1, 4),
        new Distribution.Weibull(2, 3),
        new Distribution.HyperSumOfErlangs(List.of(
            new Distribution.ErlangBranch(0.3, new int[] {2}, new double[] {1}),
            new Distribution.ErlangBranch(0.7, new int[] {1, 3}, new double[] {2, 3}))),
        new Distribution.Empirical(new double[] {1, 2, 6}));
  }

  @Test
  void sampleMeansMatchAnalyticMeans() {
    for (Distribution d : families()) {
      assertThat(sampleMean(d, 400_000)).as(d.type()).isCloseTo(d.mean(), within(0.01 * d.mean()));
    }
  }

  @Test
  void scaledStretchesEveryDrawByTheFactor() {
    List<Distribution> all = new java.util.ArrayList<>(families());
    all.add(new Distribution.PositiveNormal(1, 2, Distribution.Positivity.TRUNC));
    all.add(new Distribution.Replay(new double[] {1, 2, 6}));
    for (Distribution d : all) {
      Distribution tripled = d.scaled(3);
      assertThat(tripled.type()).isEqualTo(d.type());
      // The same draws, three times as long: sample means scale exactly, whatever the family's mean formula.
      assertThat(sampleMean(tripled, 50_000)).as(d.type()).isCloseTo(3 * sampleMean(d, 50_000), within(1e-9));
    }
    assertThat(new Distribution.Weibull(2, 3).scaled(0.5).mean()).isCloseTo(0.5 * new Distribution.Weibull(2, 3)
        .mean(), within(1e-12));
  }

  @Test
  void positiveNormalNeverGoesNegative() {
    for (Distribution.Positivity tech : Distribution.Positivity.values()) {
      Sampler s = new Distribution.PositiveNormal(0.5, 2, tech).sampler();
      SplittableRandom rng = new SplittableRandom(3);
      for (int i = 0; i < 10_000; i++) {
        assertThat(s.next(rng)).isGreaterThanOrEqualTo(0.0);
      }
    }
  }

  @Test
  void replayCyclesThroughSamplesAndRestartsPerSampler() {
    Distribution replay = new Distribution.Replay(new double[] {3, 1, 2});
    Sampler first = replay.sampler();
    SplittableRandom rng = new SplittableRandom(1);
    double[] seen = new double[5];
    for (int i = 0; i < 5; i++) {
      seen[i] = first.next(rng);
    }
    assertThat(seen).containsExactly(3, 1, 2, 3, 1);
    assertThat(replay.sampler().next(rng)).isEqualTo(3.0);
  }

  @Test
  void uniformStaysInRange() {
    Sampler s = new Distribution.Uniform(2, 3);
    SplittableRandom rng = new SplittableRandom(5);
    for (int i = 0; i < 10_000; i++) {
      assertThat(s.next(rng)).isBetween(2.0, 3.0);
    }
  }
}
