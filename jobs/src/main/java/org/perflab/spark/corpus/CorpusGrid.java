package org.perflab.spark.corpus;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A corpus grid: workloads × scales × executors × cores per executor × executor memory × repetitions, in sweeps.
 *
 * @param name grid name, used for the default work directory
 * @param timeoutSeconds limit of each spark-submit (prepare, and runs of sweeps without their own), seconds; the
 *     process tree is killed after it
 * @param partitions {@code --partitions} of every workload (input files and shuffle partitions)
 * @param seed {@code --seed} of every data generator
 * @param prepareMaster master of the prepare applications
 * @param conf Spark properties of every run
 * @param cluster the standalone cluster of {@code local-cluster} sweeps
 * @param sweeps the sweeps, in run order
 */
public record CorpusGrid(
    String name,
    int timeoutSeconds,
    int partitions,
    long seed,
    String prepareMaster,
    Map<String, String> conf,
    LocalClusterSpec cluster,
    List<CorpusSweep> sweeps) {

  /** Every grid point, sweep by sweep, configuration by configuration, repetitions innermost. */
  public List<CorpusPoint> points() {
    List<CorpusPoint> points = new ArrayList<>();
    for (CorpusSweep sweep : sweeps) {
      Map<String, String> merged = new LinkedHashMap<>(conf);
      merged.putAll(sweep.conf());
      for (var workload : sweep.workloads()) {
        for (var scale : sweep.scales()) {
          for (int executors : sweep.executors()) {
            for (int cores : sweep.coresPerExecutor()) {
              for (String memory : sweep.executorMemory()) {
                for (int rep = 1; rep <= sweep.repetitions(); rep++) {
                  points.add(new CorpusPoint(sweep.name(), workload, scale, sweep.masterKind(), sweep.masterUrl(),
                      executors, cores, memory, rep, sweep.timeoutSeconds(), merged, sweep.workloadArgs()));
                }
              }
            }
          }
        }
      }
    }
    return points;
  }

  /** Whether any sweep runs on the local standalone cluster. */
  public boolean needsLocalCluster() {
    return sweeps.stream().anyMatch(sweep -> sweep.masterKind() == MasterKind.LOCAL_CLUSTER);
  }
}
