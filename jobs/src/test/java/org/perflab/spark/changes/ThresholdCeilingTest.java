package org.perflab.spark.changes;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ThresholdCeilingTest {
  @Test
  void separatedScoresMeetBothGoalsAtTheLowestScoreToFlag() {
    ThresholdCeiling c = ThresholdCeiling.of(new double[] {1.3, 1.5, 1.25}, new double[] {0.9, 1.0, 1.1, 1.2}, 0.02,
        0.95);

    assertThat(c.bothGoals()).isTrue();
    assertThat(c.quietThreshold()).isEqualTo(1.25);
    assertThat(c.quietDetected()).isEqualTo(3);
    assertThat(c.quietFalseAlarms()).isZero();
    assertThat(c.sensitiveThreshold()).isEqualTo(1.25);
    assertThat(c.sensitiveFalseAlarms()).isZero();
  }

  @Test
  void oneSteadyRunAboveAChangedOneLeavesNoThresholdForBothGoals() {
    // A steady run at 1.24 above a changed run at 1.21: flagging 1.21 flags 1.24 too.
    double[] must = {1.21, 1.47, 1.30, 1.34, 1.57, 1.29};
    double[] steady = {0.9, 1.0, 1.05, 1.1, 1.15, 1.24};

    ThresholdCeiling c = ThresholdCeiling.of(must, steady, 0.02, 0.95);

    assertThat(c.bothGoals()).isFalse();
    assertThat(c.quietThreshold()).isEqualTo(1.29);
    assertThat(c.quietDetected()).isEqualTo(5);
    assertThat(c.quietFalseAlarms()).isZero();
    assertThat(c.sensitiveThreshold()).isEqualTo(1.21);
    assertThat(c.sensitiveDetected()).isEqualTo(6);
    assertThat(c.sensitiveFalseAlarms()).isEqualTo(1);
    assertThat(c.describe("x")).contains("detection 5/6, false alarms 0/6 (threshold 1.29x)")
        .contains("detection 6/6, false alarms 1/6 (threshold 1.21x)").endsWith("both goals at one threshold: no");
  }

  @Test
  void aThresholdMayFlagAsManySteadyRunsAsTheShareAllowsAndNoMore() {
    double[] steady = new double[100];
    for (int i = 0; i < steady.length; i++) {
      steady[i] = i / 100.0;
    }

    ThresholdCeiling two = ThresholdCeiling.of(new double[] {0.98, 2.0}, steady, 0.02, 0.95);
    ThresholdCeiling three = ThresholdCeiling.of(new double[] {0.97, 2.0}, steady, 0.02, 0.95);

    assertThat(two.quietThreshold()).isEqualTo(0.98);
    assertThat(two.quietFalseAlarms()).isEqualTo(2);
    assertThat(two.bothGoals()).isTrue();
    assertThat(three.quietThreshold()).isEqualTo(2.0);
    assertThat(three.quietDetected()).isEqualTo(1);
    assertThat(three.quietFalseAlarms()).isZero();
    assertThat(three.sensitiveFalseAlarms()).isEqualTo(3);
    assertThat(three.bothGoals()).isFalse();
  }
}
