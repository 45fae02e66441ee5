package org.perflab.memory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.ListIterator;
import java.util.Map;

/**
 * Mattson's LRU stack algorithm, weighted by block size (reference 004 §2.4): one pass over a trace gives, for every
 * non-compulsory read, the smallest LRU cache that keeps the block, and so the cache size with no miss and the miss
 * curve at every size.
 *
 * <p>{@link #analyze} is O(n log n): a Fenwick tree over access times holds each block's size at the time of its last
 * use, so the bytes above a block are the sum over later times. {@link #naive} walks a linked list (quadratic in stack
 * depth); the two give the same profile and the tests compare them.
 *
 * <p>Writes (stored or declined by unrolling) put the block on top with its new size; a read of a block on the stack
 * records its inclusive depth and moves it to the top; a read of a block not on the stack is a compulsory miss: counted,
 * not recorded, and the block is then on top (it is cached once computed).
 *
 * <p>The analysis is exact (equal to an LRU cache simulated at every byte capacity) when a block keeps its size, as a
 * Spark block does; when a rewrite changes a block's size, depths use the current sizes, which an LRU cache that
 * evicted for the old size does not.
 */
public final class StackDistance {
  private StackDistance() {}

  /** The stack profile of {@code trace}, in O(n log n). */
  public static StackProfile analyze(List<Access> trace) {
    Fenwick tree = new Fenwick(trace.size());
    Map<String, long[]> onStack = new HashMap<>(); // block -> {last time, size}
    Recorder out = new Recorder();
    for (int now = 0; now < trace.size(); now++) {
      Access a = trace.get(now);
      long[] entry = onStack.get(a.block());
      if (a.op().isRead() && entry != null) {
        out.read(tree.suffix((int) entry[0]), entry[1]);
      } else if (a.op().isRead()) {
        out.compulsory();
      }
      if (entry != null) {
        tree.add((int) entry[0], -entry[1]);
      }
      long size = a.op().isRead() && entry != null ? entry[1] : a.bytes();
      tree.add(now, size);
      onStack.put(a.block(), new long[] {now, size});
    }
    return out.profile();
  }

  /** The same profile as {@link #analyze}, from a linked list scanned from the top: quadratic, for tests. */
  public static StackProfile naive(List<Access> trace) {
    LinkedList<String> stack = new LinkedList<>();
    Map<String, Long> sizes = new HashMap<>();
    Recorder out = new Recorder();
    for (Access a : trace) {
      boolean present = sizes.containsKey(a.block());
      if (a.op().isRead() && present) {
        long depth = 0;
        ListIterator<String> it = stack.listIterator();
        while (it.hasNext()) {
          String b = it.next();
          depth += sizes.get(b);
          if (b.equals(a.block())) {
            it.remove();
            break;
          }
        }
        out.read(depth, sizes.get(a.block()));
      } else {
        if (a.op().isRead()) {
          out.compulsory();
        }
        stack.remove(a.block());
        sizes.put(a.block(), a.bytes());
      }
      stack.addFirst(a.block());
    }
    return out.profile();
  }

  /** Collects the depths and sizes of the reads. */
  private static final class Recorder {
    private final List<long[]> reads = new ArrayList<>();
    private int compulsory;

    void read(long depth, long bytes) {
      reads.add(new long[] {depth, bytes});
    }

    void compulsory() {
      compulsory++;
    }

    StackProfile profile() {
      long[] depth = new long[reads.size()];
      long[] bytes = new long[reads.size()];
      for (int i = 0; i < depth.length; i++) {
        depth[i] = reads.get(i)[0];
        bytes[i] = reads.get(i)[1];
      }
      return new StackProfile(depth, bytes, compulsory);
    }
  }

  /** A Fenwick (binary indexed) tree of longs over positions 0..n-1. */
  private static final class Fenwick {
    private final long[] tree;
    private long total;

    Fenwick(int n) {
      tree = new long[n + 1];
    }

    void add(int position, long delta) {
      total += delta;
      for (int i = position + 1; i < tree.length; i += i & -i) {
        tree[i] += delta;
      }
    }

    /** The sum over positions {@code position} and later. */
    long suffix(int position) {
      long prefix = 0;
      for (int i = position; i > 0; i -= i & -i) {
        prefix += tree[i];
      }
      return total - prefix;
    }
  }
}
