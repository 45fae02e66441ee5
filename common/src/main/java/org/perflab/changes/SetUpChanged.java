package org.perflab.changes;

/**
 * A run's set-up that differs from its baseline's, as its log shows it ({@link Attribution#setUpChange}), which made a
 * run at least the pair threshold off its level a change ({@link ChangeKind#KNOWN_CHANGE}, {@link KnownChange}).
 *
 * @param what the differences from the baseline's median run, in words (e.g. {@code spark.cores.max 2 -> 1})
 * @param differing the baseline runs with a profile whose set-up the run's differs from
 * @param runs the baseline runs with a profile
 */
public record SetUpChanged(String what, int differing, int runs) implements Confirmation {
  @Override
  public ChangeKind kind() {
    return ChangeKind.KNOWN_CHANGE;
  }
}
