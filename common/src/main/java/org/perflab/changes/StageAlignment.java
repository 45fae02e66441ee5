package org.perflab.changes;

import java.util.List;
import java.util.Optional;

/**
 * Two runs' stages aligned by {@link StageMatcher}: pairs in run order, stages only the first run had
 * ({@link #removed}), stages only the second run has ({@link #added}).
 *
 * @param pairs every stage of either run in the second run's order: a matched pair, or one side empty
 */
public record StageAlignment(List<Pair> pairs) {
  /** A matched pair ({@code before} and {@code after} both present), a removed or an added stage. */
  public record Pair(Optional<StageRef> before, Optional<StageRef> after) {
    /** Both runs have the stage. */
    public boolean matched() {
      return before.isPresent() && after.isPresent();
    }
  }

  public StageAlignment {
    pairs = List.copyOf(pairs);
  }

  /** The stages both runs have, as (before, after) pairs, in run order. */
  public List<Pair> matched() {
    return pairs.stream().filter(Pair::matched).toList();
  }

  /** Stages of the second run that the first did not have. */
  public List<StageRef> added() {
    return pairs.stream().filter(p -> p.before().isEmpty()).map(p -> p.after().orElseThrow()).toList();
  }

  /** Stages of the first run that the second no longer has. */
  public List<StageRef> removed() {
    return pairs.stream().filter(p -> p.after().isEmpty()).map(p -> p.before().orElseThrow()).toList();
  }
}
