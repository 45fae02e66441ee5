package org.perflab.timing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.perflab.timing.CriticalPath.StageTime;

class CriticalPathTest {

  @Test
  void aChainSumsItsStagesAndParallelBranchesTakeTheLonger() {
    // Job 0: 0 -> 2 and 1 -> 2, stage 0 = 5 s, stage 1 = 3 s, stage 2 = 2 s: 5 + 2 = 7.
    List<StageTime> job0 = List.of(new StageTime(0, 0, List.of(), 5000), new StageTime(0, 1, List.of(), 3000),
        new StageTime(0, 2, List.of(0, 1), 2000));
    assertThat(CriticalPath.ofApplication(job0)).isEqualTo(7000);
  }

  @Test
  void jobsAddUpAndParentsOfEarlierJobsAreIgnored() {
    // Job 1 reuses stage 0's output: its stage 3 names 0 as a parent, which job 1 skipped. 7 + 4 = 11.
    List<StageTime> stages = List.of(new StageTime(0, 0, List.of(), 5000), new StageTime(0, 1, List.of(), 3000),
        new StageTime(0, 2, List.of(0, 1), 2000), new StageTime(1, 3, List.of(0), 4000));
    assertThat(CriticalPath.ofApplication(stages)).isEqualTo(11000);
  }

  @Test
  void aRetriedStageCountsEachAttempt() {
    List<StageTime> stages = List.of(new StageTime(0, 0, List.of(), 1000), new StageTime(0, 1, List.of(0), 2000),
        new StageTime(0, 1, List.of(0), 2500));
    assertThat(CriticalPath.ofApplication(stages)).isEqualTo(5500);
  }

  @Test
  void noStagesIsZeroAndACycleDoesNotLoop() {
    assertThat(CriticalPath.ofApplication(List.of())).isZero();
    List<StageTime> cycle = List.of(new StageTime(null, 0, List.of(1), 1000), new StageTime(null, 1, List.of(0), 2000));
    assertThat(CriticalPath.ofApplication(cycle)).isEqualTo(3000);
  }
}
