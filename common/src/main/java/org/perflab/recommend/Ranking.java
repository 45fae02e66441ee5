package org.perflab.recommend;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The order in which {@code recommend} prefers candidates under an {@link Objective}: the eligible ones (within
 * {@link Objective#TOLERANCE} of the fastest prediction, or meeting the deadline at p90) cheapest first, then the
 * others fastest first (by p90 with a deadline). Ties go to the faster, then to fewer executors, then to fewer cores
 * per executor. The first is the recommendation when it is eligible.
 *
 * @param order every allowed candidate, most preferred first
 * @param chosen the recommendation; empty when no candidate is eligible
 * @param reason why there is none ("Cannot ..."); null when there is one
 * @param excluded candidates left out by {@code --max-executors}
 */
public record Ranking(List<Priced> order, Optional<Priced> chosen, String reason, int excluded)
    implements java.io.Serializable {

  /** Ranks {@code candidates} under {@code objective}. */
  public static Ranking rank(List<Priced> candidates, Objective objective) {
    List<Priced> allowed = candidates.stream().filter(p -> objective.allows(p.candidate().executors())).toList();
    int excluded = candidates.size() - allowed.size();
    if (allowed.isEmpty()) {
      return new Ranking(List.of(), Optional.empty(), String.format(Locale.ROOT, "Cannot recommend a "
          + "configuration: none of the %d candidates has at most --max-executors %d executors (a bound >= the "
          + "fewest candidate executors)", candidates.size(), objective.maxExecutors().orElse(0)), excluded);
    }
    double fastest = allowed.stream().mapToDouble(p -> p.candidate().predictedS()).min().orElseThrow();
    List<Priced> eligible = new ArrayList<>();
    List<Priced> rest = new ArrayList<>();
    for (Priced p : allowed) {
      (eligible(p, objective, fastest) ? eligible : rest).add(p);
    }
    Comparator<Priced> bySpeed = Comparator.comparingDouble(p -> objective.deadlineS().isPresent()
        ? p.candidate().p90S() : p.candidate().predictedS());
    Comparator<Priced> tieBreak = bySpeed.thenComparingInt(p -> p.candidate().executors())
        .thenComparingInt(p -> p.candidate().coresPerExecutor());
    eligible.sort(Comparator.comparingDouble(Priced::cost).thenComparing(tieBreak));
    rest.sort(tieBreak.thenComparingDouble(Priced::cost));
    List<Priced> order = new ArrayList<>(eligible);
    order.addAll(rest);
    if (eligible.isEmpty()) {
      Priced best = rest.get(0);
      return new Ranking(order, Optional.empty(), String.format(Locale.ROOT, "Cannot meet the deadline: the "
          + "fastest candidate at p90, %d executors × %d cores, is predicted to take %.1f s (a deadline >= %.1f s)",
          best.candidate().executors(), best.candidate().coresPerExecutor(), best.candidate().p90S(),
          best.candidate().p90S()), excluded);
    }
    return new Ranking(List.copyOf(order), Optional.of(eligible.get(0)), null, excluded);
  }

  private static boolean eligible(Priced p, Objective objective, double fastestS) {
    return objective.deadlineS().map(d -> p.candidate().p90S() <= d)
        .orElse(p.candidate().predictedS() <= (1 + Objective.TOLERANCE) * fastestS);
  }
}
