package org.perflab.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Reference 004 §4.4 tests 1 and 2: the stack analysis against an exact byte-capacity LRU cache simulated at every
 * capacity, and the O(n log n) analysis against the naive linked list.
 */
class StackDistanceTest {

  @Test
  void test1NoMissSizeAndMissCurveMatchAnLruCacheAtEveryCapacity() {
    Random random = new Random(4);
    for (int round = 0; round < 40; round++) {
      List<Access> trace = randomTrace(random, 120, 12);
      StackProfile profile = StackDistance.analyze(trace);
      long noMiss = profile.noMissBytes();
      assertThat(new Lru(noMiss).missBytes(trace)).as("no miss at the no-miss size").isZero();
      if (noMiss > 0) {
        assertThat(new Lru(noMiss - 1).missBytes(trace)).as("a miss one byte below").isPositive();
      }
      for (long capacity : capacities(trace, noMiss)) {
        assertThat(profile.missBytes(capacity)).as("miss bytes at %d", capacity)
            .isEqualTo(new Lru(capacity).missBytes(trace));
      }
    }
  }

  @Test
  void test1ACyclicScanLargerThanTheCacheMissesEveryRead() {
    List<Access> scan = new ArrayList<>();
    for (int pass = 0; pass < 3; pass++) {
      for (int p = 0; p < 10; p++) {
        scan.add(pass == 0 ? Access.write("rdd_1_" + p, 100) : Access.read("rdd_1_" + p, 100));
      }
    }
    StackProfile profile = StackDistance.analyze(scan);
    assertThat(profile.noMissBytes()).isEqualTo(1000);
    // LRU's worst case: one partition short of the whole scan, every re-read misses.
    assertThat(profile.missBytes(999)).isEqualTo(2000).isEqualTo(new Lru(999).missBytes(scan));
    assertThat(profile.missBytes(1000)).isZero();
  }

  @Test
  void test2TheFenwickAnalysisEqualsTheNaiveOneOnRandomAndGroupedTraces() {
    Random random = new Random(7);
    for (int round = 0; round < 20; round++) {
      List<Access> trace = randomTrace(random, 300, 30);
      assertThat(StackDistance.analyze(trace)).isEqualTo(StackDistance.naive(trace));
    }
    List<Access> grouped = sparkLikeTrace(5, 200);
    assertThat(StackDistance.analyze(grouped)).isEqualTo(StackDistance.naive(grouped));
  }

  @Test
  void test2TensOfThousandsOfPartitionsAreAnalysedQuickly() {
    List<Access> trace = sparkLikeTrace(10, 30_000);
    long start = System.nanoTime();
    StackProfile profile = StackDistance.analyze(trace);
    long ms = (System.nanoTime() - start) / 1_000_000;
    // Each pass re-reads the whole cached RDD: the no-miss size is all its partitions.
    assertThat(profile.noMissBytes()).isEqualTo(30_000L * 1000);
    assertThat(profile.reads()).isEqualTo(9 * 30_000);
    assertThat(ms).as("300k accesses in ms").isLessThan(5_000);
  }

  /** Iterations over one cached RDD of {@code partitions} partitions of 1000 bytes, in partition order. */
  private static List<Access> sparkLikeTrace(int iterations, int partitions) {
    List<Access> trace = new ArrayList<>();
    for (int i = 0; i < iterations; i++) {
      for (int p = 0; p < partitions; p++) {
        trace.add(i == 0 ? Access.write("rdd_3_" + p, 1000) : Access.read("rdd_3_" + p, 1000));
      }
    }
    return trace;
  }

  /**
   * Random reads and writes of {@code blocks} blocks of mixed sizes, each block keeping its size (as a Spark block
   * does: a rewrite is a recomputation of the same data).
   */
  static List<Access> randomTrace(Random random, int length, int blocks) {
    long[] sizes = random.longs(blocks, 1, 500).toArray();
    List<Access> trace = new ArrayList<>();
    for (int i = 0; i < length; i++) {
      int b = random.nextInt(blocks);
      String block = "rdd_0_" + b;
      long bytes = sizes[b];
      trace.add(random.nextInt(3) == 0 ? Access.write(block, bytes) : Access.read(block, bytes));
    }
    return trace;
  }

  /** Every depth the profile could break at, and its neighbours. */
  private static TreeSet<Long> capacities(List<Access> trace, long noMiss) {
    TreeSet<Long> out = new TreeSet<>(List.of(0L, noMiss, noMiss + 1));
    for (long c = 0; c <= noMiss; c += Math.max(1, noMiss / 50)) {
      out.add(c);
    }
    StackProfile p = StackDistance.naive(trace);
    for (long d : p.required()) {
      out.add(d);
      out.add(d - 1);
    }
    out.removeIf(c -> c < 0);
    return out;
  }

  /**
   * An exact LRU cache of a byte capacity: a read hits when the block is cached; a block put in goes on top and the
   * least recently used blocks go until the rest fit (the new block too, when it alone exceeds the capacity).
   */
  static final class Lru {
    private final long capacity;
    private final LinkedHashMap<String, Long> cache = new LinkedHashMap<>(16, 0.75f, true);
    private final Map<String, Long> seen = new LinkedHashMap<>();
    private long used;

    Lru(long capacity) {
      this.capacity = capacity;
    }

    /** The bytes of the non-compulsory reads that miss, over the trace. */
    long missBytes(List<Access> trace) {
      long missed = 0;
      for (Access a : trace) {
        Long known = seen.get(a.block());
        if (a.op().isRead() && known != null) {
          if (cache.get(a.block()) == null) {
            missed += known;
          }
          put(a.block(), known);
        } else {
          put(a.block(), a.bytes());
          seen.put(a.block(), a.bytes());
        }
      }
      return missed;
    }

    private void put(String block, long bytes) {
      Long old = cache.remove(block);
      used -= old == null ? 0 : old;
      cache.put(block, bytes);
      used += bytes;
      while (used > capacity) {
        String eldest = cache.keySet().iterator().next();
        used -= cache.remove(eldest);
      }
    }
  }
}
