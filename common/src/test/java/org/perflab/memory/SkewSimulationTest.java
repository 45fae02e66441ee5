package org.perflab.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/**
 * Reference 004 §4.4 test 6: Table 5.3 reproduced within ±1 task: log-normal task durations of mean 1 and standard
 * deviation 0.5, 0.25 and 0.1, 100 machines, 1000 runs, the 99th percentile of the most tasks on a machine. The rows up
 * to mean 50 run here; the distributed job's test (jobs module, MemoryJobTest) runs the mean-10 and mean-50 rows; the
 * mean-100 and mean-1000 rows (10^7 and 10^8 tasks per cell) run with {@code perflab memory --skew-table}.
 */
class SkewSimulationTest {
  static final int[] MEANS = {2, 4, 6, 8, 10, 12, 50};
  static final double[] SDS = {0.5, 0.25, 0.1};
  /** Table 5.3's "max #" for MEANS (rows) and SDS (columns). */
  static final int[][] TABLE = {{4, 3, 2}, {7, 6, 5}, {10, 8, 7}, {13, 10, 9}, {16, 13, 11}, {18, 15, 13},
      {64, 57, 53}};

  @Test
  void test6Table53IsReproducedWithinOneTask() {
    for (int row = 0; row < MEANS.length; row++) {
      for (int col = 0; col < SDS.length; col++) {
        SkewSimulation sim = new SkewSimulation(MEANS[row], 100, SDS[col]);
        int p99 = SkewSimulation.percentile(sim.maxima(53, 0, 1000), SkewSimulation.PERCENTILE);
        assertThat(p99).as("mean %d, sd %s", MEANS[row], SDS[col]).isCloseTo(TABLE[row][col], within(1));
      }
    }
  }

  @Test
  void aRunIsTheSameWhicheverBatchComputesIt() {
    SkewSimulation sim = new SkewSimulation(4, 100, 0.5);
    int[] all = sim.maxima(9, 0, 10);
    int[] tail = sim.maxima(9, 6, 4);
    assertThat(tail).containsExactly(all[6], all[7], all[8], all[9]);
  }

  @Test
  void withoutSkewEveryMachineRunsTheMean() {
    assertThat(new SkewSimulation(10, 100, 0).maxTasksOnAMachine(1)).isEqualTo(10);
    assertThat(new SkewSimulation(10, 100, 0).correction(10)).isCloseTo(10 / 11.0, within(1e-12));
  }

  @Test
  void theNearestRankPercentile() {
    int[] values = new int[100];
    for (int i = 0; i < 100; i++) {
      values[i] = 100 - i;
    }
    assertThat(SkewSimulation.percentile(values, 0.99)).isEqualTo(99);
    assertThat(SkewSimulation.percentile(values, 1.0)).isEqualTo(100);
  }
}
