package org.perflab.stragglers;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Straggler detection and both root-cause analyses over one application's successful tasks held in memory: the
 * specification the distributed {@code diagnose} job follows, and what its tests compare against. Per stage attempt:
 * the median duration; each task's features normalised ({@link Category}); per feature the application's quantiles;
 * per straggler its peers' mean (the stage's other tasks) and the stage's correlation with duration; per host, its
 * tasks' durations over their stages' medians ({@link HostEvidence}); per stage, its executors' first tasks against
 * the others ({@link ColdEvidence}).
 */
public final class AppDiagnosis {
  private AppDiagnosis() {}

  /** One straggler and its causes by BigRoots and by the PCC baseline. */
  public record Diagnosed(TaskObservation task, double stageMedianMs, double factor, Set<Cause> causes,
      Set<Cause> pccCauses, TaskEvidence evidence) {}

  /** The stragglers of one application's successful tasks, in input order. */
  public static List<Diagnosed> diagnose(List<TaskObservation> tasks, StragglerThresholds t, PccThresholds pcc) {
    Map<String, List<Integer>> stages = new LinkedHashMap<>();
    for (int i = 0; i < tasks.size(); i++) {
      stages.computeIfAbsent(tasks.get(i).stageId() + "." + tasks.get(i).stageAttemptId(), k -> new ArrayList<>())
          .add(i);
    }
    double[][] values = normalised(tasks, stages);
    Map<Feature, double[]> quantiles = quantiles(values, t.lambdaQ(), pcc.lambdaCq());
    double[] medians = new double[tasks.size()];
    for (List<Integer> stage : stages.values()) {
      double median = Quantiles.median(stage.stream().mapToLong(i -> tasks.get(i).durationMs()).toArray());
      stage.forEach(i -> medians[i] = median);
    }
    double[] logRatios = new double[tasks.size()];
    Map<String, double[]> hosts = new LinkedHashMap<>(); // host -> {tasks, sum of log ratios}
    for (int i = 0; i < tasks.size(); i++) {
      logRatios[i] = tasks.get(i).durationMs() > 0 && medians[i] > 0
          ? Math.log(tasks.get(i).durationMs() / medians[i]) : Double.NaN;
      if (tasks.get(i).host() != null && !Double.isNaN(logRatios[i])) {
        double[] sums = hosts.computeIfAbsent(tasks.get(i).host(), h -> new double[2]);
        sums[0]++;
        sums[1] += logRatios[i];
      }
    }
    boolean[] cold = cold(tasks);
    List<Diagnosed> out = new ArrayList<>();
    for (List<Integer> stage : stages.values()) {
      double median = medians[stage.get(0)];
      long[] warm = stage.stream().filter(i -> !cold[i]).mapToLong(i -> tasks.get(i).durationMs()).toArray();
      double warmMedian = warm.length == 0 ? Double.NaN : Quantiles.median(warm);
      List<Integer> coldTasks = stage.stream().filter(i -> cold[i]).toList();
      double coldLogSum = coldTasks.stream().mapToDouble(i -> Math.log(tasks.get(i).durationMs())).sum();
      List<Integer> stragglers = stage.stream()
          .filter(i -> Quantiles.isStraggler(tasks.get(i).durationMs(), median, t.stragglerFactor())).toList();
      for (int i : stragglers) {
        double[] host = tasks.get(i).host() == null ? null : hosts.get(tasks.get(i).host());
        HostEvidence hostEvidence = host == null || Double.isNaN(logRatios[i]) ? HostEvidence.NONE
            : HostEvidence.fromLogs((long) host[0], host[1], logRatios[i]);
        ColdEvidence coldEvidence = ColdEvidence.fromLogs(cold[i], warm.length, warmMedian, coldTasks.size(),
            coldLogSum, tasks.get(i).durationMs());
        TaskEvidence evidence = evidence(tasks, values, quantiles, stage, stragglers, i, hostEvidence, coldEvidence);
        out.add(new Diagnosed(tasks.get(i), median, tasks.get(i).durationMs() / median,
            BigRoots.causes(evidence, t), Pcc.causes(evidence, pcc), evidence));
      }
    }
    return out;
  }

  /** values[feature ordinal][task]: ratio to the stage mean, share of the duration, or utilisation during. */
  private static double[][] normalised(List<TaskObservation> tasks, Map<String, List<Integer>> stages) {
    double[][] values = new double[Feature.values().length][tasks.size()];
    for (Feature f : Feature.values()) {
      for (List<Integer> stage : stages.values()) {
        double mean = stage.stream().mapToDouble(i -> raw(tasks.get(i), f)).average().orElse(0);
        for (int i : stage) {
          TaskObservation task = tasks.get(i);
          values[f.ordinal()][i] = switch (f.category()) {
            case NUMERIC -> mean > 0 ? raw(task, f) / mean : 0;
            case TIME -> task.durationMs() > 0 ? raw(task, f) / task.durationMs() : 0;
            case RESOURCE -> task.resources().containsKey(f) ? task.resources().get(f).during() : Double.NaN;
            case LOCALITY -> LocalityEvidence.code(task.locality());
          };
        }
      }
    }
    return values;
  }

  private static double raw(TaskObservation task, Feature f) {
    return task.raw().getOrDefault(f, 0.0);
  }

  /** Per feature: {λq-quantile, λcq-quantile} over the application's measured values. */
  private static Map<Feature, double[]> quantiles(double[][] values, double q, double cq) {
    Map<Feature, double[]> quantiles = new EnumMap<>(Feature.class);
    for (Feature f : Feature.values()) {
      double[] measured = java.util.Arrays.stream(values[f.ordinal()]).filter(v -> !Double.isNaN(v)).toArray();
      quantiles.put(f, new double[] {Quantiles.nearestRank(measured, q), Quantiles.nearestRank(measured, cq)});
    }
    return quantiles;
  }

  private static TaskEvidence evidence(List<TaskObservation> tasks, double[][] values, Map<Feature, double[]> quantiles,
      List<Integer> stage, List<Integer> stragglers, int task, HostEvidence host, ColdEvidence cold) {
    Map<Feature, FeatureEvidence> features = new EnumMap<>(Feature.class);
    double[] durations = stage.stream().mapToDouble(i -> tasks.get(i).durationMs()).toArray();
    for (Feature f : Feature.values()) {
      double[] v = values[f.ordinal()];
      double peerMean = stage.stream().filter(i -> i != task).mapToDouble(i -> v[i]).average().orElse(Double.NaN);
      double rho = Pcc.correlation(stage.stream().mapToDouble(i -> v[i]).toArray(), durations);
      FeatureEvidence e = FeatureEvidence.of(v[task], peerMean, quantiles.get(f)[0])
          .withPcc(rho, quantiles.get(f)[1]);
      EdgeDetection.Window window = tasks.get(task).resources().get(f);
      features.put(f, window == null ? e : e.withEdges(window.head(), window.tail()));
    }
    List<Integer> normal = stage.stream().filter(i -> !stragglers.contains(i)).toList();
    double normalSum = normal.stream().mapToDouble(i -> values[Feature.LOCALITY.ordinal()][i]).sum();
    LocalityEvidence locality = new LocalityEvidence(LocalityEvidence.code(tasks.get(task).locality()), normalSum,
        normal.size());
    return new TaskEvidence(features, locality, host, cold);
  }

  /**
   * Per task, whether it is cold ({@link ColdEvidence}): launched before its executor finished any of the tasks given
   * (the application's successful tasks). A task whose executor or launch time is unknown is not.
   */
  static boolean[] cold(List<TaskObservation> tasks) {
    Map<String, Long> firstFinish = new HashMap<>();
    for (TaskObservation t : tasks) {
      if (t.timed()) {
        firstFinish.merge(t.executorId(), t.launchTimeMs() + t.durationMs(), Math::min);
      }
    }
    boolean[] cold = new boolean[tasks.size()];
    for (int i = 0; i < tasks.size(); i++) {
      TaskObservation t = tasks.get(i);
      cold[i] = t.timed() && t.durationMs() > 0 && t.launchTimeMs() < firstFinish.get(t.executorId());
    }
    return cold;
  }
}
