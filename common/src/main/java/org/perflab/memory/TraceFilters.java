package org.perflab.memory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The preprocessing of reference 004 §2.4 that turns a recorded trace into the trace of a run with enough memory:
 * recomputation removal, shuffle consolidation and the small-broadcast filter.
 */
public final class TraceFilters {
  /** Reference 004's small-broadcast threshold, bytes: broadcasts under 32 KB (task binaries) are dropped. */
  public static final long SMALL_BROADCAST_BYTES = 32L * 1024;

  private TraceFilters() {}

  /**
   * Removes recomputation: "every access starting after an unsuccessful read until a following write (successful or
   * not) of the same partition is part of the recomputation". The miss itself stays, as the hit it would have been; the
   * terminating write goes too (it only moves the block to the top again, where the read already put it). Nested
   * recomputation falls inside the outer range. A miss never followed by a write of its block removes nothing.
   */
  public static List<Access> removeRecomputation(List<Access> trace) {
    Map<String, Integer> nextWrite = nextWrites(trace);
    List<Access> kept = new ArrayList<>(trace.size());
    int skipUntil = -1;
    for (int i = 0; i < trace.size(); i++) {
      Access a = trace.get(i);
      if (i <= skipUntil) {
        continue;
      }
      if (a.op() == Access.Op.MISS) {
        kept.add(Access.read(a.block(), a.bytes()));
        Integer end = nextWrite.get(i + ":" + a.block());
        skipUntil = end == null ? -1 : end;
      } else {
        kept.add(a);
      }
    }
    return kept;
  }

  /** For each miss, keyed "index:block", the index of the next write of that block. */
  private static Map<String, Integer> nextWrites(List<Access> trace) {
    Map<String, Integer> result = new HashMap<>();
    Map<String, Integer> laterWrite = new HashMap<>();
    for (int i = trace.size() - 1; i >= 0; i--) {
      Access a = trace.get(i);
      if (a.op() == Access.Op.MISS && laterWrite.containsKey(a.block())) {
        result.put(i + ":" + a.block(), laterWrite.get(a.block()));
      } else if (!a.op().isRead()) {
        laterWrite.put(a.block(), i);
      }
    }
    return result;
  }

  /**
   * Consolidates shuffles: every access to a piece {@code shuffle_<id>_...} becomes an access to {@code shuffle_<id>},
   * whose size is the sum over the shuffle's distinct pieces of their largest size (the whole shuffle's bytes). Other
   * blocks are unchanged.
   */
  public static List<Access> consolidateShuffles(List<Access> trace) {
    Map<String, Map<String, Long>> pieces = new LinkedHashMap<>();
    for (Access a : trace) {
      if (a.domain() == Domain.SHUFFLE) {
        pieces.computeIfAbsent(shuffleOf(a.block()), k -> new HashMap<>()).merge(a.block(), a.bytes(), Math::max);
      }
    }
    Map<String, Long> totals = new HashMap<>();
    pieces.forEach((shuffle, sizes) -> totals.put(shuffle, sizes.values().stream().mapToLong(Long::longValue).sum()));
    List<Access> out = new ArrayList<>(trace.size());
    for (Access a : trace) {
      if (a.domain() == Domain.SHUFFLE) {
        String shuffle = shuffleOf(a.block());
        out.add(new Access(a.op(), shuffle, totals.get(shuffle)));
      } else {
        out.add(a);
      }
    }
    return out;
  }

  /** {@code shuffle_<id>} of a shuffle block name {@code shuffle_<id>[_...]}. */
  static String shuffleOf(String block) {
    int start = Domain.SHUFFLE.prefix().length();
    int end = block.indexOf('_', start);
    return end < 0 ? block : block.substring(0, end);
  }

  /** Drops the accesses to broadcasts smaller than {@code thresholdBytes} (reference 004: 32 KB). */
  public static List<Access> dropSmallBroadcasts(List<Access> trace, long thresholdBytes) {
    return trace.stream().filter(a -> a.domain() != Domain.BROADCAST || a.bytes() >= thresholdBytes).toList();
  }

  /** The accesses of one domain, in trace order. */
  public static List<Access> only(List<Access> trace, Domain domain) {
    return trace.stream().filter(a -> a.domain() == domain).toList();
  }
}
