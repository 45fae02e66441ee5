package org.perflab.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.perflab.memory.LineageTrace.RddNode;
import org.perflab.memory.LineageTrace.StageLineage;
import org.perflab.memory.LineageTrace.TaskRun;

/** Tier A: the ideal trace from the lineage of an iterative job that caches its input, and one with a coalesce. */
class LineageTraceTest {

  /** Stage 0 reads a file (rdd 0), maps it (rdd 1, cached: 4 partitions, 4000 bytes) and shuffles. */
  private static final RddNode FILE = new RddNode(0, List.of(), 4, 0, false, 0, 0);
  private static final RddNode CACHED = new RddNode(1, List.of(0), 4, 4, true, 4000, 0);
  private static final RddNode MAPPED = new RddNode(2, List.of(1), 4, 0, false, 0, 0);

  @Test
  void theFirstPassWritesTheCachedPartitionsAndLaterPassesReadThem() {
    List<StageLineage> stages = new ArrayList<>();
    List<TaskRun> tasks = new ArrayList<>();
    for (int iteration = 0; iteration < 3; iteration++) {
      stages.add(new StageLineage(iteration, List.of(), List.of(FILE, CACHED, MAPPED)));
      for (int p = 0; p < 4; p++) {
        tasks.add(new TaskRun(iteration, p, iteration * 4L + p, 1000L * iteration + p, 100 + p, 0, 0));
      }
    }
    LineageTrace.Synthesis s = LineageTrace.of(stages, tasks);
    assertThat(s.accesses()).hasSize(12);
    assertThat(s.accesses().subList(0, 4)).containsExactly(Access.write("rdd_1_0", 1000),
        Access.write("rdd_1_1", 1000), Access.write("rdd_1_2", 1000), Access.write("rdd_1_3", 1000));
    assertThat(s.accesses().subList(4, 12)).allMatch(a -> a.op() == Access.Op.READ);
    assertThat(s.partitionBytes()).containsOnly(1000);
    assertThat(s.taskExecutionBytes()).hasSize(12).contains(103L);
    TraceAnalysis analysis = TraceAnalysis.of(s.accesses(), s.partitionBytes(), s.taskExecutionBytes(),
        TraceFilters.SMALL_BROADCAST_BYTES);
    assertThat(analysis.needs().rddNoMissBytes()).isEqualTo(4000);
    assertThat(analysis.rdd().missBytes(3000)).isEqualTo(8000);
    assertThat(s.unknownShapes()).isZero();
    assertThat(s.unsizedRdds()).isZero();
  }

  @Test
  void aShuffleIsWrittenByMapTasksAndReadByTheChildStage() {
    StageLineage map = new StageLineage(0, List.of(), List.of(FILE, new RddNode(2, List.of(0), 4, 0, false, 0, 0)));
    StageLineage reduce = new StageLineage(1, List.of(0), List.of(new RddNode(5, List.of(), 2, 0, false, 0, 0)));
    List<TaskRun> tasks = List.of(new TaskRun(0, 0, 0, 0, 0, 0, 700), new TaskRun(0, 1, 1, 1, 0, 0, 300),
        new TaskRun(1, 0, 2, 5, 40, 60, 0), new TaskRun(1, 1, 3, 6, 10, 0, 0));
    LineageTrace.Synthesis s = LineageTrace.of(List.of(map, reduce), tasks);
    TraceAnalysis analysis = TraceAnalysis.of(s.accesses(), s.partitionBytes(), s.taskExecutionBytes(),
        TraceFilters.SMALL_BROADCAST_BYTES);
    assertThat(analysis.needs().shuffleNoMissBytes()).isEqualTo(1000);
    assertThat(s.taskExecutionBytes()).containsExactly(0, 0, 100, 10);
    assertThat(analysis.needs().rddNoMissBytes()).isZero();
  }

  @Test
  void aCoalesceReadsTheWholeCachedParentAndIsCounted() {
    RddNode coalesced = new RddNode(3, List.of(1), 2, 0, false, 0, 0);
    List<StageLineage> stages = List.of(new StageLineage(0, List.of(), List.of(FILE, CACHED)),
        new StageLineage(1, List.of(), List.of(FILE, CACHED, coalesced)));
    List<TaskRun> tasks = new ArrayList<>();
    for (int p = 0; p < 4; p++) {
      tasks.add(new TaskRun(0, p, p, p, 0, 0, 0));
    }
    tasks.add(new TaskRun(1, 0, 10, 100, 0, 0, 0));
    LineageTrace.Synthesis s = LineageTrace.of(stages, tasks);
    assertThat(s.unknownShapes()).isEqualTo(1);
    assertThat(s.accesses().subList(4, 8)).extracting(Access::block)
        .containsExactly("rdd_1_0", "rdd_1_1", "rdd_1_2", "rdd_1_3");
  }

  @Test
  void aPersistedRddNeverSeenCachedIsUnsized() {
    RddNode neverCached = new RddNode(1, List.of(0), 2, 0, true, 0, 0);
    LineageTrace.Synthesis s = LineageTrace.of(List.of(new StageLineage(0, List.of(), List.of(FILE, neverCached))),
        List.of(new TaskRun(0, 0, 0, 0, 0, 0, 0)));
    assertThat(s.unsizedRdds()).isEqualTo(1);
    assertThat(s.accesses()).containsExactly(Access.write("rdd_1_0", 0));
  }
}
