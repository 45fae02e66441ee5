package org.perflab.memory.gc;

/**
 * A finished task's memory-related metrics as the driver saw them (Tier B telemetry, {@code tasks.jsonl}).
 *
 * @param stageId the stage
 * @param stageAttempt the stage attempt
 * @param taskId Spark's task id
 * @param executorId the executor that ran it
 * @param launchMs launch time, epoch milliseconds
 * @param finishMs finish time, epoch milliseconds
 * @param successful whether it succeeded
 * @param gcMs JVM GC time during the task, milliseconds
 * @param peakExecutionBytes peak execution memory, bytes
 * @param memorySpilledBytes in-memory size of spilled data, bytes
 * @param diskSpilledBytes on-disk size of spilled data, bytes
 * @param inputBytes bytes read by the task's input (including cached blocks read), bytes
 * @param shuffleReadBytes shuffle bytes read, bytes
 * @param shuffleWriteBytes shuffle bytes written, bytes
 */
public record TaskMemory(int stageId, int stageAttempt, long taskId, String executorId, long launchMs, long finishMs,
    boolean successful, long gcMs, long peakExecutionBytes, long memorySpilledBytes, long diskSpilledBytes,
    long inputBytes, long shuffleReadBytes, long shuffleWriteBytes) {}
