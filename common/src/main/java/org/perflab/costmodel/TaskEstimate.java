package org.perflab.costmodel;

/**
 * One task of a stage: the time of each phase (ns) and the data fields behind them. A phase the stage does not run
 * is null ({@link ShuffleReadEstimate}, {@link ShuffleWriteEstimate}) or 0 ns.
 *
 * @param readNs cReadPhaseTime, eq. (10), ns
 * @param shuffleRead ShuffleRead, or null without shuffle parents
 * @param compute Compute
 * @param shuffleWrite ShuffleWrite, or null for a result stage
 * @param funcNs cFuncPhaseTime, eq. (45), ns (0 for a shuffle-map stage)
 * @param setupNs csSetupCPUCost, ns
 * @param cleanupNs csCleanupCPUCost, ns
 */
public record TaskEstimate(double readNs, ShuffleReadEstimate shuffleRead, ComputeEstimate compute,
    ShuffleWriteEstimate shuffleWrite, double funcNs, double setupNs, double cleanupNs) {

  /** The time of {@code phase}, ns. */
  public double ns(Phase phase) {
    return switch (phase) {
      case READ -> readNs;
      case SHUFFLE_READ -> shuffleRead == null ? 0 : shuffleRead.ns();
      case COMPUTE -> compute.ns();
      case SHUFFLE_WRITE -> shuffleWrite == null ? 0 : shuffleWrite.ns();
      case FUNC -> funcNs;
    };
  }

  /** taskTime (the reference's reconstructed §2.7 sum): setup + the five phases + cleanup, ns. */
  public double taskNs() {
    double sum = setupNs + cleanupNs;
    for (Phase p : Phase.values()) {
      sum += ns(p);
    }
    return sum;
  }

  /** Bytes the task spills to disk (spill files of both shuffle phases), bytes. */
  public double spilledBytes() {
    double read = shuffleRead == null ? 0 : shuffleRead.spill().spills() * shuffleRead.spill().spillFileBytes();
    double write = shuffleWrite == null ? 0 : shuffleWrite.spill().spills() * shuffleWrite.spill().spillFileBytes();
    return read + write;
  }
}
