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
 */
public record StageStats(StageRef ref, int attempt, long tasks, long failedTasks, double durationS, double taskTimeS,
    double cpuS, double gcS, double fetchWaitS, double shuffleWriteS, long inputBytes, long shuffleReadBytes,
    long shuffleWriteBytes, long spillBytes, double maxOverMedian) {}
