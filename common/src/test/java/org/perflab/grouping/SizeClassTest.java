package org.perflab.grouping;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SizeClassTest {
  private static final long GB = 1_000_000_000L;
  private static final long GIB = 1L << 30;

  @Test
  void roundSizesSitInsideTheirClassNotOnItsEdge() {
    assertThat(SizeClass.of(GB)).isEqualTo(30);
    assertThat(SizeClass.of(GIB)).isEqualTo(30);
    assertThat(SizeClass.of(GIB - 1000)).isEqualTo(30);
    assertThat(SizeClass.of(GIB + 1000)).isEqualTo(30);
    assertThat(SizeClass.of(10 * GB)).isEqualTo(33);
    assertThat(SizeClass.of(100_000_000L)).isEqualTo(27);
  }

  @Test
  void runsTwiceAsLargeAreAnotherClassAndRunsWithinTenPercentShareOne() {
    for (long bytes = 1000; bytes < Long.MAX_VALUE / 4; bytes *= 3) {
      assertThat(SizeClass.of(2 * bytes)).as("2 × %d", bytes).isEqualTo(SizeClass.of(bytes) + 1);
    }
    // Boundaries of class 30: 2^29.5 and 2^30.5.
    assertThat(SizeClass.of((long) Math.pow(2, 29.5) + 1)).isEqualTo(30);
    assertThat(SizeClass.of((long) Math.pow(2, 29.5) - 1)).isEqualTo(29);
    assertThat(SizeClass.of((long) Math.pow(2, 30.5) - 1)).isEqualTo(30);
    assertThat(SizeClass.of((long) Math.pow(2, 30.5) + 1)).isEqualTo(31);
  }

  @Test
  void noInputIsClassZero() {
    assertThat(SizeClass.of(0)).isZero();
    assertThat(SizeClass.of(-5)).isZero();
    assertThat(SizeClass.of(1)).isZero();
    assertThat(SizeClass.of(2)).isEqualTo(1);
    assertThat(SizeClass.of(3)).isEqualTo(2);
  }

  @Test
  void centreIsTheClassPowerOfTwo() {
    assertThat(SizeClass.centreBytes(0)).isZero();
    assertThat(SizeClass.centreBytes(30)).isEqualTo(GIB);
    assertThat(SizeClass.of(SizeClass.centreBytes(41))).isEqualTo(41);
    assertThat(SizeClass.centreBytes(63)).isEqualTo(Long.MAX_VALUE);
  }
}
