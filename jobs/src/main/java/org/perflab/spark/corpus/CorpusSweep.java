package org.perflab.spark.corpus;

import java.util.List;
import java.util.Map;
import org.perflab.spark.workload.Scale;
import org.perflab.spark.workload.HiBenchWorkload;

/**
 * One block of a grid: every combination of its lists is a configuration, run {@code repetitions} times.
 *
 * @param name optional label that prefixes its point ids (empty for none)
 * @param masterKind where the runs go
 * @param masterUrl the master URL for {@link MasterKind#URL}, else empty
 * @param workloads workloads to run
 * @param scales scale profiles
 * @param executors executor counts (1 for local masters)
 * @param coresPerExecutor cores per executor ({@code local[cores]} for local masters)
 * @param executorMemory executor memory, Spark size format (driver memory for local masters)
 * @param repetitions runs of each configuration
 * @param timeoutSeconds limit of each of its spark-submits, seconds
 * @param conf extra Spark properties, over the grid's
 * @param workloadArgs extra options of the {@code workload} job, e.g. {@code --sleep-tasks 16}
 */
public record CorpusSweep(
    String name,
    MasterKind masterKind,
    String masterUrl,
    List<HiBenchWorkload> workloads,
    List<Scale> scales,
    List<Integer> executors,
    List<Integer> coresPerExecutor,
    List<String> executorMemory,
    int repetitions,
    int timeoutSeconds,
    Map<String, String> conf,
    List<String> workloadArgs) {}
