package org.perflab.jobs.nightly;

import java.util.List;
import java.util.function.Function;

/**
 * One step of the nightly pipeline: a PerfLab job, the earlier steps whose tables it reads, and its options.
 *
 * @param job the job's name, as {@code perflab <job>} takes it
 * @param dependsOn the steps of the same night that write what this step reads; when one of them fails, directly or
 *     through another step, this step is skipped
 * @param options the job's options in the night, from the night's options (what follows {@code perflab <job>})
 * @param whenUnchanged what the step does in a night whose inputs are those the last complete night left
 */
public record Step(String job, List<String> dependsOn, Function<NightOptions, List<String>> options,
    WhenUnchanged whenUnchanged) {
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
  }

  /** A step that skips when its inputs are unchanged. */
  public Step(String job, List<String> dependsOn, Function<NightOptions, List<String>> options) {
    this(job, dependsOn, options, WhenUnchanged.SKIPS);
  }

  /** The job's command line in the night {@code night}: its name, then its options. */
  public List<String> arguments(NightOptions night) {
    return java.util.stream.Stream.concat(java.util.stream.Stream.of(job), options.apply(night).stream()).toList();
  }
}
