package org.perflab.spark.corpus;

/**
 * How one spark-submit ended.
 *
 * @param exitCode the process's exit code; -1 when it was killed at its timeout
 * @param timedOut whether the timeout killed it
 * @param wallTimeMs wall time from start to exit, milliseconds
 * @param appId the application id the workload printed, or empty
 */
public record RunOutcome(int exitCode, boolean timedOut, long wallTimeMs, String appId) {}
