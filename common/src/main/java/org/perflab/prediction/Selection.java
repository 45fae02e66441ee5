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
 * order. With no inner evidence at all (too few configurations), the first candidate in that order wins. For one
 * target, the comparison is first on the training configurations in the target's {@link ScalingRegion} (below, among
 * or above its series' task slots, or alone), since a predictor that interpolates well may extrapolate badly.
 */
public final class Selection {
  /** Fewest common configurations the comparison needs. */
  public static final int MIN_COMMON = 2;

  private Selection() {}

  /** Which training configurations the selection for one target compares the candidates on. */
  public enum Evidence {
    /** All of them (issue 11's rule). */
    ALL_TRAINING,
    /** Those in the target's {@link ScalingRegion} first, all of them where none are common to the candidates. */
    TARGET_REGION
  }

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
   * The choice among {@code candidates}, given in the harness's order, compared on all the training configurations
   * (what {@code predictor_choice} records, with no target).
   *
   * @return empty when there is no candidate
   */
  public static Optional<Choice> choose(List<InnerErrors> candidates) {
    return choose(candidates, Set.of());
  }

  /**
   * The choice among {@code candidates} for one target, compared on the training configurations of {@code region}
   * (those in the target's {@link ScalingRegion}): while fewer than {@value #MIN_COMMON} of them (or all of them,
   * when fewer exist) are common to the remaining candidates, the candidate that predicted fewest of them drops out.
   * With no such configuration, or none common, the comparison is on all the training configurations as {@link
   * #choose(List)} makes it.
   *
   * @param region the training configurations in the target's region; empty to compare on all of them
   * @return empty when there is no candidate
   */
  public static Optional<Choice> choose(List<InnerErrors> candidates, Set<Configuration> region) {
    if (candidates.isEmpty()) {
      return Optional.empty();
    }
    if (!region.isEmpty()) {
      Optional<Choice> regional = compare(candidates, region, Math.min(MIN_COMMON, region.size()), " in the "
          + "target's region");
      if (regional.isPresent()) {
        return regional;
      }
    }
    List<InnerErrors> pool = narrow(candidates, null, MIN_COMMON);
    Set<Configuration> common = common(pool, null);
    if (common.isEmpty()) {
      InnerErrors first = pool.stream().filter(c -> c.predicted() > 0).findFirst().orElse(candidates.get(0));
      return Optional.of(new Choice(first.predictor(), first.predicted() > 0
          ? "the only predictor that could predict training configurations from the others"
          : "no training configuration could be predicted from the others, so the first predictor in the documented "
              + "order that can predict this one", first.predicted() > 0 ? first.meanAbsErrorPct() : Double.NaN));
    }
    return compare(candidates, null, MIN_COMMON, "");
  }

  /**
   * The lowest inner error on the configurations of {@code among} (null: all) common to the candidates left once
   * those that predicted fewest have dropped out until {@code need} are common; empty when none are.
   */
  private static Optional<Choice> compare(List<InnerErrors> candidates, Set<Configuration> among, int need,
      String where) {
    List<InnerErrors> pool = narrow(candidates, among, need);
    Set<Configuration> compared = common(pool, among);
    if (compared.isEmpty()) {
      return Optional.empty();
    }
    InnerErrors best = pool.stream()
        .min(Comparator.comparingDouble(c -> c.meanAbsErrorPct(compared))).orElseThrow();
    String others = pool.stream().filter(c -> c != best)
        .sorted(Comparator.comparingDouble(c -> c.meanAbsErrorPct(compared))).limit(2)
        .map(c -> String.format(Locale.ROOT, "%s %.1f %%", c.predictor(), c.meanAbsErrorPct(compared)))
        .collect(Collectors.joining(", "));
    String reason = String.format(Locale.ROOT, "lowest leave-one-configuration-out error on the %d training "
            + "configurations%s that %d candidates could all predict: %.1f %%%s", compared.size(), where,
        pool.size(), best.meanAbsErrorPct(compared), others.isEmpty() ? "" : " (next: " + others + ")");
    return Optional.of(new Choice(best.predictor(), reason, best.meanAbsErrorPct(compared)));
  }

  /** {@code candidates} less those that predicted fewest of {@code among}, until {@code need} are common to all. */
  private static List<InnerErrors> narrow(List<InnerErrors> candidates, Set<Configuration> among, int need) {
    List<InnerErrors> pool = new ArrayList<>(candidates);
    while (common(pool, among).size() < need && pool.size() > 1) {
      InnerErrors fewest = pool.get(0);
      for (InnerErrors c : pool) {
        if (count(c, among) <= count(fewest, among)) {
          fewest = c;
        }
      }
      pool.remove(fewest);
    }
    return pool;
  }

  private static long count(InnerErrors c, Set<Configuration> among) {
    return among == null ? c.predicted() : c.configurations().stream().filter(among::contains).count();
  }

  /** The configurations of {@code among} (null: all) that every member of {@code pool} predicted. */
  private static Set<Configuration> common(List<InnerErrors> pool, Set<Configuration> among) {
    Set<Configuration> common = new HashSet<>(pool.get(0).configurations());
    pool.forEach(c -> common.retainAll(c.configurations()));
    if (among != null) {
      common.retainAll(among);
    }
    return common;
  }
}
