package org.perflab.costmodel;

import java.io.Serializable;
import java.util.stream.DoubleStream;
import org.perflab.errors.BadInputException;

/**
 * A stage's data statistics (the reference's Table 3, ds*), per task. Widths are bytes per record (> 0);
 * selectivities are output ÷ input (≥ 0). Table 3's phase labels are swapped (reference E7); these follow the
 * equations: {@code read*} belong to ShuffleRead, {@code write*} to ShuffleWrite.
 *
 * @param readInPairWidth dsReadInPairWidth, bytes per input record
 * @param computeRecsSel dsComputeRecsSel
 * @param computeSizeSel dsComputeSizeSel
 * @param readCombRecsSel dsReadCombRecsSel
 * @param readMergeRecsSel dsReadMergeRecsSel
 * @param readMergeSizeSel dsReadMergeSizeSel
 * @param readSpillPairWidth dsReadSpillPairWidth, in-memory bytes per ShuffleRead record
 * @param writeCombRecsSel dsWriteCombRecsSel
 * @param writeCombSizeSel dsWriteCombSizeSel
 * @param writeMergeRecsSel dsWriteMergeRecsSel
 * @param writeMergeSizeSel dsWriteMergeSizeSel
 * @param writeSpillPairWidth dsWriteSpillPairWidth, in-memory bytes per ShuffleWrite record
 */
public record DataStats(double readInPairWidth, double computeRecsSel, double computeSizeSel,
    double readCombRecsSel, double readMergeRecsSel, double readMergeSizeSel, double readSpillPairWidth,
    double writeCombRecsSel, double writeCombSizeSel, double writeMergeRecsSel, double writeMergeSizeSel,
    double writeSpillPairWidth) implements Serializable {

  public DataStats {
    BadInputException.require(DoubleStream.of(computeRecsSel, computeSizeSel, readCombRecsSel, readMergeRecsSel,
            readMergeSizeSel, writeCombRecsSel, writeCombSizeSel, writeMergeRecsSel, writeMergeSizeSel)
            .allMatch(v -> Double.isFinite(v) && v >= 0),
        "Cannot use data statistics: a selectivity is negative or not finite (%s; ≥ 0)", "selectivities");
    BadInputException.require(DoubleStream.of(readInPairWidth, readSpillPairWidth, writeSpillPairWidth)
            .allMatch(v -> Double.isFinite(v) && v > 0),
        "Cannot use data statistics: a record width is not positive (%s; > 0 bytes/record)", "widths");
  }

  /** The no-combine rule of §2.5: all ShuffleWrite selectivities 1. */
  public DataStats withoutWriteCombine() {
    return new DataStats(readInPairWidth, computeRecsSel, computeSizeSel, readCombRecsSel, readMergeRecsSel,
        readMergeSizeSel, readSpillPairWidth, 1, 1, 1, 1, writeSpillPairWidth);
  }

  /** The ShuffleRead "sort" case (§2.3, inferred): combine and merge selectivities 1. */
  public DataStats withoutReadCombine() {
    return new DataStats(readInPairWidth, computeRecsSel, computeSizeSel, 1, 1, 1, readSpillPairWidth,
        writeCombRecsSel, writeCombSizeSel, writeMergeRecsSel, writeMergeSizeSel, writeSpillPairWidth);
  }
}
