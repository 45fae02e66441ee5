package org.perflab.memory.gc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Reference 004 §4.4 test 10: the minimum-time clamp, the zero-intercept fallback, the constant full-GC model. */
class GcTimeModelTest {
  private static final long MIB = 1L << 20;
  private static final long GIB = 1L << 30;

  private static GcObservation young(long promotedMib, double ms) {
    return GcObservation.young(64 * MIB, 64 * MIB, promotedMib * MIB, 0, GIB, ms);
  }

  private static GcObservation full(long tenured, double ms) {
    return GcObservation.full(64 * MIB, 64 * MIB, 0, tenured, ms);
  }

  @Test
  void youngTimesFollowTheLineButNeverGoBelowTheShortestObservedPause() {
    GcTimeModel model = GcTimeModel.fit(List.of(young(1, 1), young(2, 5), young(3, 9), full(GIB, 400)));
    assertThat(model.youngMsPerByte() * MIB).isCloseTo(4, within(1e-9));
    assertThat(model.youngInterceptMs()).isCloseTo(-3, within(1e-9));
    assertThat(model.youngMs(5 * MIB)).isCloseTo(17, within(1e-9));
    assertThat(model.youngMs(0)).isEqualTo(1);
  }

  @Test
  void oneTenuredSizeGivesTheMeanFullPause() {
    GcTimeModel model = GcTimeModel.fit(List.of(young(1, 1), full(GIB, 300), full(GIB, 500)));
    assertThat(model.fullBasis()).isEqualTo(GcTimeModel.FullBasis.CONSTANT);
    assertThat(model.fullMs(GIB / 2)).isEqualTo(400);
    assertThat(model.fullMs(4 * GIB)).isEqualTo(400);
  }

  @Test
  void severalTenuredSizesGiveALineThroughTheOriginWhenTheFreeLineGoesNegative() {
    GcTimeModel positive = GcTimeModel.fit(List.of(young(1, 1), full(GIB, 300), full(2 * GIB, 500)));
    assertThat(positive.fullBasis()).isEqualTo(GcTimeModel.FullBasis.LINEAR);
    assertThat(positive.fullMs(3 * GIB)).isCloseTo(700, within(1e-6));
    GcTimeModel negative = GcTimeModel.fit(List.of(young(1, 1), full(GIB, 100), full(2 * GIB, 500)));
    assertThat(negative.fullBasis()).isEqualTo(GcTimeModel.FullBasis.ZERO_INTERCEPT);
    double beta = (1.0 * 100 + 2.0 * 500) / (1 + 4) / GIB;
    assertThat(negative.fullMs(GIB / 4)).isCloseTo(beta * GIB / 4, within(1e-6)).isPositive();
  }

  @Test
  void withoutFullCollectionsTheWholeTenuredIsCopiedAtTheYoungRate() {
    GcTimeModel model = GcTimeModel.fit(List.of(young(1, 3), young(2, 5), young(3, 7)));
    assertThat(model.fullBasis()).isEqualTo(GcTimeModel.FullBasis.FROM_YOUNG_RATE);
    assertThat(model.fullMs(1024 * MIB)).isCloseTo(2048, within(1e-6));
  }
}
