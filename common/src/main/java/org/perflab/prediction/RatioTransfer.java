package org.perflab.prediction;

import java.util.Comparator;
import java.util.TreeMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The target's own series carried to the target's task slots by the speed-up another series measured between the
 * same two slot counts: t(S, n) = t(S, n′) · t(S′, n) ÷ t(S′, n′), S the target's series ({@link
 * Configuration#sameSeries}), n′ the series' measured slot count nearest n (|log ratio|; the next nearest where no other series measured both),
 * S′ every other series that measured both n and n′. The estimates of all such S′ are averaged geometrically. No law is assumed: the shape of the
 * scaling curve, cliffs included, is the one another input size or machine measured, so it holds where series of a
 * workload scale alike and fails where they do not (then its inner errors say so and the selection passes it by).
 */
public record RatioTransfer() implements Predictor {
  public static final String NAME = "transfer";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Estimate predict(List<Measured> training, Target target) {
    Configuration own = target.configuration();
    Map<Configuration, Map<Integer, Measured>> others = new TreeMap<>();
    training.stream().filter(m -> !m.configuration().sameSeries(own)).forEach(m ->
        others.computeIfAbsent(seriesKey(m.configuration()), k -> new TreeMap<>()).put(m.totalCores(), m));
    List<Measured> anchors = anchors(training, target);
    for (Measured anchor : anchors) {
      Estimate e = transfer(anchor, others, target);
      if (e.present()) {
        return e;
      }
    }
    return Estimate.none(String.format(Locale.ROOT, "Cannot predict by transfer: no other series measured both %d "
        + "task slots and a slot count of the target's series (%d of its configurations in training)",
        target.totalCores(), anchors.size()));
  }

  /**
   * The training configurations of the target's series, nearest the target's task slots first (|log ratio|, then
   * fewer slots): the anchors a transfer carries to the target.
   */
  static List<Measured> anchors(List<Measured> training, Target target) {
    return training.stream().filter(m -> m.configuration().sameSeries(target.configuration()))
        .sorted(Comparator.<Measured>comparingDouble(m -> Nearest.logDistance(m.totalCores(), target.totalCores()))
            .thenComparingInt(Measured::totalCores)).toList();
  }

  /** The geometric mean of t(anchor) · t(S′, n) ÷ t(S′, n′) over the series S′ that measured both slot counts. */
  private static Estimate transfer(Measured anchor, Map<Configuration, Map<Integer, Measured>> others, Target target) {
    double logSum = 0;
    int pairs = 0;
    for (Map<Integer, Measured> series : others.values()) {
      Measured atTarget = series.get(target.totalCores());
      Measured atAnchor = series.get(anchor.totalCores());
      if (atTarget != null && atAnchor != null) {
        logSum += Math.log(anchor.actualS()) + Math.log(atTarget.actualS()) - Math.log(atAnchor.actualS());
        pairs++;
      }
    }
    return pairs == 0 ? Estimate.none("no pair") : Estimate.of(Math.exp(logSum / pairs));
  }

  /** A series' identity: its configuration without the executor count. */
  private static Configuration seriesKey(Configuration c) {
    return new Configuration(c.sizeClass(), 0, c.coresPerExecutor(), c.executorMemoryBytes());
  }
}
