package org.perflab.memory.gc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.perflab.memory.gc.TwoGenerationSimulator.MIB;

import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Reference 004 §4.4 test 8: the GC model, fitted to one run of an exact two-generation collector with the eden sampler
 * (effective eden drawn from 16–32 MiB after every collection, tenured 400 MiB), against the same collector replaying
 * the same trace at other eden and tenured sizes.
 */
class GcModelSimulationTest {
  private static TwoGenerationSimulator.Trace trace;
  private static GcRun sampled;
  private static GcCostModel model;

  @BeforeAll
  static void sampleOneRun() {
    trace = TwoGenerationSimulator.sparkLike(7);
    Random random = new Random(3);
    sampled = TwoGenerationSimulator.run(trace, () -> (long) (32 * MIB * (0.5 + random.nextDouble() * 0.5)),
        32 * MIB, 400 * MIB).run();
    model = new GcCostModel(sampled, 0);
  }

  @Test
  void edenCollectionCountsMatchTheSimulatorWithinThreePercent() {
    for (long eden : new long[] {8, 16, 32, 64}) {
      GcRun actual = TwoGenerationSimulator.run(trace, eden * MIB, 400 * MIB).run();
      long collections = actual.collections().size();
      assertThat(model.predict(eden * MIB, 400 * MIB).youngCollections())
          .as("eden %d MiB", eden).isCloseTo(collections, within(0.03 * collections));
    }
  }

  @Test
  void fullCollectionCountsAreConservativeButNotFarOff() {
    for (long eden : new long[] {16, 24, 32}) {
      for (long tenured : new long[] {300, 400, 600}) {
        long actual = TwoGenerationSimulator.run(trace, eden * MIB, tenured * MIB).run()
            .count(GcObservation.Kind.FULL);
        double predicted = model.predict(eden * MIB, tenured * MIB).fullCollections();
        assertThat(predicted).as("eden %d, tenured %d MiB", eden, tenured)
            .isGreaterThanOrEqualTo(actual).isLessThanOrEqualTo(2.0 * actual + 3);
      }
    }
  }

  @Test
  void outOfMemoryIsPredictedWhereTheSimulatorRunsOutOfMemory() {
    double maxLive = model.live().maxLiveBytes();
    assertThat(maxLive).isBetween(128.0 * MIB, 200.0 * MIB);
    assertThat(TwoGenerationSimulator.run(trace, 16 * MIB, 120 * MIB).outOfMemory()).isTrue();
    assertThat(model.predict(16 * MIB, 120 * MIB).fullCollections()).isInfinite();
    assertThat(model.cost(16 * MIB, 120 * MIB)).isInfinite();
    assertThat(TwoGenerationSimulator.run(trace, 16 * MIB, (long) maxLive + 17 * MIB).outOfMemory()).isFalse();
  }

  @Test
  void totalAllocationIsTheSameAtEveryEdenAndTenuredSizeShortOfOneEden() {
    long allocated = java.util.Arrays.stream(trace.sizes()).sum();
    assertThat(sampled.allocatedBytes()).isBetween(allocated - 32 * MIB, allocated);
    for (long[] config : new long[][] {{8, 200}, {16, 300}, {64, 600}, {128, 1000}}) {
      GcRun run = TwoGenerationSimulator.run(trace, config[0] * MIB, config[1] * MIB).run();
      assertThat(run.allocatedBytes()).isBetween(allocated - config[0] * MIB, allocated);
    }
  }

  @Test
  void promotionCurveIsMonotoneAndAtLeastTheTrueAveragePromotionInTheSampledRange() {
    PromotionCurve curve = model.promotion();
    double previous = 0;
    for (long eden = 4 * MIB; eden <= 128 * MIB; eden += MIB) {
      double promoted = curve.promotedBytes(eden);
      assertThat(promoted).isGreaterThanOrEqualTo(previous);
      previous = promoted;
    }
    for (long eden : new long[] {17, 20, 24, 28, 31}) {
      GcRun fixed = TwoGenerationSimulator.run(trace, eden * MIB, 4000 * MIB).run();
      double truth = fixed.collections().stream().mapToLong(GcObservation::promotedBytes).average().orElseThrow();
      assertThat(curve.promotedBytes(eden * MIB)).as("eden %d MiB", eden).isGreaterThanOrEqualTo(truth);
      assertThat(truth / (eden * MIB)).as("fraction promoted falls as eden grows")
          .isLessThanOrEqualTo(curve.promotedBytes(16 * MIB) / (16 * MIB) * 1.5);
    }
  }

  @Test
  void heapSearchMeetsTheConservativeRulesAndFindsTheCheapestFeasiblePoint() {
    long framework = 200 * MIB;
    GcCostModel bound = new GcCostModel(sampled, framework);
    HeapAdvice advice = HeapSizing.advise(sampled, framework, Collector.PARALLEL);
    long eden = advice.edenBytes().orElseThrow();
    long tenured = advice.tenuredBytes().orElseThrow();
    assertThat(tenured).isGreaterThanOrEqualTo(framework);
    assertThat(tenured - bound.live().maxLiveBytes()).isGreaterThanOrEqualTo(eden);
    double brute = Double.POSITIVE_INFINITY;
    for (int i = 0; i <= 200; i++) {
      double e = MIB * Math.pow(2, i * 8.0 / 200);
      for (int j = 0; j <= 200; j++) {
        brute = Math.min(brute, bound.cost(e, bound.minTenuredBytes(e) * Math.pow(8, j / 200.0)));
      }
    }
    assertThat(bound.cost(eden, tenured)).isLessThanOrEqualTo(brute * (1 + HeapSizing.NEAR_EQUAL) * 1.01);
    assertThat(advice.heapBytes()).isGreaterThan(eden + tenured);
    assertThat(advice.jvmFlags()).contains("-XX:+UseParallelGC", "-XX:MaxTenuringThreshold=0",
        "-XX:-UseAdaptiveSizePolicy", "-Xms" + advice.heapBytes() / MIB + "m");
    assertThat(advice.basis()).isEqualTo(HeapAdvice.Basis.GC_MODEL);
    assertThat(advice.predictedGcMs()).isPositive();
  }

  @Test
  void g1GetsTheHeapOnlyAndNoFlags() {
    HeapAdvice parallel = HeapSizing.advise(sampled, 200 * MIB, Collector.PARALLEL);
    HeapAdvice g1 = HeapSizing.advise(sampled, 200 * MIB, Collector.G1);
    assertThat(g1.edenBytes()).isEmpty();
    assertThat(g1.tenuredBytes()).isEmpty();
    assertThat(g1.jvmFlags()).isEmpty();
    assertThat(g1.heapBytes())
        .isEqualTo(parallel.edenBytes().orElseThrow() + parallel.tenuredBytes().orElseThrow());
    assertThat(g1.evidence()).startsWith("G1: heap only");
  }
}
