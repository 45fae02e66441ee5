package org.perflab.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Reference 004 §4.4 tests 3 and 4: recomputation removal, shuffle consolidation and the broadcast filter. */
class TraceFiltersTest {
  private static final long[] NONE = {};

  @Test
  void test3ARecomputedPartitionNeedsWhatARunWithEnoughMemoryNeeded() {
    // With enough memory: X (computed from parents A and B) is written, other data passes, X is read again.
    List<Access> enough = List.of(Access.write("rdd_1_0", 100), Access.write("rdd_1_1", 100),
        Access.write("rdd_2_0", 300), Access.write("rdd_5_0", 400), Access.read("rdd_2_0", 300));
    // Short of memory: the read of X misses, its parents A and B are read again and X is written again.
    List<Access> starved = List.of(Access.write("rdd_1_0", 100), Access.write("rdd_1_1", 100),
        Access.write("rdd_2_0", 300), Access.write("rdd_5_0", 400), Access.miss("rdd_2_0", 300),
        Access.read("rdd_1_0", 100), Access.read("rdd_1_1", 100), Access.write("rdd_2_0", 300));
    List<Access> cleaned = TraceFilters.removeRecomputation(starved);
    assertThat(cleaned).isEqualTo(enough);
    assertThat(StackDistance.analyze(cleaned).noMissBytes()).isEqualTo(700)
        .isEqualTo(StackDistance.analyze(enough).noMissBytes());
    // Left in, the parents' re-reads would ask for the parents to stay cached: a larger cache.
    assertThat(StackDistance.analyze(starved).noMissBytes()).isGreaterThan(700);
  }

  @Test
  void test3NestedRecomputationIsRemovedWithTheOuterRange() {
    List<Access> starved = List.of(Access.write("rdd_1_0", 50), Access.write("rdd_2_0", 60),
        Access.write("rdd_3_0", 70), Access.write("rdd_9_0", 500),
        Access.miss("rdd_3_0", 70), Access.miss("rdd_2_0", 60), Access.read("rdd_1_0", 50),
        Access.write("rdd_2_0", 60), Access.write("rdd_3_0", 70), Access.read("rdd_9_0", 500));
    assertThat(TraceFilters.removeRecomputation(starved)).containsExactly(Access.write("rdd_1_0", 50),
        Access.write("rdd_2_0", 60), Access.write("rdd_3_0", 70), Access.write("rdd_9_0", 500),
        Access.read("rdd_3_0", 70), Access.read("rdd_9_0", 500));
  }

  @Test
  void test3AMissNeverRewrittenRemovesNothingAfterIt() {
    List<Access> trace = List.of(Access.write("rdd_1_0", 5), Access.miss("rdd_1_0", 5), Access.read("rdd_2_0", 7));
    assertThat(TraceFilters.removeRecomputation(trace))
        .containsExactly(Access.write("rdd_1_0", 5), Access.read("rdd_1_0", 5), Access.read("rdd_2_0", 7));
  }

  @Test
  void test4AThousandPartitionShuffleIsOneItemOfItsTotalSize() {
    List<Access> trace = new ArrayList<>();
    for (int map = 0; map < 1000; map++) {
      trace.add(Access.write("shuffle_7_" + map + "_0", 1000 + map));
    }
    for (int reduce = 0; reduce < 1000; reduce++) {
      trace.add(Access.read("shuffle_7_" + reduce + "_" + reduce, 0));
    }
    List<Access> consolidated = TraceFilters.consolidateShuffles(trace);
    long total = 1000L * 1000 + 999L * 1000 / 2;
    assertThat(consolidated).extracting(Access::block).containsOnly("shuffle_7");
    assertThat(consolidated).extracting(Access::bytes).containsOnly(total);
    assertThat(StackDistance.analyze(consolidated).noMissBytes()).isEqualTo(total);
  }

  @Test
  void test4SmallBroadcastsAreDroppedAndTheBroadcastNeedIsNotDividedByWorkers() {
    List<Access> trace = List.of(Access.write("broadcast_0", 4_000), Access.write("broadcast_1", 1 << 20),
        Access.write("rdd_1_0", 1000), Access.read("broadcast_0", 4_000), Access.read("broadcast_1", 1 << 20),
        Access.read("rdd_1_0", 1000));
    assertThat(TraceFilters.dropSmallBroadcasts(trace, TraceFilters.SMALL_BROADCAST_BYTES))
        .extracting(Access::block).doesNotContain("broadcast_0").contains("broadcast_1");
    TraceAnalysis analysis = TraceAnalysis.of(trace, new long[] {1000}, NONE, TraceFilters.SMALL_BROADCAST_BYTES);
    assertThat(analysis.needs().broadcastNoMissBytes()).isEqualTo(1 << 20);
    // With 1 and with 4 workers the broadcast term is the same; the RDD term shrinks.
    WorkerMemory one = WorkerMemory.of(analysis.needs(), 1, 1);
    WorkerMemory four = WorkerMemory.of(analysis.needs(), 4, 1);
    assertThat(one.storageBytes()).isEqualTo((1 << 20) + 1000 + 1000 + 1000);
    assertThat(four.storageBytes()).isEqualTo((1 << 20) + 250 + 1000 + 1000);
  }
}
