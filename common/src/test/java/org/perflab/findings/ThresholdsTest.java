package org.perflab.findings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ThresholdsTest {
  @Test
  void ascendingGradesTheHighestLimitReached() {
    Thresholds t = Thresholds.ascending(2, 4, 8, 16);
    assertThat(t.grade(1.99)).isEqualTo(Severity.NONE);
    assertThat(t.grade(2.0)).isEqualTo(Severity.LOW);
    assertThat(t.grade(7.9)).isEqualTo(Severity.MODERATE);
    assertThat(t.grade(8.0)).isEqualTo(Severity.SEVERE);
    assertThat(t.grade(100.0)).isEqualTo(Severity.CRITICAL);
  }

  @Test
  void descendingGradesTheLowestLimitAtOrBelow() {
    Thresholds t = Thresholds.descending(1000, 500, 200, 100);
    assertThat(t.grade(1001.0)).isEqualTo(Severity.NONE);
    assertThat(t.grade(1000.0)).isEqualTo(Severity.LOW);
    assertThat(t.grade(300.0)).isEqualTo(Severity.MODERATE);
    assertThat(t.grade(200.0)).isEqualTo(Severity.SEVERE);
    assertThat(t.grade(5.0)).isEqualTo(Severity.CRITICAL);
  }

  @Test
  void nullAndNanAreNone() {
    assertThat(FindingLimits.GC_SHARE.grade(null)).isEqualTo(Severity.NONE);
    assertThat(FindingLimits.GC_SHARE.grade(Double.NaN)).isEqualTo(Severity.NONE);
  }

  @Test
  void limitsOutOfOrderAreRejected() {
    assertThatThrownBy(() -> Thresholds.ascending(2, 1, 8, 16))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must be ascending");
    assertThatThrownBy(() -> Thresholds.descending(1, 2, 3, 4))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must be descending");
  }

  @Test
  void everyRuleHasOrderedLimitsAndOnlyLowAndAboveAreReported() {
    for (Rule rule : Rule.values()) {
      Thresholds t = rule.thresholds();
      assertThat(t.grade(t.limit(Severity.LOW))).as("%s at LOW", rule).isEqualTo(Severity.LOW);
      assertThat(t.grade(t.limit(Severity.CRITICAL))).as("%s at CRITICAL", rule).isEqualTo(Severity.CRITICAL);
    }
    assertThat(Severity.NONE.reported()).isFalse();
    assertThat(Severity.LOW.reported()).isTrue();
  }

  @Test
  void broadcastThresholdReadsSparkSizes() {
    assertThat(ByteSizes.broadcastThreshold("10MB", 7)).isEqualTo(10L << 20);
    assertThat(ByteSizes.broadcastThreshold("10485760", 7)).isEqualTo(10L << 20);
    assertThat(ByteSizes.broadcastThreshold("-1", 7)).isEqualTo(-1);
    assertThat(ByteSizes.broadcastThreshold(null, 7)).isEqualTo(7);
    assertThat(ByteSizes.broadcastThreshold("lots", 7)).isEqualTo(7);
  }
}
