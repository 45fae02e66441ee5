package org.perflab.spark.recommend;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.junit.jupiter.api.Test;

/**
 * The memory fractions {@code recommend} sets with a recommended heap: those that raise a region above Spark's default
 * under the workload's version, no others. Rows as {@code Recommendations} selects them: workload, heap, overhead,
 * tier, then spark.memory.fraction, spark.memory.storageFraction, spark.storage.memoryFraction and
 * spark.shuffle.memoryFraction.
 */
class MemorySettingsTest {
  private static Row row(Double memory, Double storage, Double staticStorage, Double staticShuffle) {
    return RowFactory.create("w", 1L, null, "A", memory, storage, staticStorage, staticShuffle);
  }

  @Test
  void aFractionAboveSparksDefaultIsSetAndOneBelowIsNot() {
    assertThat(Recommendations.settings(row(0.667, 0.75, null, null), "3.5.1"))
        .containsExactly("spark.memory.fraction=0.667", "spark.memory.storageFraction=0.75");
    assertThat(Recommendations.settings(row(0.43, 0.05, null, null), "3.5.1")).isEmpty();
  }

  /** Spark 1.6's default fraction is 0.75: 0.667 there would shrink the pool. */
  @Test
  void theDefaultIsTheWorkloadVersions() {
    assertThat(Recommendations.settings(row(0.667, null, null, null), "1.6.3")).isEmpty();
    assertThat(Recommendations.settings(row(0.8, null, null, null), "1.6.3"))
        .containsExactly("spark.memory.fraction=0.8");
  }

  /** The static manager's shuffle region (default 0.2) raised; its storage region (default 0.6) left. */
  @Test
  void theStaticManagersFractionsAgainstItsDefaults() {
    assertThat(Recommendations.settings(row(null, null, 0.05, 0.67), "1.5.1"))
        .containsExactly("spark.shuffle.memoryFraction=0.67");
  }
}
