package org.perflab.prediction;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Strength borrowed from other workloads: the target's series carried to the target's task slots by the speed-up
 * that other workloads measured between the same two configurations, t(W, c) = t(W, c′) · t(W′, c) ÷ t(W′, c′), c′
 * the target's series' measured configuration nearest c in slots ({@link RatioTransfer}'s anchor), W′ every other
 * workload that measured both c and c′ (the same input-size class, cores per executor and memory: the same
 * configurations). The estimates are averaged geometrically. The other workloads' runs are all the predictor knows
 * besides {@code training}; none of them is the target workload's, so nothing measured at the held-out configuration
 * of the target's workload reaches its prediction. Where no other workload measured both configurations, it predicts
 * nothing and says so.
 *
 * @param others each other workload's measured configurations
 */
public record WorkloadTransfer(List<List<Measured>> others) implements Predictor {
  public static final String NAME = "workload_transfer";

  public WorkloadTransfer {
    others = others.stream().map(List::copyOf).toList();
  }

  /**
   * The predictor for {@code workload}: every other workload of {@code byWorkload} lends its configurations.
   *
   * @param byWorkload each workload's measured configurations ({@link #measured})
   */
  public static WorkloadTransfer of(String workload, Map<String, List<Measured>> byWorkload) {
    List<List<Measured>> others = new ArrayList<>();
    new TreeMap<>(byWorkload).forEach((w, measured) -> {
      if (!w.equals(workload)) {
        others.add(measured);
      }
    });
    return new WorkloadTransfer(others);
  }

  /** Each workload's measured configurations ({@link Harness#configurations}), by workload id. */
  public static Map<String, List<Measured>> measured(List<Run> runs) {
    Map<String, List<Run>> byWorkload = new TreeMap<>();
    runs.forEach(r -> byWorkload.computeIfAbsent(r.workloadId(), k -> new ArrayList<>()).add(r));
    Map<String, List<Measured>> out = new TreeMap<>();
    byWorkload.forEach((w, rs) -> out.put(w, Harness.configurations(rs)));
    return out;
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
    Configuration own = target.configuration();
    List<Measured> anchors = RatioTransfer.anchors(training, target);
    for (Measured anchor : anchors) {
      double logSum = 0;
      int workloads = 0;
      for (List<Measured> other : others) {
        Measured atTarget = at(other, own);
        Measured atAnchor = at(other, anchor.configuration());
        if (atTarget != null && atAnchor != null) {
          logSum += Math.log(anchor.actualS()) + Math.log(atTarget.actualS()) - Math.log(atAnchor.actualS());
          workloads++;
        }
      }
      if (workloads > 0) {
        return Estimate.of(Math.exp(logSum / workloads));
      }
    }
    return Estimate.none(String.format(Locale.ROOT, "Cannot predict by workload transfer: no other workload measured "
        + "both the target's configuration and one of its series' %d configurations in training (%d other "
        + "workloads)", anchors.size(), others.size()));
  }

  private static Measured at(List<Measured> workload, Configuration configuration) {
    for (Measured m : workload) {
      if (m.configuration().equals(configuration)) {
        return m;
      }
    }
    return null;
  }
}
