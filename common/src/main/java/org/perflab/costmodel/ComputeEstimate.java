package org.perflab.costmodel;

/**
 * The Compute phase of one task, eqs. (30)–(33).
 *
 * @param inRecords tComputeInRecs
 * @param inBytes tComputeInBytes, bytes
 * @param outRecords dComputeOutRecs
 * @param outBytes dComputeOutSize, bytes
 * @param ns cComputePhaseTime, ns
 */
public record ComputeEstimate(double inRecords, double inBytes, double outRecords, double outBytes, double ns) {

  /** tComputeOutPairWidth, eq. (32): bytes per output record (0 without output). */
  public double outPairWidth() {
    return outRecords == 0 ? 0 : outBytes / outRecords;
  }
}
