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
 */
public record NightOptions(List<String> archives, String output, boolean full, Set<String> jobs) {
  public NightOptions {
    archives = List.copyOf(archives);
    jobs = Set.copyOf(jobs);
  }

  /** Whether the night runs step {@code job}. */
  public boolean runs(String job) {
    return jobs.isEmpty() || jobs.contains(job);
  }
}
