package org.perflab.findings;

/**
 * The named thresholds, gates and estimation constants of the findings rules, with their defaults. docs/findings.md
 * cites where each comes from. Severity limits are in the order LOW, MODERATE, SEVERE, CRITICAL.
 */
public final class FindingLimits {
  private static final long MIB = 1L << 20;

  /** Data skew: max ÷ median of a stage's task input or shuffle-read bytes (Dr. Elephant's task-skew 2/4/8/16). */
  public static final Thresholds SKEW_MAX_OVER_MEDIAN = Thresholds.ascending(2, 4, 8, 16);
  /** Data skew is reported only for stages whose longest task runs at least this long, in ms. */
  public static final long SKEW_MIN_MAX_TASK_MS = 30_000;
  /** Data skew needs at least this many tasks for a meaningful median. */
  public static final long SKEW_MIN_TASKS = 4;

  /** Tiny tasks: a stage's median task duration in ms (smaller is worse). */
  public static final Thresholds TINY_TASK_MEDIAN_MS = Thresholds.descending(1000, 500, 200, 100);
  /** Tiny tasks are reported only for stages with at least this many tasks (and at least two per slot). */
  public static final long TINY_MIN_TASKS = 50;
  /** The task duration a coalesced stage should reach, in ms (the LOW limit of {@link #TINY_TASK_MEDIAN_MS}). */
  public static final long TINY_TARGET_TASK_MS = 1000;
  /** Assumed fixed cost of scheduling, shipping and starting one task, in ms, for the savings estimate. */
  public static final double TASK_OVERHEAD_MS = 10;

  /** Too few partitions: slots ÷ tasks of a stage. */
  public static final Thresholds FEW_SLOTS_OVER_TASKS = Thresholds.ascending(1.5, 2, 4, 8);
  /** Too few partitions is reported only for stages that run at least this long, in ms. */
  public static final long FEW_MIN_STAGE_MS = 60_000;
  /** Tasks per slot to recommend (the Spark tuning guide: 2-3 tasks per CPU core). */
  public static final int TASKS_PER_SLOT = 2;

  /** Shuffle partitions off the data size: max(target ÷ bytes per partition, bytes per partition ÷ target). */
  public static final Thresholds SHUFFLE_PARTITION_FACTOR = Thresholds.ascending(4, 16, 64, 256);
  /** Target shuffle bytes per partition (spark.sql.adaptive.advisoryPartitionSizeInBytes' order, 128 MiB). */
  public static final long SHUFFLE_TARGET_PARTITION_BYTES = 128 * MIB;
  /** Spark's default spark.sql.shuffle.partitions, used when the log does not set it. */
  public static final int DEFAULT_SHUFFLE_PARTITIONS = 200;

  /** Spill: memory-spilled bytes ÷ the largest of a stage's input, shuffle read, shuffle write (Dr. Elephant). */
  public static final Thresholds SPILL_RATIO = Thresholds.ascending(0.01, 0.1, 0.25, 0.5);
  /** Assumed disk throughput for writing and reading back spill, bytes/s, for the savings estimate. */
  public static final double SPILL_DISK_BYTES_PER_S = 100.0 * MIB;

  /** GC pressure: JVM GC time ÷ executor run time (Dr. Elephant's ExecutorGc / stage GC 0.08/0.09/0.1/0.15). */
  public static final Thresholds GC_SHARE = Thresholds.ascending(0.08, 0.09, 0.1, 0.15);
  /** GC pressure is reported only for applications whose tasks run at least this long in total, in s. */
  public static final double GC_MIN_RUN_S = 60;
  /** Memory multiplier recommended against GC pressure and spill (Dr. Elephant's 1.5 step). */
  public static final double MEMORY_INCREASE = 1.5;

  /** Idle executors: 1 − utilisation of the executor cores available. */
  public static final Thresholds IDLE_SHARE = Thresholds.ascending(0.5, 0.6, 0.75, 0.9);
  /** Idle executors are reported only for applications that run at least this long, in s. */
  public static final double IDLE_MIN_WALL_S = 60;
  /** The utilisation the recommended executor count aims at. */
  public static final double IDLE_TARGET_UTILIZATION = 0.7;

  /** Oversized executor memory: spark.executor.memory ÷ (peak JVM heap + reserved) (Dr. Elephant 1.5/2/4/8). */
  public static final Thresholds MEMORY_OVER_PEAK = Thresholds.ascending(1.5, 2, 4, 8);
  /** Spark's reserved memory, bytes (300 MiB). */
  public static final long RESERVED_MEMORY_BYTES = 300 * MIB;
  /** Executors with less memory than this, bytes, are not reported (Dr. Elephant: 2 GiB). */
  public static final long MEMORY_MIN_EXECUTOR_BYTES = 2048 * MIB;
  /** Headroom over the peak in the recommended memory (Dr. Elephant's 25 % buffer). */
  public static final double MEMORY_BUFFER = 0.25;

  /** Wasted tasks: time of failed and killed task attempts ÷ all task time (Dr. Elephant's failure rates). */
  public static final Thresholds WASTED_TASK_SHARE = Thresholds.ascending(0.05, 0.1, 0.15, 0.2);

  /**
   * Slow hosts: what the {@code SLOW_HOST} stragglers lost (duration − their stage's median) ÷ all task time, graded
   * as wasted tasks are: task time spent for nothing.
   */
  public static final Thresholds SLOW_HOST_SHARE = WASTED_TASK_SHARE;

  /**
   * Cold executors: what the {@code COLD_EXECUTOR} stragglers lost (duration − their stage's median) ÷ all task time,
   * graded as wasted tasks are: task time spent warming executors up.
   */
  public static final Thresholds COLD_EXECUTOR_SHARE = WASTED_TASK_SHARE;
  /**
   * The cores per executor recommended against cold executors when executors have fewer: the same slots in fewer
   * JVMs, each warmed once (PerfLab's choice; Cloudera's Spark tuning guide keeps executors at about 5 cores or fewer
   * for HDFS client throughput).
   */
  public static final int COLD_TARGET_CORES = 4;
  /**
   * The {@code spark.dynamicAllocation.executorIdleTimeout} recommended against cold executors under dynamic
   * allocation, s (Spark's default is 60 s): executors kept between jobs are not warmed again.
   */
  public static final int COLD_IDLE_TIMEOUT_S = 300;

  /** Driver-bound: time when no task runs ÷ wall time (sparklens' driver wall clock share). */
  public static final Thresholds DRIVER_SHARE = Thresholds.ascending(0.3, 0.5, 0.7, 0.9);
  /** Driver-bound is reported only for applications that run at least this long, in s. */
  public static final double DRIVER_MIN_WALL_S = 60;

  /** Dropped events: lost or unreadable evidence (stages missing tasks + task ends without start + bad lines). */
  public static final Thresholds DROPPED_EVENT_COUNT = Thresholds.ascending(1, 10, 100, 1000);
  /** The event queue capacity recommended when events were dropped (Spark's default is 10000). */
  public static final int EVENT_QUEUE_CAPACITY = 20_000;

  /** Broadcast-join candidate: smaller join side ÷ spark.sql.autoBroadcastJoinThreshold (smaller is worse). */
  public static final Thresholds BROADCAST_SIDE_OVER_THRESHOLD = Thresholds.descending(4, 2, 1, 0.25);
  /** Spark's default spark.sql.autoBroadcastJoinThreshold, bytes (10 MiB). */
  public static final long DEFAULT_BROADCAST_THRESHOLD_BYTES = 10 * MIB;

  /** Hot SQL operator: the operator's share of its execution's operator time. */
  public static final Thresholds OPERATOR_TIME_SHARE = Thresholds.ascending(0.5, 0.7, 0.85, 0.95);
  /** Operators reported per execution at most (the top ones by time). */
  public static final int OPERATOR_TOP = 3;
  /** Hot operators are reported only in executions whose operators run at least this long in total, in ms. */
  public static final long OPERATOR_MIN_EXECUTION_MS = 60_000;
  /** Rows out ÷ rows in below this: the operator discards most of its input. */
  public static final double OPERATOR_SELECTIVE_RATIO = 0.01;
  /** Rows out ÷ rows in above this: the operator multiplies its input. */
  public static final double OPERATOR_EXPLODING_RATIO = 10;

  private FindingLimits() {}
}
