package org.perflab.spark.changes;

/** How a stage of one compared run relates to the other run's stages ({@code org.perflab.changes.StageMatcher}). */
public enum StageMatch {
  /** Both runs have the stage. */
  MATCHED,
  /** Only run B has it. */
  ADDED,
  /** Only run A has it. */
  REMOVED
}
