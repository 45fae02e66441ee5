package org.perflab.memory;

import java.util.List;

/**
 * A trace's stack analysis per cache (reference 004 §2.4): recomputation removed, shuffles consolidated, small
 * broadcasts dropped, then one LRU stack analysis for each of the RDD, broadcast and shuffle (page-cache) domains.
 *
 * @param rdd the RDD cache's profile
 * @param broadcast the broadcast cache's profile
 * @param shuffle the page cache's profile over whole shuffles
 * @param needs the framework needs these give, with the partition and execution sizes passed in
 */
public record TraceAnalysis(StackProfile rdd, StackProfile broadcast, StackProfile shuffle, FrameworkNeeds needs) {

  /**
   * Analyses {@code trace}.
   *
   * @param partitionBytes every RDD partition's size, stored or not, bytes
   * @param taskExecutionBytes each task's execution need, bytes
   * @param smallBroadcastBytes broadcasts under this many bytes are dropped ({@link TraceFilters#SMALL_BROADCAST_BYTES})
   */
  public static TraceAnalysis of(List<Access> trace, long[] partitionBytes, long[] taskExecutionBytes,
      long smallBroadcastBytes) {
    List<Access> ideal = TraceFilters.dropSmallBroadcasts(
        TraceFilters.consolidateShuffles(TraceFilters.removeRecomputation(trace)), smallBroadcastBytes);
    StackProfile rdd = StackDistance.analyze(TraceFilters.only(ideal, Domain.RDD));
    StackProfile broadcast = StackDistance.analyze(TraceFilters.only(ideal, Domain.BROADCAST));
    StackProfile shuffle = StackDistance.analyze(TraceFilters.only(ideal, Domain.SHUFFLE));
    FrameworkNeeds needs = new FrameworkNeeds(rdd.noMissBytes(), broadcast.noMissBytes(), shuffle.noMissBytes(),
        partitionBytes, taskExecutionBytes);
    return new TraceAnalysis(rdd, broadcast, shuffle, needs);
  }
}
