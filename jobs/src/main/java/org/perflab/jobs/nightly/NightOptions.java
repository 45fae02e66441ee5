package org.perflab.jobs.nightly;

import java.util.List;
import java.util.Set;

/**
 * The options of one night.
 *
 * @param archives the event-log archives ingest reads (paths or globs on any Hadoop file system)
 * @param output the output root every step reads and writes
 * @param full re-ingest every log and recompute every incremental table (default: incremental)
 * @param jobs the steps to run; empty for every step of the pipeline
 * @param concurrentSteps how many steps may run at the same time (at least 1), each in a thread of its own; steps run
 *     together only when neither reads or writes what the other writes ({@link Pipeline#runsAfter})
 */
public record NightOptions(List<String> archives, String output, boolean full, Set<String> jobs,
    int concurrentSteps) {
  public NightOptions {
    archives = List.copyOf(archives);
    jobs = Set.copyOf(jobs);
    if (concurrentSteps < 1) {
      throw new IllegalArgumentException("Cannot run the night's steps: at least one must run at a time ("
          + concurrentSteps + ")");
    }
  }

  /** A night that runs its steps one at a time. */
  public NightOptions(List<String> archives, String output, boolean full, Set<String> jobs) {
    this(archives, output, full, jobs, 1);
  }

  /** Whether the night runs step {@code job}. */
  public boolean runs(String job) {
    return jobs.isEmpty() || jobs.contains(job);
  }
}
