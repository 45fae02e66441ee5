package org.perflab.costmodel;

import java.io.Serializable;
import java.util.stream.DoubleStream;
import org.perflab.errors.BadInputException;

/**
 * The cluster's computation statistics (the reference's Table 4, cs*) that do not depend on codec or serializer. All
 * are finite and ≥ 0.
 *
 * @param hdfsReadNsPerByte csHdfsReadCost, ns per input byte
 * @param localReadNsPerByte csLocalIOReadCost, ns per byte read from local disk
 * @param localWriteNsPerByte csLocalIOWriteCost, ns per byte written to local disk
 * @param networkNsPerByte csNetworkCost, ns per byte sent over the network
 * @param computeNsPerRecord csComputeCPUCost, ns per record entering Compute
 * @param spillCombineNsPerRecord csSpillCombCPUCost, ns per record combined in the spill phase
 * @param mergeCombineNsPerRecord csMergeCombCPUCost, ns per record combined in the merge phase
 * @param partitionNsPerRecord csPartitionCPUCost, ns per record partitioned
 * @param sortNsPerRecord csSortCPUCost, ns per n·log2(n) unit of a sort
 * @param setupNs csSetupCPUCost, ns per task
 * @param cleanupNs csCleanupCPUCost, ns per task
 */
public record CostStats(double hdfsReadNsPerByte, double localReadNsPerByte, double localWriteNsPerByte,
    double networkNsPerByte, double computeNsPerRecord, double spillCombineNsPerRecord,
    double mergeCombineNsPerRecord, double partitionNsPerRecord, double sortNsPerRecord, double setupNs,
    double cleanupNs) implements Serializable {

  public CostStats {
    BadInputException.require(DoubleStream.of(hdfsReadNsPerByte, localReadNsPerByte, localWriteNsPerByte,
            networkNsPerByte, computeNsPerRecord, spillCombineNsPerRecord, mergeCombineNsPerRecord,
            partitionNsPerRecord, sortNsPerRecord, setupNs, cleanupNs).allMatch(v -> Double.isFinite(v) && v >= 0),
        "Cannot use cost statistics: a cost is negative or not finite (%s; ≥ 0)", "cost statistics");
  }

  /**
   * The same statistics with the local write, local read and network costs multiplied by {@code write},
   * {@code read} and {@code network} (ratios ≥ 0): another codec or serializer, for costs fitted per on-disk byte
   * with them included.
   */
  public CostStats withShuffleIoScaled(double write, double read, double network) {
    return new CostStats(hdfsReadNsPerByte, localReadNsPerByte * read, localWriteNsPerByte * write,
        networkNsPerByte * network, computeNsPerRecord, spillCombineNsPerRecord, mergeCombineNsPerRecord,
        partitionNsPerRecord, sortNsPerRecord, setupNs, cleanupNs);
  }

  /** The same statistics without combine costs: the no-combine rule of §2.5 (csSpillComb = csMergeComb = 0). */
  public CostStats withoutCombine() {
    return new CostStats(hdfsReadNsPerByte, localReadNsPerByte, localWriteNsPerByte, networkNsPerByte,
        computeNsPerRecord, 0, 0, partitionNsPerRecord, sortNsPerRecord, setupNs, cleanupNs);
  }
}
