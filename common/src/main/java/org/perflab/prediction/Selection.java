package org.perflab.prediction;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which predictor PerfLab uses, chosen from training configurations only, by their inner leave-one-configuration-out
 * errors ({@link InnerErrors}). Predictors are compared on the same configurations: the training configurations that
 * every remaining candidate could predict. While fewer than {@value #MIN_COMMON} such configurations exist, the
 * candidate that predicted the fewest drops out (the later one in the harness's order on a tie). Of the rest, the
 * lowest mean absolute error on the common configurations wins; ties go to the earlier predictor in the harness's
 * order. With no inner evidence at all (too few configurations), the first candidate in that order wins.
 */
public final class Selection {
  /** Fewest common configurations the comparison needs. */
  public static final int MIN_COMMON = 2;

  private Selection() {}

  /**
   * The chosen predictor and why.
   *
   * @param predictor the chosen predictor's name
   * @param reason why, in words, with the inner errors compared
   * @param innerMaePct the chosen predictor's inner mean absolute error on the compared configurations, percent; NaN
   *     without inner evidence
   */
  public record Choice(String predictor, String reason, double innerMaePct) implements java.io.Serializable {}

  /**
   * The choice among {@code candidates}, given in the harness's order.
   *
   * @return empty when there is no candidate
   */
  public static Optional<Choice> choose(List<InnerErrors> candidates) {
    if (candidates.isEmpty()) {
      return Optional.empty();
    }
    List<InnerErrors> pool = new ArrayList<>(candidates);
    Set<Configuration> common = common(pool);
    while (common.size() < MIN_COMMON && pool.size() > 1) {
      InnerErrors fewest = pool.get(0);
      for (InnerErrors c : pool) {
        if (c.predicted() <= fewest.predicted()) {
          fewest = c;
        }
      }
      pool.remove(fewest);
      common = common(pool);
    }
    if (common.isEmpty()) {
      InnerErrors first = pool.stream().filter(c -> c.predicted() > 0).findFirst().orElse(candidates.get(0));
      return Optional.of(new Choice(first.predictor(), first.predicted() > 0
          ? "the only predictor that could predict training configurations from the others"
          : "no training configuration could be predicted from the others, so the first predictor in the documented "
              + "order that can predict this one", first.predicted() > 0 ? first.meanAbsErrorPct() : Double.NaN));
    }
    Set<Configuration> compared = common;
    InnerErrors best = pool.stream()
        .min(Comparator.comparingDouble(c -> c.meanAbsErrorPct(compared))).orElseThrow();
    String others = pool.stream().filter(c -> c != best)
        .sorted(Comparator.comparingDouble(c -> c.meanAbsErrorPct(compared))).limit(2)
        .map(c -> String.format(Locale.ROOT, "%s %.1f %%", c.predictor(), c.meanAbsErrorPct(compared)))
        .collect(Collectors.joining(", "));
    String reason = String.format(Locale.ROOT, "lowest leave-one-configuration-out error on the %d training "
            + "configurations that %d candidates could all predict: %.1f %%%s", compared.size(), pool.size(),
        best.meanAbsErrorPct(compared), others.isEmpty() ? "" : " (next: " + others + ")");
    return Optional.of(new Choice(best.predictor(), reason, best.meanAbsErrorPct(compared)));
  }

  private static Set<Configuration> common(List<InnerErrors> pool) {
    Set<Configuration> common = new HashSet<>(pool.get(0).configurations());
    pool.forEach(c -> common.retainAll(c.configurations()));
    return common;
  }
}
