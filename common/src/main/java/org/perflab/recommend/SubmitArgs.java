package org.perflab.recommend;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@code spark-submit} flags and {@code --conf} lines that apply a recommendation. Memory is given in MiB,
 * rounded up. Dynamic allocation is switched on with shuffle tracking (no external shuffle service needed, Spark ≥
 * 3.0), between the bounds, starting at the recommended count. A candidate predicted at another shuffle codec or
 * serializer than the runs' (a {@code sweep --rule phase-cost --codecs} point) sets it.
 */
public final class SubmitArgs {
  private static final long MIB = 1L << 20;

  private SubmitArgs() {}

  /** The arguments, space-separated, in a fixed order. */
  public static String of(Candidate c, Memory memory, int shufflePartitions, DynamicAllocation bounds) {
    List<String> args = new ArrayList<>();
    args.add("--executor-cores " + c.coresPerExecutor());
    if (memory.executorMemoryBytes() != null) {
      args.add("--executor-memory " + mib(memory.executorMemoryBytes()) + "m");
    }
    args.add("--conf spark.executor.instances=" + c.executors());
    if (memory.overheadBytes() != null) {
      args.add("--conf spark.executor.memoryOverhead=" + mib(memory.overheadBytes()) + "m");
    }
    args.add("--conf spark.sql.shuffle.partitions=" + shufflePartitions);
    args.add("--conf spark.default.parallelism=" + shufflePartitions);
    if (c.codec() != null) {
      args.add("--conf spark.io.compression.codec=" + c.codec().shortName());
    }
    if (c.serializer() != null) {
      args.add("--conf spark.serializer=" + c.serializer().className());
    }
    args.add("--conf spark.dynamicAllocation.enabled=true");
    args.add("--conf spark.dynamicAllocation.shuffleTracking.enabled=true");
    args.add("--conf spark.dynamicAllocation.initialExecutors=" + c.executors());
    args.add("--conf spark.dynamicAllocation.minExecutors=" + bounds.minExecutors());
    args.add("--conf spark.dynamicAllocation.maxExecutors=" + bounds.maxExecutors());
    return String.join(" ", args);
  }

  private static long mib(long bytes) {
    return (bytes + MIB - 1) / MIB;
  }
}
