package org.perflab.changes;

/**
 * One difference between a run and its baseline, with the seconds of extra wall time it explains.
 *
 * @param kind what kind of difference
 * @param what the difference in a few words, e.g. {@code "spark.executor.instances 4 -> 2"}
 * @param seconds the extra wall time it explains, in seconds (at most the run's extra time)
 * @param evidence the numbers behind it, e.g. {@code "cores 8 -> 4; task time 310 s"}
 * @param action what to do: the {@code --conf} to restore, or the finding rule to read; empty when none
 */
public record RegressionCause(CauseKind kind, String what, double seconds, String evidence, String action) {}
