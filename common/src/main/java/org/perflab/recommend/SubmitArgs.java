package org.perflab.recommend;

import java.util.ArrayList;
import java.util.List;
import org.perflab.eventlog.SparkVersion;

/**
 * The {@code spark-submit} flags and {@code --conf} lines that apply a recommendation, in the keys of the workload's
 * Spark version. Memory is given in MiB, rounded up, with the memory manager's fractions it was sized with. Dynamic
 * allocation is switched on between the bounds, starting at the recommended count, with shuffle tracking (no external
 * shuffle service needed, Spark ≥ 3.0); before 3.0 with the external shuffle service, which those versions need. The
 * overhead is {@code spark.executor.memoryOverhead}, before 2.3 {@code spark.yarn.executor.memoryOverhead} (MiB). A
 * candidate predicted at another shuffle codec or serializer than the runs' (a {@code sweep --rule phase-cost
 * --codecs} point) sets it.
 */
public final class SubmitArgs {
  private static final long MIB = 1L << 20;

  private SubmitArgs() {}

  /** The first version with {@code spark.executor.memoryOverhead}, as {@link SparkVersion#minor}: 2.3. */
  static final int OVERHEAD_KEY_SINCE = 203;
  /** The first version with {@code spark.dynamicAllocation.shuffleTracking.enabled}: 3.0. */
  static final int SHUFFLE_TRACKING_SINCE = 300;

  /**
   * The arguments, space-separated, in a fixed order, in the keys of {@code sparkVersion} (null or unreadable:
   * today's).
   */
  public static String of(Candidate c, Memory memory, int shufflePartitions, DynamicAllocation bounds,
      String sparkVersion) {
    int version = SparkVersion.minor(sparkVersion);
    boolean known = version >= 0;
    List<String> args = new ArrayList<>();
    args.add("--executor-cores " + c.coresPerExecutor());
    if (memory.executorMemoryBytes() != null) {
      args.add("--executor-memory " + mib(memory.executorMemoryBytes()) + "m");
      memory.settings().forEach(kv -> args.add("--conf " + kv));
    }
    args.add("--conf spark.executor.instances=" + c.executors());
    if (memory.overheadBytes() != null) {
      args.add(known && version < OVERHEAD_KEY_SINCE
          ? "--conf spark.yarn.executor.memoryOverhead=" + mib(memory.overheadBytes())
          : "--conf spark.executor.memoryOverhead=" + mib(memory.overheadBytes()) + "m");
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
    args.add(known && version < SHUFFLE_TRACKING_SINCE ? "--conf spark.shuffle.service.enabled=true"
        : "--conf spark.dynamicAllocation.shuffleTracking.enabled=true");
    args.add("--conf spark.dynamicAllocation.initialExecutors=" + c.executors());
    args.add("--conf spark.dynamicAllocation.minExecutors=" + bounds.minExecutors());
    args.add("--conf spark.dynamicAllocation.maxExecutors=" + bounds.maxExecutors());
    return String.join(" ", args);
  }

  private static long mib(long bytes) {
    return (bytes + MIB - 1) / MIB;
  }
}
