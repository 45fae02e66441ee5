package org.perflab.costmodel;

/**
 * The ShuffleWrite phase of one task, eqs. (34)–(44).
 *
 * @param bypass tBypassMergeSort, eq. (34)
 * @param spill spill and merge; without buffering (bypass, or hash without combine, eq. 42) nothing spills and the
 *     merge part holds the whole write
 * @param ns cShuffleWritePhaseTime, eq. (42), ns
 * @param writeBytes dWriteBytes, on-disk bytes of map output per task (eq. 43 ÷ tasks)
 * @param writeRecords dWriteRecs, records of map output per task (eq. 44 ÷ tasks)
 */
public record ShuffleWriteEstimate(boolean bypass, SpillEstimate spill, double ns, double writeBytes,
    double writeRecords) {}
