package org.perflab.costmodel;

/**
 * The ShuffleRead phase of one task, eqs. (11)–(29).
 *
 * @param bytes tEachSRSize, on-disk bytes fetched
 * @param records tEachSRRecs, records fetched
 * @param localBytes dLocalReadBytes
 * @param remoteBytes dRemoteReadBytes
 * @param fetchNs tShuffleFetchTime, ns
 * @param spill spill and merge, eqs. (20)–(28)
 * @param computeInRecords tComputeInRecs, eq. (26)
 * @param computeInBytes tComputeInBytes, eq. (27), bytes
 */
public record ShuffleReadEstimate(double bytes, double records, double localBytes, double remoteBytes, double fetchNs,
    SpillEstimate spill, double computeInRecords, double computeInBytes) {

  /** cShuffleReadPhaseTime, eq. (29), ns. */
  public double ns() {
    return fetchNs + spill.totalNs();
  }
}
