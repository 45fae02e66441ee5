package org.perflab.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Reference 004 §4.4 tests 5 and 7 (tests 8 to 11 are the GC model's and belong with it): the per-worker division,
 * golden values of the framework minimums and the repartition what-if, and their translation to Spark settings.
 */
class WorkerMemoryTest {
  private static final long MIB = SparkMemorySettings.MIB;

  @Test
  void test5GreedyPlacementWithTheCapPlacesEveryPartition() {
    Random random = new Random(5);
    for (int round = 0; round < 200; round++) {
      int workers = 1 + random.nextInt(12);
      long[] sizes = random.longs(1 + random.nextInt(80), 1, 1 + random.nextInt(5000)).toArray();
      long total = java.util.Arrays.stream(sizes).sum();
      long largest = java.util.Arrays.stream(sizes).max().getAsLong();
      long cap = CacheDivision.perWorkerBytes(total, workers, largest);
      assertThat(CacheDivision.greedyPlace(sizes, workers, cap)).as("round %d", round).doesNotContain(-1);
    }
  }

  @Test
  void test5WithoutTheLargestPartitionTermAPartitionCanBeLeftOver() {
    long[] sizes = {60, 60, 60};
    long cap = -Math.floorDiv(-180, 2); // X / W alone
    assertThat(CacheDivision.greedyPlace(sizes, 2, cap)).contains(-1);
    assertThat(CacheDivision.greedyPlace(sizes, 2, CacheDivision.perWorkerBytes(180, 2, 60))).doesNotContain(-1);
  }

  @Test
  void test7GoldenFrameworkMinimums() {
    // S_rdd 1000, S_bc 64, shuffle 300; partitions 10..100 bytes; task needs 5..50.
    FrameworkNeeds needs = new FrameworkNeeds(1000, 64, 300, new long[] {10, 100, 40, 70, 30},
        new long[] {5, 50, 20, 35});
    WorkerMemory w = WorkerMemory.of(needs, 4, 2);
    assertThat(w.unrollBytes()).isEqualTo(100 + 70);
    assertThat(w.storageBytes()).isEqualTo(64 + (250 + 100) + 170);
    assertThat(w.executionBytes()).isEqualTo(50 + 35);
    assertThat(w.pageCacheBytes()).isEqualTo(300);
    assertThat(w.managedBytes()).isEqualTo(584 + 85);
    // One worker of one slot.
    WorkerMemory single = WorkerMemory.of(needs, 1, 1);
    assertThat(single.storageBytes()).isEqualTo(64 + 1000 + 100 + 100);
    assertThat(single.executionBytes()).isEqualTo(50);
  }

  @Test
  void test7TheRepartitionWhatIfScalesPartitionProportionalSizes() {
    FrameworkNeeds needs = new FrameworkNeeds(1000, 64, 300, new long[] {10, 100, 40}, new long[] {5, 50});
    FrameworkNeeds doubled = needs.repartitioned(64, 128);
    assertThat(doubled.partitionBytes()).containsExactly(5, 50, 20);
    assertThat(doubled.taskExecutionBytes()).containsExactly(3, 25);
    assertThat(doubled.rddNoMissBytes()).isEqualTo(1000);
    WorkerMemory before = WorkerMemory.of(needs, 2, 2);
    WorkerMemory after = WorkerMemory.of(doubled, 2, 2);
    assertThat(after.unrollBytes()).isEqualTo(50 + 20).isLessThan(before.unrollBytes());
    assertThat(after.storageBytes()).isEqualTo(64 + 500 + 50 + 70);
    assertThatThrownBy(() -> needs.repartitioned(0, 4)).hasMessageContaining("Cannot repartition");
  }

  @Test
  void theSettingsGiveSparkAtLeastTheMinimumsWithTheSafetyFactorAsHeadroom() {
    WorkerMemory w = new WorkerMemory(3000 * MIB, 200 * MIB, 1000 * MIB, 500 * MIB);
    SparkMemorySettings s = SparkMemorySettings.of(w, SparkMemorySettings.FIRST_RUN_SAFETY_FACTOR);
    assertThat(s.executorMemoryBytes()).isEqualTo(300 * MIB + 6000 * MIB);
    assertThat(s.memoryFraction()).isEqualTo(0.667);
    assertThat(s.managedBytes()).isGreaterThanOrEqualTo(w.managedBytes());
    assertThat(s.protectedStorageBytes()).isGreaterThanOrEqualTo(w.storageBytes());
    assertThat(s.storageFraction()).isEqualTo(0.75);
    assertThat(s.memoryOverheadBytes()).isEqualTo(630 * MIB);
  }

  @Test
  void aTinyNeedGetsSparksSmallestHeapAndOverhead() {
    SparkMemorySettings s = SparkMemorySettings.of(new WorkerMemory(0, 0, 0, 0), 1.5);
    assertThat(s.executorMemoryBytes()).isEqualTo(SparkMemorySettings.MIN_HEAP_BYTES);
    assertThat(s.memoryOverheadBytes()).isEqualTo(SparkMemorySettings.MIN_OVERHEAD_BYTES);
    assertThat(s.memoryFraction()).isEqualTo(0.1);
    assertThatThrownBy(() -> SparkMemorySettings.of(new WorkerMemory(0, 0, 0, 0), 0.9))
        .hasMessageContaining("safety factor must be at least 1 (0.9)");
  }
}
