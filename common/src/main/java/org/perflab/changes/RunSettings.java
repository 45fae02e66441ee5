package org.perflab.changes;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What a run was told to do, without what it measured: its effective Spark properties (the Spark version under
 * {@link RunProfile#SPARK_VERSION}) and the fingerprint of its SQL physical plans. Two runs of a workload with the
 * same settings ran the same code the same way; what differs between them is what changed, whether or not the run
 * got slower.
 *
 * @param properties effective Spark properties, redacted
 * @param planFingerprint a hash of the normalised SQL physical plans, empty without SQL
 * @param joins join operators by name (e.g. {@code SortMergeJoin -> 2})
 */
public record RunSettings(Map<String, String> properties, String planFingerprint, Map<String, Long> joins) {
  public RunSettings {
    properties = Map.copyOf(properties);
    joins = Map.copyOf(joins);
  }

  /** The settings of a profiled run. */
  public static RunSettings of(RunProfile profile) {
    return new RunSettings(profile.properties(), profile.planFingerprint(), profile.joins());
  }

  /**
   * What changed from {@code earlier} to this run, one line each: every property Spark reads differently
   * ({@link PropertyChange#between}, {@link PropertyChange#describe}: "spark.sql.shuffle.partitions 200 -> 400"), the
   * weightiest first ({@link PropertyChange#HEADLINE}: the Spark version, the master, slots, memory, the plan's
   * settings, partitions, shuffle, the rest; a night's summary shows the first), then
   * "SQL plan changed" when both runs have SQL plans and their fingerprints differ, with the join operators when they
   * differ ("SQL plan changed: joins BroadcastHashJoin 1 -> SortMergeJoin 1"). Empty when nothing changed.
   */
  public List<String> changesSince(RunSettings earlier) {
    List<String> out = new ArrayList<>(PropertyChange.between(earlier.properties, properties).stream()
        .sorted(PropertyChange.HEADLINE).map(PropertyChange::describe).toList());
    if (planChangedSince(earlier)) {
      out.add(earlier.joins.equals(joins) ? "SQL plan changed"
          : "SQL plan changed: joins " + joins(earlier.joins) + " -> " + joins(joins));
    }
    return out;
  }

  /** Whether both runs have SQL plans and their fingerprints differ. */
  public boolean planChangedSince(RunSettings earlier) {
    return !earlier.planFingerprint.isEmpty() && !planFingerprint.isEmpty()
        && !earlier.planFingerprint.equals(planFingerprint);
  }

  /**
   * The SQL plans in short, "joins SortMergeJoin 2; plan 3f2a9c1e0b4d5a6f" (the join operators, "none" without a
   * join, then the fingerprint), so that two runs' plans read the same exactly when they are; null without SQL.
   */
  public String planShown() {
    return planFingerprint.isEmpty() ? null : "joins " + joins(joins) + "; plan " + planFingerprint;
  }

  private static String joins(Map<String, Long> joins) {
    return joins.isEmpty() ? "none" : new java.util.TreeMap<>(joins).entrySet().stream()
        .map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", "));
  }
}
