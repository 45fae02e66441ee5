package org.perflab.jobs.nightly;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the last complete night left behind: a night that ran every step of the pipeline and in which every step exited
 * 0. A later night's step whose inputs cannot have changed since (the same build, the same options, every table of
 * the output root at the version that night left it) may skip ({@link Night}).
 *
 * @param runId the complete night's run id
 * @param build the PerfLab build that ran it ({@code version (git commit)}): a new build may compute other rows
 * @param arguments each step's command line in that night, by job
 * @param versions the version of the latest commit that changed rows ({@link TableWrites#contentVersions()}) of every
 *     table under the output root when the night ended, by table name, {@code nightly_runs} aside (every night
 *     appends to it)
 */
public record NightState(String runId, String build, Map<String, List<String>> arguments, Map<String, Long> versions) {
  /** The table every night appends to, so never part of a night's inputs. */
  public static final String NIGHTLY_RUNS = "nightly_runs";

  public NightState {
    arguments = Map.copyOf(arguments);
    versions = Map.copyOf(versions);
  }

  /** {@code versions} without {@link #NIGHTLY_RUNS}: the tables whose versions say whether a step's inputs changed. */
  public static Map<String, Long> inputs(Map<String, Long> versions) {
    Map<String, Long> inputs = new TreeMap<>(versions);
    inputs.remove(NIGHTLY_RUNS);
    return inputs;
  }

  /**
   * Why {@code step} must run although this state exists, or null when it may skip: its command line now is
   * {@code arguments}, the build is {@code build}, and the root's tables are at {@code versionsNow}.
   */
  String whyRun(String step, List<String> arguments, String build, Map<String, Long> versionsNow) {
    if (!this.build.equals(build)) {
      return "another build (" + this.build + " then, " + build + " now)";
    }
    if (!arguments.equals(this.arguments.get(step))) {
      return "other options than in night " + runId;
    }
    Map<String, Long> now = inputs(versionsNow);
    if (!now.equals(versions)) {
      return changedTables(now) + " changed since night " + runId;
    }
    return null;
  }

  private String changedTables(Map<String, Long> now) {
    TreeMap<String, Long> all = new TreeMap<>(versions);
    now.forEach(all::putIfAbsent);
    List<String> changed = all.keySet().stream()
        .filter(table -> !java.util.Objects.equals(versions.get(table), now.get(table))).toList();
    return changed.size() <= 3 ? String.join(", ", changed) : changed.size() + " tables";
  }
}
