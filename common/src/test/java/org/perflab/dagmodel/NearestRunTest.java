package org.perflab.dagmodel;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.perflab.dagmodel.NearestRun.RunPoint;

class NearestRunTest {
  private static final long GB = 1L << 30;

  /** A training run: its name and where it stands. */
  private record Run(String name, long bytes, int cores, double seconds) {
    RunPoint point() {
      return new RunPoint(bytes, cores, seconds);
    }
  }

  private static String choose(List<Run> runs, long bytes, int cores) {
    return NearestRun.choose(runs, Run::point, bytes, cores).map(Run::name).orElse("none");
  }

  @Test
  void inputSizeComesFirstThenCoresThenTheMedianDuration() {
    List<Run> runs = List.of(
        new Run("1g-8c-a", GB, 8, 30), new Run("1g-8c-b", GB + GB / 50, 8, 10), new Run("1g-8c-c", GB - GB / 50, 8, 20),
        new Run("1g-16c", GB, 16, 12),
        new Run("4g-16c", 4 * GB, 16, 40));
    // 1 GB on 16 cores: that very configuration.
    assertThat(choose(runs, GB, 16)).isEqualTo("1g-16c");
    // 1 GB on 12 cores: 16 is nearer than 8 by |log ratio| (0.29 < 0.41).
    assertThat(choose(runs, GB, 12)).isEqualTo("1g-16c");
    // 1 GB on 4 cores: the 8-core runs, whose median duration is 20 s.
    assertThat(choose(runs, GB, 4)).isEqualTo("1g-8c-c");
    // 4 GB on 8 cores: the size decides before the cores.
    assertThat(choose(runs, 4 * GB, 8)).isEqualTo("4g-16c");
    // 2.2 GB: one doubling from 1 GB (log2 1.1) and one from 4 GB (0.86); then cores, then the exact distance.
    assertThat(choose(runs, 2 * GB + GB / 5, 16)).isEqualTo("4g-16c");
    assertThat(choose(runs, 2 * GB + GB / 5, 8)).isEqualTo("1g-8c-c");
    assertThat(choose(List.of(), GB, 8)).isEqualTo("none");
  }

  @Test
  void anEvenNumberOfRunsTakesTheLowerMedian() {
    List<Run> runs = List.of(new Run("a", GB, 4, 4), new Run("b", GB, 4, 1), new Run("c", GB, 4, 3),
        new Run("d", GB, 4, 2));
    assertThat(choose(runs, GB, 4)).isEqualTo("d");
  }
}
