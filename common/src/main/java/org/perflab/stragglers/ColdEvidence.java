package org.perflab.stragglers;

/**
 * Whether the straggler was among its executor's first tasks, and how the first tasks of its stage ran against the
 * stage's tasks on executors already warm ({@link BigRoots#coldExecutor}). A task is <em>cold</em> when it was launched
 * before its executor finished any successful task of the application: it shares the executor's warm-up (JVM class
 * loading and JIT compilation, Python workers forked, jars, broadcast variables and shuffle connections fetched).
 *
 * @param cold whether the straggler is cold
 * @param warmTasks the stage's tasks that are not cold
 * @param warmMedianMs their median duration, ms; NaN without any
 * @param otherColdTasks the stage's other cold tasks
 * @param otherColdSlowness their geometric mean duration ÷ {@code warmMedianMs}; NaN without any
 */
public record ColdEvidence(boolean cold, long warmTasks, double warmMedianMs, long otherColdTasks,
    double otherColdSlowness) {
  /** Not cold, or nothing known of its executor. */
  public static final ColdEvidence NONE = new ColdEvidence(false, 0, Double.NaN, 0, Double.NaN);

  /**
   * The evidence from its stage's sums: {@code coldTasks} cold tasks (the straggler's own included when it is cold)
   * whose natural logarithms of duration in ms sum to {@code coldLogSum}; the straggler's own duration {@code ownMs}.
   */
  public static ColdEvidence fromLogs(boolean cold, long warmTasks, double warmMedianMs, long coldTasks,
      double coldLogSum, double ownMs) {
    long others = cold ? coldTasks - 1 : coldTasks;
    double othersLogSum = cold ? coldLogSum - Math.log(ownMs) : coldLogSum;
    double slowness = others <= 0 || !(warmMedianMs > 0) || Double.isNaN(othersLogSum) ? Double.NaN
        : Math.exp(othersLogSum / others - Math.log(warmMedianMs));
    return new ColdEvidence(cold, warmTasks, warmMedianMs, Math.max(0, others), slowness);
  }
}
