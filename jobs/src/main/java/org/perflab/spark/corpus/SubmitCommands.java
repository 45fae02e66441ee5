package org.perflab.spark.corpus;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.perflab.spark.workload.Scale;
import org.perflab.spark.workload.HiBenchWorkload;
import org.perflab.spark.workload.WorkloadTags;

/**
 * Builds the launcher command lines of a grid: {@code <submit> [spark-submit options] workload [workload options]}.
 * Pure: it runs nothing, so {@code --dry-run} prints exactly what a real sweep runs.
 */
public final class SubmitCommands {
  /** Stands for the local cluster's master URL in dry runs, before the cluster is started. */
  public static final String LOCAL_CLUSTER_PLACEHOLDER = "<local-cluster-master-url>";
  private static final String LOOPBACK = "127.0.0.1";

  private final List<String> submit;
  private final CorpusGrid grid;
  private final String eventLogDir;
  private final String dataDir;

  /**
   * @param submit the launcher command, e.g. {@code [/opt/perflab/submit/perflab]}
   * @param grid the grid
   * @param eventLogDir {@code spark.eventLog.dir} of every run (qualified URI)
   * @param dataDir root of the prepared data sets (qualified URI)
   */
  public SubmitCommands(List<String> submit, CorpusGrid grid, String eventLogDir, String dataDir) {
    this.submit = List.copyOf(submit);
    this.grid = grid;
    this.eventLogDir = eventLogDir;
    this.dataDir = dataDir;
  }

  /** The prepare application of {@code workload}'s data set at {@code scale}, with event logging off. */
  public List<String> prepare(HiBenchWorkload workload, Scale scale) {
    List<String> command = new ArrayList<>(submit);
    command.addAll(List.of("--master", grid.prepareMaster(), "--conf", "spark.eventLog.enabled=false",
        "--conf", "spark.ui.enabled=false"));
    command.add("workload");
    command.addAll(List.of("--workload", workload.id(), "--scale", scale.profileName(), "--phase", "prepare"));
    command.addAll(dataOptions());
    return command;
  }

  /** The measured application of {@code point}; {@code clusterMaster} is the local cluster's URL when it runs there. */
  public List<String> run(CorpusPoint point, String clusterMaster) {
    List<String> command = new ArrayList<>(submit);
    command.addAll(resources(point, clusterMaster));
    conf(command, "spark.eventLog.enabled", "true");
    conf(command, "spark.eventLog.dir", eventLogDir);
    conf(command, WorkloadTags.WORKLOAD, point.workload().id());
    conf(command, WorkloadTags.SCALE, point.scale().profileName());
    conf(command, WorkloadTags.REPETITION, Integer.toString(point.repetition()));
    conf(command, WorkloadTags.GRID_POINT, point.id());
    for (Map.Entry<String, String> entry : point.conf().entrySet()) {
      conf(command, entry.getKey(), entry.getValue());
    }
    command.add("workload");
    command.addAll(List.of("--phase", "run"));
    command.addAll(dataOptions());
    command.addAll(point.workloadArgs());
    return command;
  }

  private List<String> resources(CorpusPoint point, String clusterMaster) {
    List<String> options = new ArrayList<>();
    switch (point.masterKind()) {
      case LOCAL -> options.addAll(List.of("--master", "local[" + point.coresPerExecutor() + "]",
          "--driver-memory", point.executorMemory()));
      case LOCAL_CLUSTER -> {
        options.addAll(List.of("--master", clusterMaster));
        conf(options, "spark.driver.host", LOOPBACK);
        executors(options, point, true);
      }
      case URL -> {
        options.addAll(List.of("--master", point.masterUrl()));
        executors(options, point, point.masterUrl().startsWith("spark://"));
      }
    }
    return options;
  }

  private static void executors(List<String> options, CorpusPoint point, boolean standalone) {
    options.addAll(List.of("--executor-memory", point.executorMemory()));
    conf(options, "spark.executor.instances", Integer.toString(point.executors()));
    conf(options, "spark.executor.cores", Integer.toString(point.coresPerExecutor()));
    conf(options, "spark.dynamicAllocation.enabled", "false");
    if (standalone) {
      // Standalone masters size an application by its total cores, not by executor instances.
      conf(options, "spark.cores.max", Integer.toString(point.slots()));
    }
  }

  private List<String> dataOptions() {
    return List.of("--data-dir", dataDir, "--partitions", Integer.toString(grid.partitions()),
        "--seed", Long.toString(grid.seed()));
  }

  private static void conf(List<String> command, String key, String value) {
    command.add("--conf");
    command.add(key + "=" + value);
  }

  /** A command as one shell-quoted line, for {@code --dry-run} and logs. */
  public static String shellLine(List<String> command) {
    StringBuilder line = new StringBuilder();
    for (String word : command) {
      line.append(line.length() == 0 ? "" : " ");
      line.append(word.matches("[A-Za-z0-9_./:=,@%+-]+") ? word : "'" + word.replace("'", "'\\''") + "'");
    }
    return line.toString();
  }
}
