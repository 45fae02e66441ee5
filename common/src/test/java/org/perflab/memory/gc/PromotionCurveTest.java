package org.perflab.memory.gc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The promotion curve's window, running maximum, tie handling and conservative extrapolation (reference §2.8.5). */
class PromotionCurveTest {
  private static final long MIB = 1L << 20;

  private static GcObservation sample(long edenBytes, long promotedBytes) {
    return GcObservation.young(edenBytes, 64 * MIB, promotedBytes, 0, 1L << 30, 1);
  }

  /** Twenty samples, eden 1..20 MiB, promoted 1 MiB each, except a 20 MiB loading-phase outlier at eden 5 MiB. */
  private static List<GcObservation> withOutlier() {
    List<GcObservation> samples = new ArrayList<>();
    for (int i = 1; i <= 20; i++) {
      samples.add(sample(i * MIB, i == 5 ? 20 * MIB : MIB));
    }
    return samples;
  }

  @Test
  void windowMeansAreHeldByARunningMaximumSoALoadingPhaseJumpPersists() {
    PromotionCurve curve = PromotionCurve.fit(withOutlier(), true);
    // window = 10 % of 20 samples = 2: the windows holding the outlier (eden 5 and 6 MiB) average 10.5 MiB
    assertThat(curve.promotedBytes(4 * MIB)).isEqualTo(MIB);
    assertThat(curve.promotedBytes(5 * MIB)).isEqualTo(10.5 * MIB);
    assertThat(curve.promotedBytes(20 * MIB)).isEqualTo(10.5 * MIB);
    PromotionCurve local = PromotionCurve.fit(withOutlier(), false);
    assertThat(local.promotedBytes(7 * MIB)).isEqualTo(MIB);
  }

  @Test
  void extrapolatesFlatBelowAndProportionallyAboveTheSampledRange() {
    PromotionCurve curve = PromotionCurve.fit(withOutlier(), true);
    assertThat(curve.promotedBytes(MIB / 2)).isEqualTo(MIB);
    assertThat(curve.promotedBytes(40 * MIB)).isCloseTo(21 * MIB, within(1e-3));
  }

  @Test
  void interpolatesLinearlyBetweenPoints() {
    PromotionCurve curve = PromotionCurve.fit(List.of(sample(10 * MIB, MIB), sample(20 * MIB, 3 * MIB)), true);
    assertThat(curve.promotedBytes(15 * MIB)).isCloseTo(2 * MIB, within(1e-6));
  }

  @Test
  void collectionsAtOneEdenSizeGiveTheirMeanWhateverTheirOrder() {
    List<GcObservation> fixed = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      fixed.add(sample(32 * MIB - (i * 7919L % 13) * 65536, i % 10 == 0 ? 16 * MIB : MIB));
    }
    PromotionCurve curve = PromotionCurve.fit(fixed, true);
    assertThat(curve.promotedBytes(32 * MIB)).isCloseTo(2.5 * MIB, within(1.0));
    assertThat(curve.minEdenBytes()).isEqualTo(curve.maxEdenBytes());
  }
}
