package org.perflab.queueing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.perflab.sim.EngineTestModels;
import org.perflab.sim.Model;

class ForkJoinBoundTest {
  @Test
  void harmonicNumbersMatchTheReference() {
    assertThat(ForkJoinBound.harmonic(1)).isEqualTo(1.0);
    assertThat(ForkJoinBound.harmonic(12)).isCloseTo(3.1032, within(5e-5));
    assertThat(ForkJoinBound.harmonic(24)).isCloseTo(3.7760, within(5e-5));
    assertThat(ForkJoinBound.harmonic(52)).isCloseTo(4.5380, within(5e-5));
  }

  @Test
  void reproducesTheImpliedTable5Prediction() {
    // Q26 at 12 and 52 cores (reference 001, table 5): the implied sums of R_core, 626.9 s and 172.9 s, rounded to
    // 0.1 s, give the printed Fork-Join predictions 1945.3 s and 784.5 s within that rounding times H_K.
    ForkJoinBound.Prediction p = ForkJoinBound.predict(12, 626.9);
    assertThat(p.upperBound()).isCloseTo(1945.3, within(0.2));
    assertThat(p.lowerBound()).isEqualTo(626.9);
    assertThat(ForkJoinBound.predict(52, 100.0, 72.9).upperBound()).isCloseTo(784.5, within(0.2));
  }

  @Test
  void splitsTheFig2DagIntoSequentialPhases() throws IOException {
    Model fig2 = EngineTestModels.fig2();
    assertThat(ForkJoinBound.phases(fig2))
        .containsExactly(List.of("S0", "S1", "S2"), List.of("S3"), List.of("S4"));
    // Work per phase on 64 cores: (100·200 + 100·100 + 200·50) / 64, 100·20 / 64, 10·500 / 64.
    double lower = (40_000 + 2_000 + 5_000) / 64.0;
    ForkJoinBound.Prediction p = ForkJoinBound.predict(fig2, 64);
    assertThat(p.lowerBound()).isCloseTo(lower, within(1e-9));
    assertThat(p.upperBound()).isCloseTo(lower * ForkJoinBound.harmonic(64), within(1e-9));
  }
}
