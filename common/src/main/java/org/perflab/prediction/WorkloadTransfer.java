package org.perflab.prediction;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Strength borrowed from other workloads: the target's series carried to the target's task slots by the speed-up
 * that other workloads measured between the same two configurations, t(W, c) = t(W, c′) · t(W′, c) ÷ t(W′, c′), c′
 * the target's series' measured configuration nearest c in slots ({@link RatioTransfer}'s anchor; the next nearest
 * where no other workload measured both), W′ every other workload that measured both c and c′ (the same input-size
 * class, cores per executor and memory: the same configurations). The estimates are averaged geometrically. The other
 * workloads' runs are all the predictor knows besides {@code training}; none of them is the target workload's, so
 * nothing measured at the held-out configuration of the target's workload reaches its prediction. Where no other
 * workload measured both configurations, it predicts nothing and says so.
 *
 * <p>The workloads' configurations are indexed once for a data set ({@link #index}) and shared by every workload's
 * predictor: a prediction looks up the workloads that measured the target's configuration, not every workload.
 */
public final class WorkloadTransfer implements Predictor {
  public static final String NAME = "workload_transfer";
  private static final long serialVersionUID = 1L;

  private final String workload;
  private final Map<Configuration, Map<String, Measured>> index;

  private WorkloadTransfer(String workload, Map<Configuration, Map<String, Measured>> index) {
    this.workload = workload;
    this.index = index;
  }

  /**
   * Every workload's measured configurations ({@link Harness#configurations}): by configuration, the workloads that
   * measured it. Built once for a data set, shared by every workload's {@link #of}.
   */
  public static Map<Configuration, Map<String, Measured>> index(List<Run> runs) {
    Map<Configuration, Map<String, Measured>> out = new HashMap<>();
    Harness.byWorkload(runs).forEach((w, rs) -> Harness.configurations(rs).forEach(m ->
        out.computeIfAbsent(m.configuration(), k -> new TreeMap<>()).put(w, m)));
    return out;
  }

  /** The predictor for {@code workload}: every other workload of {@code index} ({@link #index}) lends its runs. */
  public static WorkloadTransfer of(String workload, Map<Configuration, Map<String, Measured>> index) {
    return new WorkloadTransfer(workload, index);
  }

  @Override
  public String name() {
    return NAME;
  }

  /**
   * A fallback ({@link Candidacy#FALLBACK}): it reaches most predictions through the blend, whose weights follow its
   * errors on the target's neighbours, and is chosen on its own only where no candidate that models the configuration
   * has inner evidence (a workload of few configurations, the case it is for). Chosen like the others on a region's
   * two or three training configurations, it carried another workload's memory cliff to a workload that has none
   * (C3O SGD at 1 iteration, 2 nodes, 29 GB: 358 % off; docs/prediction.md#borrowing).
   */
  @Override
  public Candidacy candidacy() {
    return Candidacy.FALLBACK;
  }

  @Override
  public Estimate predict(List<Measured> training, Target target) {
    Map<String, Measured> atTarget = index.getOrDefault(target.configuration(), Map.of());
    List<Measured> anchors = RatioTransfer.anchors(training, target);
    for (Measured anchor : anchors) {
      Map<String, Measured> atAnchor = index.getOrDefault(anchor.configuration(), Map.of());
      double logSum = 0;
      int workloads = 0;
      for (Map.Entry<String, Measured> other : atTarget.entrySet()) {
        Measured there = atAnchor.get(other.getKey());
        if (!other.getKey().equals(workload) && there != null) {
          logSum += Math.log(anchor.actualS()) + Math.log(other.getValue().actualS()) - Math.log(there.actualS());
          workloads++;
        }
      }
      if (workloads > 0) {
        return Estimate.of(Math.exp(logSum / workloads));
      }
    }
    long others = atTarget.keySet().stream().filter(w -> !w.equals(workload)).count();
    return Estimate.none(String.format(Locale.ROOT, "Cannot predict by workload transfer: no other workload measured "
        + "both the target's configuration and one of its series' %d configurations in training (%d other "
        + "workloads measured the target's configuration)", anchors.size(), others));
  }
}
