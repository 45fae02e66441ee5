package org.perflab.changes;

/** How {@link ChangeDetector} found a change (a regression or an improvement). */
public enum ChangeKind {
  /** One run beyond the threshold: a step, or a transient outlier. */
  STEP,
  /** The trend test: the level's latest runs rise (or fall) together, no one of them beyond the threshold. */
  TREND,
  /**
   * The pair test: two runs in a row off the level on the same side, each at least the pair threshold, neither beyond
   * the threshold; a smaller step, which its second run confirms.
   */
  PAIR,
  /**
   * The triple test: three runs in a row off the level on the same side, each at least the triple threshold, neither
   * a pair nor beyond the threshold; a smaller step still, or one whose runs landed low, which its third run confirms.
   */
  TRIPLE,
  /**
   * One run at least the pair threshold off its level, not beyond the threshold, that another measurement of the same
   * run confirms beyond the threshold of its own noise: its tasks waited off the CPU ({@link OffCpuWait}).
   */
  CORROBORATED,
  /**
   * One run at least the pair threshold off its level, not beyond the threshold, whose set-up its log shows changed
   * from its baseline's: configuration, task slots, input size or plan ({@link KnownChange}).
   */
  KNOWN_CHANGE
}
