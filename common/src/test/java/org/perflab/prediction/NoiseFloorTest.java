package org.perflab.prediction;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class NoiseFloorTest {
  private static final long GB = 1_000_000_000L;

  @Test
  void twoRunsTenPercentApartGiveAFloorBetweenTheirTwoRelativeDifferences() {
    List<Run> runs = List.of(new Run("a", "w", 10 * GB, 2, 1, null, 100), new Run("b", "w", 10 * GB, 2, 1, null, 110),
        new Run("c", "w", 10 * GB, 4, 1, null, 60));

    NoiseFloor.Floor floor = NoiseFloor.of(runs, 1);
    // One half is 100 s and the other 110 s: 10/110 = 9.09 % or 10/100 = 10 %. The single run at 4 cores is no
    // configuration of the floor.
    assertThat(floor.configurations()).isEqualTo(1);
    assertThat(floor.meanAbsErrorPct()).isBetween(100.0 / 11, 10.0);
  }

  @Test
  void lognormalNoiseGivesTheFloorOfItsSpread() {
    // Ten runs per configuration with lognormal noise of sigma 0.1. A median of 5 has a log-spread of about
    // 1.25 * 0.1 / sqrt(5) = 0.056, the difference of two sqrt(2) times that, and its mean absolute value
    // sqrt(2 / pi) times its spread: about 6.3 %. Ten times quieter runs give a floor ten times smaller.
    Random random = new Random(3);
    List<Run> runs = new ArrayList<>();
    for (int c = 0; c < 40; c++) {
      for (int rep = 0; rep < 10; rep++) {
        runs.add(new Run(c + "/" + rep, "w", 10 * GB, c + 1, 1, null, 100 * Math.exp(0.1 * random.nextGaussian())));
      }
    }
    NoiseFloor.Floor floor = NoiseFloor.of(runs, 1);
    assertThat(floor.configurations()).isEqualTo(40);
    assertThat(floor.meanAbsErrorPct()).isBetween(3.0, 9.0);
    List<Run> quiet = runs.stream().map(r -> new Run(r.runKey(), r.workloadId(), r.inputBytes(), r.executors(),
        r.coresPerExecutor(), null, 100 + (r.durationS() - 100) / 10)).toList();
    assertThat(NoiseFloor.of(quiet, 1).meanAbsErrorPct()).isLessThan(floor.meanAbsErrorPct() / 5);
  }
}
