package org.perflab.costmodel;

import java.io.Serializable;

/**
 * One successful task's metrics as the estimation reads them (the ingest {@code tasks} table; 0 where a metric was
 * not logged).
 *
 * @param runNs executor run time, ns
 * @param inputBytes bytes read from storage
 * @param inputRecords records read from storage
 * @param shuffleLocalBytes shuffle bytes read from the local executor
 * @param shuffleRemoteBytes shuffle bytes fetched from other executors
 * @param shuffleReadRecords shuffle records read
 * @param shuffleWriteBytes shuffle bytes written (on disk)
 * @param shuffleWriteRecords shuffle records written
 * @param shuffleWriteNs Spark's Shuffle Write Time, ns
 * @param memorySpilledBytes Memory Bytes Spilled (in-memory size of what spilled)
 * @param diskSpilledBytes Disk Bytes Spilled (on-disk size of the spill files)
 * @param gcNs JVM GC time, ns
 */
public record TaskSample(double runNs, double inputBytes, double inputRecords, double shuffleLocalBytes,
    double shuffleRemoteBytes, double shuffleReadRecords, double shuffleWriteBytes, double shuffleWriteRecords,
    double shuffleWriteNs, double memorySpilledBytes, double diskSpilledBytes, double gcNs) implements Serializable {}
