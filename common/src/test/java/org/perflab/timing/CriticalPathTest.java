package org.perflab.timing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.perflab.timing.CriticalPath.StageTime;

class CriticalPathTest {

  /** A stage of job {@code job}, which ran from {@code start} to {@code end} s. */
  private static StageTime stage(int job, long start, long end, int stage, List<Integer> parents, long longestMs,
      long taskMs) {
    return new StageTime(job, start * 1000, end * 1000, stage, parents, longestMs, taskMs);
  }

  @Test
  void aChainSumsItsStagesAndParallelBranchesTakeTheLonger() {
    // Job 0: 0 -> 2 and 1 -> 2, stage 0 = 5 s, stage 1 = 3 s, stage 2 = 2 s: 5 + 2 = 7.
    List<StageTime> job0 = List.of(stage(0, 0, 10, 0, List.of(), 5000, 5000),
        stage(0, 0, 10, 1, List.of(), 3000, 3000), stage(0, 0, 10, 2, List.of(0, 1), 2000, 2000));
    assertThat(CriticalPath.of(job0, 2).criticalPathMs()).isEqualTo(7000);
  }

  @Test
  void jobsOneAfterAnotherAddUpAndParentsOfEarlierJobsAreIgnored() {
    // Job 1 reuses stage 0's output: its stage 3 names 0 as a parent, which job 1 skipped. 7 + 4 = 11.
    List<StageTime> stages = List.of(stage(0, 0, 10, 0, List.of(), 5000, 5000),
        stage(0, 0, 10, 1, List.of(), 3000, 3000), stage(0, 0, 10, 2, List.of(0, 1), 2000, 2000),
        stage(1, 11, 20, 3, List.of(0), 4000, 4000));
    assertThat(CriticalPath.of(stages, 2).criticalPathMs()).isEqualTo(11000);
  }

  @Test
  void overlappingJobsTakeAsLongAsTheLongest() {
    // Jobs 0 (0-10 s) and 1 (2-12 s) overlap: max(5, 4) = 5; job 2 (20-30 s) follows: + 3 = 8.
    List<StageTime> stages = List.of(stage(0, 0, 10, 0, List.of(), 5000, 5000),
        stage(1, 2, 12, 1, List.of(), 4000, 4000), stage(2, 20, 30, 2, List.of(), 3000, 3000));
    assertThat(CriticalPath.of(stages, 1).criticalPathMs()).isEqualTo(8000);
    // Ideal on 1 slot: the overlapping group's task time, 9 s, beats its longest job, 5 s; then 3: 12 s.
    assertThat(CriticalPath.of(stages, 1).idealMs()).isEqualTo(12000.0);
  }

  @Test
  void idealIsTaskTimeOverSlotsFlooredByTheLongestTask() {
    // 8 tasks of 1 s on 4 slots: 2 s; one task of 3 s among 4 s of task time: 3 s. 10 tasks of 1 s on 4 slots: 2.5 s.
    List<StageTime> stages = List.of(stage(0, 0, 10, 0, List.of(), 1000, 8000),
        stage(0, 0, 10, 1, List.of(0), 3000, 4000), stage(0, 0, 10, 2, List.of(1), 1000, 10000));
    assertThat(CriticalPath.of(stages, 4).idealMs()).isEqualTo(7500.0);
    assertThat(CriticalPath.of(stages, null).idealMs()).isNull();
  }

  @Test
  void aJobTakesNoLongerThanItsSpan() {
    // A failed job ended at 4 s while its stage's 6-s task ran on.
    List<StageTime> stages = List.of(stage(0, 0, 4, 0, List.of(), 6000, 6000));
    assertThat(CriticalPath.of(stages, 1).criticalPathMs()).isEqualTo(4000);
  }

  @Test
  void aRetriedStageCountsEachAttempt() {
    List<StageTime> stages = List.of(stage(0, 0, 10, 0, List.of(), 1000, 1000),
        stage(0, 0, 10, 1, List.of(0), 2000, 2000), stage(0, 0, 10, 1, List.of(0), 2500, 2500));
    assertThat(CriticalPath.of(stages, 1).criticalPathMs()).isEqualTo(5500);
  }

  @Test
  void noStagesIsZeroAndACycleDoesNotLoop() {
    assertThat(CriticalPath.of(List.of(), 2)).isEqualTo(new CriticalPath.Times(0, 0.0));
    List<StageTime> cycle = List.of(new StageTime(null, null, null, 0, List.of(1), 1000, 1000),
        new StageTime(null, null, null, 1, List.of(0), 2000, 2000));
    assertThat(CriticalPath.of(cycle, 2).criticalPathMs()).isEqualTo(3000);
  }
}
