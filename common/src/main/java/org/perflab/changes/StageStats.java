package org.perflab.changes;

/**
 * One stage attempt's measurements, for {@link Attribution} and {@code compare}. Times in seconds, sizes in bytes.
 *
 * @param ref the stage's place and name, for {@link StageMatcher}
 * @param attempt the stage attempt (above 0: a retry)
 * @param tasks task attempts
 * @param failedTasks failed task attempts
 * @param durationS submission to completion
 * @param taskTimeS Σ executor run time of its tasks
 * @param cpuS Σ executor CPU time
 * @param gcS Σ JVM GC time
 * @param fetchWaitS Σ shuffle fetch wait time
 * @param shuffleWriteS Σ shuffle write time
 * @param inputBytes Σ input bytes
 * @param shuffleReadBytes Σ shuffle bytes read
 * @param shuffleWriteBytes Σ shuffle bytes written
 * @param spillBytes Σ disk bytes spilled
 * @param maxOverMedian the longest task ÷ the median task (skew); NaN when unknown
 * @param slowHostS the largest excess over the stage's median task duration of its stragglers that ran on a slow host
 *     ({@code SLOW_HOST}: the host's other tasks of the application ran slow too), s; 0 when none or not diagnosed
 * @param slowHost the host of that straggler; null when none
 * @param coldS the largest excess over the stage's median task duration of its stragglers that ran among their
 *     executor's first tasks ({@code COLD_EXECUTOR}: launched before the executor had finished any task, and the
 *     stage's warm tasks ran faster), s; 0 when none or not diagnosed
 */
public record StageStats(StageRef ref, int attempt, long tasks, long failedTasks, double durationS, double taskTimeS,
    double cpuS, double gcS, double fetchWaitS, double shuffleWriteS, long inputBytes, long shuffleReadBytes,
    long shuffleWriteBytes, long spillBytes, double maxOverMedian, double slowHostS, String slowHost, double coldS) {

  /** A stage attempt with no straggler on a slow host or a cold executor (or not diagnosed). */
  public StageStats(StageRef ref, int attempt, long tasks, long failedTasks, double durationS, double taskTimeS,
      double cpuS, double gcS, double fetchWaitS, double shuffleWriteS, long inputBytes, long shuffleReadBytes,
      long shuffleWriteBytes, long spillBytes, double maxOverMedian) {
    this(ref, attempt, tasks, failedTasks, durationS, taskTimeS, cpuS, gcS, fetchWaitS, shuffleWriteS, inputBytes,
        shuffleReadBytes, shuffleWriteBytes, spillBytes, maxOverMedian, 0, null, 0);
  }

  /** This stage attempt with a straggler on {@code host} that ran {@code excessS} seconds over the stage's median. */
  public StageStats withSlowHost(String host, double excessS) {
    return new StageStats(ref, attempt, tasks, failedTasks, durationS, taskTimeS, cpuS, gcS, fetchWaitS,
        shuffleWriteS, inputBytes, shuffleReadBytes, shuffleWriteBytes, spillBytes, maxOverMedian, excessS, host,
        coldS);
  }

  /** This stage attempt with a straggler among its executor's first tasks, {@code excessS} s over the median. */
  public StageStats withColdExecutor(double excessS) {
    return new StageStats(ref, attempt, tasks, failedTasks, durationS, taskTimeS, cpuS, gcS, fetchWaitS,
        shuffleWriteS, inputBytes, shuffleReadBytes, shuffleWriteBytes, spillBytes, maxOverMedian, slowHostS, slowHost,
        excessS);
  }
}
