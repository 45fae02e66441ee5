package org.perflab.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Settings for Spark's static memory manager (before 1.6) and which runs had it. */
class StaticMemorySettingsTest {
  private static final long MIB = SparkMemorySettings.MIB;

  /**
   * Storage 1,800 MiB and execution 800 MiB span 1,800 ÷ 0.9 + 800 ÷ 0.8 = 3,000 MiB of heap at fraction 1; with the
   * first-run safety factor the heap is 4,500 MiB, storage 1,800 ÷ (4,500 × 0.9) = 0.444 → 0.45, shuffle
   * 800 ÷ (4,500 × 0.8) = 0.222 → 0.23, the overhead 10 % of the heap.
   */
  @Test
  void eachRegionHoldsItsNeedInAHeapWithTheSafetyFactorAsHeadroom() {
    WorkerMemory w = new WorkerMemory(1800 * MIB, 200 * MIB, 800 * MIB, 500 * MIB);
    StaticMemorySettings s = StaticMemorySettings.of(w, SparkMemorySettings.FIRST_RUN_SAFETY_FACTOR);

    assertThat(s.executorMemoryBytes()).isEqualTo(4500 * MIB);
    assertThat(s.storageMemoryFraction()).isEqualTo(0.45);
    assertThat(s.shuffleMemoryFraction()).isEqualTo(0.23);
    assertThat(s.storageBytes()).isGreaterThanOrEqualTo(w.storageBytes());
    assertThat(s.executionBytes()).isGreaterThanOrEqualTo(w.executionBytes());
    assertThat(s.memoryOverheadBytes()).isEqualTo(450 * MIB);
  }

  @Test
  void aTinyNeedGetsTheSmallestHeapAndFractions() {
    StaticMemorySettings s = StaticMemorySettings.of(new WorkerMemory(0, 0, 0, 0), 1.5);

    assertThat(s.executorMemoryBytes()).isEqualTo(SparkMemorySettings.MIN_HEAP_BYTES);
    assertThat(s.storageMemoryFraction()).isEqualTo(0.05);
    assertThat(s.shuffleMemoryFraction()).isEqualTo(0.05);
    assertThat(s.memoryOverheadBytes()).isEqualTo(SparkMemorySettings.MIN_OVERHEAD_BYTES);
    assertThatThrownBy(() -> StaticMemorySettings.of(new WorkerMemory(0, 0, 0, 0), 0.9))
        .hasMessageContaining("safety factor must be at least 1 (0.9)");
  }

  /** With no headroom each region is its need, rounded up: the two fractions never ask for more than the heap. */
  @Test
  void withoutHeadroomTheRegionsFillTheHeapAndNoMore() {
    StaticMemorySettings s = StaticMemorySettings.of(new WorkerMemory(900 * MIB, 0, 800 * MIB, 0), 1.0);

    assertThat(s.executorMemoryBytes()).isEqualTo(2000 * MIB);
    assertThat(s.storageMemoryFraction()).isEqualTo(0.5);
    assertThat(s.shuffleMemoryFraction()).isEqualTo(0.5);
  }

  @Test
  void theStaticManagerIsSparkBeforeOneSixAndLegacyModeUntilThree() {
    assertThat(MemoryManager.of("1.3.1", false)).isEqualTo(MemoryManager.STATIC);
    assertThat(MemoryManager.of("1.5.2", false)).isEqualTo(MemoryManager.STATIC);
    assertThat(MemoryManager.of("1.6.0", false)).isEqualTo(MemoryManager.UNIFIED);
    assertThat(MemoryManager.of("1.6.3", true)).isEqualTo(MemoryManager.STATIC);
    assertThat(MemoryManager.of("2.4.8", true)).isEqualTo(MemoryManager.STATIC);
    assertThat(MemoryManager.of("2.1.0-SNAPSHOT", false)).isEqualTo(MemoryManager.UNIFIED);
    assertThat(MemoryManager.of("3.0.0", true)).as("legacy mode removed in 3.0").isEqualTo(MemoryManager.UNIFIED);
    assertThat(MemoryManager.of(null, false)).as("not known").isEqualTo(MemoryManager.UNIFIED);
    assertThat(MemoryManager.of("unknown", true)).as("not readable").isEqualTo(MemoryManager.UNIFIED);
  }
}
