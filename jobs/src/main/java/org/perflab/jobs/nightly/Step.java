package org.perflab.jobs.nightly;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * One step of the nightly pipeline: a PerfLab job, the earlier steps whose tables it reads, the tables it may read and
 * write, and its options.
 *
 * @param job the job's name, as {@code perflab <job>} takes it
 * @param dependsOn the steps of the same night that write what this step reads; when one of them fails, directly or
 *     through another step, this step is skipped
 * @param reads every table under the output root the job may read, on any path through its code (by directory name;
 *     {@link #EVERY_TABLE} for all of them); the night never runs it beside a step that writes one of them
 * @param writes every table under the output root the job may commit to; the night never runs it beside a step that
 *     reads or writes one of them, and counts its rows written in these tables only
 * @param options the job's options in the night, from the night's options (what follows {@code perflab <job>})
 * @param whenUnchanged what the step does in a night whose inputs are those the last complete night left
 */
public record Step(String job, List<String> dependsOn, Set<String> reads, Set<String> writes,
    Function<NightOptions, List<String>> options, WhenUnchanged whenUnchanged) {
  /** In {@link #reads} or {@link #writes}: every table under the output root. */
  public static final String EVERY_TABLE = "*";

  /** What a step does when nothing it could read changed since the last complete night ({@link NightState}). */
  public enum WhenUnchanged {
    /** It skips: run again on the same tables, it would write the same rows. */
    SKIPS,
    /**
     * It runs: it reads what lies outside the output root's tables (ingest, the archive), depends on the clock
     * (maintain's retention), or shows the night itself (report, {@code nightly_runs}).
     */
    RUNS
  }

  public Step {
    dependsOn = List.copyOf(dependsOn);
    reads = Set.copyOf(reads);
    writes = Set.copyOf(writes);
  }

  /** A step that skips when its inputs are unchanged. */
  public Step(String job, List<String> dependsOn, Set<String> reads, Set<String> writes,
      Function<NightOptions, List<String>> options) {
    this(job, dependsOn, reads, writes, options, WhenUnchanged.SKIPS);
  }

  /** The job's command line in the night {@code night}: its name, then its options. */
  public List<String> arguments(NightOptions night) {
    return java.util.stream.Stream.concat(java.util.stream.Stream.of(job), options.apply(night).stream()).toList();
  }

  /**
   * Whether this step and {@code other} may not run at the same time: one writes a table the other reads or writes.
   * Steps that only read the same tables may.
   */
  public boolean conflictsWith(Step other) {
    return meet(writes, other.reads) || meet(reads, other.writes) || meet(writes, other.writes);
  }

  /** Whether this step may commit to {@code table}. */
  public boolean mayWrite(String table) {
    return writes.contains(EVERY_TABLE) || writes.contains(table);
  }

  private static boolean meet(Collection<String> a, Collection<String> b) {
    if (a.isEmpty() || b.isEmpty()) {
      return false;
    }
    return a.contains(EVERY_TABLE) || b.contains(EVERY_TABLE) || a.stream().anyMatch(b::contains);
  }
}
