package org.perflab.errors;

import java.util.Set;

/**
 * How a message names what a job does, after "Cannot ": a job named by a verb as it is ("Cannot ingest: ..."), the
 * others as "run <job>" ("Cannot run features: ..."), and a phrase (words with a space, "fit scaling laws") as it is.
 * One rule for every message of every job, whichever check raised it.
 */
public final class Actions {
  /** The jobs whose names are verbs. */
  private static final Set<String> VERBS = Set.of("ingest", "model", "simulate", "sweep", "diagnose", "cluster",
      "regress", "evaluate", "recommend", "compare", "maintain", "report");

  private Actions() {}

  /** The action of {@code jobOrAction}: a job's name as its messages say it, or a phrase unchanged. */
  public static String of(String jobOrAction) {
    if (jobOrAction.contains(" ") || VERBS.contains(jobOrAction)) {
      return jobOrAction;
    }
    return "run " + jobOrAction;
  }
}
