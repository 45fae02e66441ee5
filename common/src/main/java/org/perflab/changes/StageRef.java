package org.perflab.changes;

import java.io.Serializable;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * One stage of one run, as {@link StageMatcher} sees it: where it sits in the run and what it is called.
 *
 * @param stageId Spark's stage id in its run (ids are not comparable across runs)
 * @param jobOrdinal the position of the stage's job among the run's jobs, 0 for the first; -1 when unknown
 * @param name the stage name (call site), e.g. {@code "save at Sort.scala:42"}; null when not logged
 */
public record StageRef(int stageId, int jobOrdinal, String name) implements Serializable {
  /** The name without line numbers, ids and case: what stays the same when the code around it is recompiled. */
  public String normalisedName() {
    return StageMatcher.normalise(name);
  }

  /**
   * The {@link #jobOrdinal} of each of a run's job ids: its position among the run's distinct job ids in ascending
   * order, 0 for the first. Nulls are ignored (a stage without a job has ordinal -1).
   */
  public static Map<Integer, Integer> jobOrdinals(Collection<Integer> jobIds) {
    Map<Integer, Integer> ordinals = new HashMap<>();
    for (Integer job : new TreeSet<>(jobIds.stream().filter(Objects::nonNull).toList())) {
      ordinals.put(job, ordinals.size());
    }
    return ordinals;
  }
}
