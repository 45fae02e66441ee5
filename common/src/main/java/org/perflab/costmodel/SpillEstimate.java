package org.perflab.costmodel;

/**
 * The spill and merge of one task's buffered records (ShuffleRead eqs. (20)–(28), ShuffleWrite (35)–(41)).
 *
 * @param bufferBytes dSpillBufferSize, bytes
 * @param perSpillRecords dPerSpillRecs, records in a full buffer
 * @param combinedRecords dSpillCombRecs, records after the spill-phase combine
 * @param spills dNumSpills, floor(combined ÷ per spill) when spilling is on, else 0 (corrected eq. 23)
 * @param inMemoryRecords tInMemRecs, records left in memory after the last spill
 * @param spillFileBytes dSpillFileSize, on-disk bytes per spill file
 * @param spillNs tSpillPhaseTime, ns
 * @param mergeNs tMergePhaseTime, ns
 */
public record SpillEstimate(double bufferBytes, double perSpillRecords, double combinedRecords, long spills,
    double inMemoryRecords, double spillFileBytes, double spillNs, double mergeNs) {

  /** Spill plus merge, ns. */
  public double totalNs() {
    return spillNs + mergeNs;
  }
}
