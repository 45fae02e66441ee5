package org.perflab.recommend;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.perflab.prediction.Configuration;
import org.perflab.prediction.Harness;
import org.perflab.prediction.Measured;
import org.perflab.prediction.Run;
import org.perflab.prediction.Stats;

/**
 * Checks {@code recommend} against measurements. For every workload and size class with at least
 * {@value #MIN_CLASS_CONFIGURATIONS} measured configurations, and each of {@value #FOLDS} folds, the fold's
 * configurations of the class (every {@value #FOLDS}th, in configuration order) are hidden: their runs are removed,
 * the predictor is chosen by the harness on the remaining runs, and every measured configuration of the class (hidden
 * or not) is predicted as {@code recommend} predicts ({@link ResolvedPredictor#candidates}: the chosen predictor, or
 * the next one where it predicts none of them), priced in core-hours and ranked by the default objective. The
 * recommendation's measured median runtime and core-hours are then compared with the measured ones of the
 * configurations ranked lower (those the predictor could not predict, which {@code recommend} would not choose, count
 * as ranked last), and with the goal: runtime within {@value #RUNTIME_SLACK_PCT} % of the class's fastest measured
 * configuration, and core-hours within {@value #COST_SLACK_PCT} % of the cheapest measured configuration within 10 %
 * of that fastest. Nothing is fitted to the measurements beyond what {@code recommend} itself fits to the visible
 * runs.
 */
public final class RecommendCheck {
  public static final int MIN_CLASS_CONFIGURATIONS = 3;
  public static final int FOLDS = 2;
  public static final int RUNTIME_SLACK_PCT = 20;
  public static final int COST_SLACK_PCT = 20;
  /** The share of checkable recommendations that must meet the goal. */
  public static final double GOAL_SHARE = 0.80;
  private static final double SECONDS_PER_HOUR = 3600.0;

  private RecommendCheck() {}

  /**
   * One checked recommendation.
   *
   * @param workloadId the workload
   * @param sizeClass the size class
   * @param fold the fold hidden
   * @param configurations measured configurations of the class
   * @param hidden of them hidden
   * @param predictor the predictor that predicted the candidates, chosen on the visible runs
   * @param recommended the recommended configuration
   * @param measuredS its measured median runtime, seconds
   * @param fastestS the class's fastest measured median runtime, seconds
   * @param coreHours its measured core·h (total cores × measured runtime)
   * @param cheapestNearFastestCoreHours the fewest measured core·h among configurations within 10 % of the fastest
   * @param lowerRuntimeRatios measured runtime of the recommendation ÷ that of each configuration ranked lower or
   *     not ranked
   * @param lowerCostRatios measured core·h of the recommendation ÷ that of each configuration ranked lower or not
   *     ranked
   */
  public record Outcome(String workloadId, int sizeClass, int fold, int configurations, int hidden, String predictor,
      Configuration recommended, double measuredS, double fastestS, double coreHours,
      double cheapestNearFastestCoreHours, double[] lowerRuntimeRatios, double[] lowerCostRatios) {

    /** Whether the recommendation meets both goals. */
    public boolean meetsGoal() {
      return measuredS <= (1 + RUNTIME_SLACK_PCT / 100.0) * fastestS
          && coreHours <= (1 + COST_SLACK_PCT / 100.0) * cheapestNearFastestCoreHours;
    }
  }

  /**
   * The check over every workload.
   *
   * @param outcomes one per checked recommendation
   * @param unchecked why each class and fold that could not be checked was not, "workload/class/fold: reason"
   */
  public record Report(List<Outcome> outcomes, List<String> unchecked) {

    /** The share of checked recommendations meeting the goal; NaN for none. */
    public double goalShare() {
      return outcomes.isEmpty() ? Double.NaN
          : outcomes.stream().filter(Outcome::meetsGoal).count() / (double) outcomes.size();
    }

    /** Whether at least {@link #GOAL_SHARE} of the checked recommendations meet the goal. */
    public boolean meetsGoal() {
      return !outcomes.isEmpty() && goalShare() >= GOAL_SHARE;
    }

    /** The report in words. */
    public List<String> lines() {
      double[] runtime = outcomes.stream().flatMapToDouble(o -> java.util.Arrays.stream(o.lowerRuntimeRatios()))
          .toArray();
      double[] cost = outcomes.stream().flatMapToDouble(o -> java.util.Arrays.stream(o.lowerCostRatios())).toArray();
      List<String> out = new ArrayList<>();
      out.add(String.format(Locale.ROOT, "checked %d recommendations (%d classes and folds not checkable); %.0f %% "
          + "meet the goal (runtime within %d %% of the fastest measured, core-hours within %d %% of the cheapest "
          + "within 10 %% of it; at least %.0f %% wanted)", outcomes.size(), unchecked.size(), 100 * goalShare(),
          RUNTIME_SLACK_PCT, COST_SLACK_PCT, 100 * GOAL_SHARE));
      out.add(pairs("runtime", runtime));
      out.add(pairs("core-hours", cost));
      outcomes.forEach(o -> out.add(String.format(Locale.ROOT, "  %s class %d fold %d: %s chose %d×%d, %.1f s "
              + "(fastest %.1f s), %.4f core-h (cheapest near fastest %.4f)%s", o.workloadId(), o.sizeClass(),
          o.fold(), o.predictor(), o.recommended().executors(), o.recommended().coresPerExecutor(), o.measuredS(),
          o.fastestS(), o.coreHours(), o.cheapestNearFastestCoreHours(), o.meetsGoal() ? "" : "  MISSES the goal")));
      return out;
    }

    private static String pairs(String what, double[] ratios) {
      long noWorse = java.util.Arrays.stream(ratios).filter(r -> r <= 1.0).count();
      double[] worse = java.util.Arrays.stream(ratios).filter(r -> r > 1.0).map(r -> 100 * (r - 1)).toArray();
      return String.format(Locale.ROOT, "%s: no worse than %d of the %d configurations ranked lower (%.0f %%); "
              + "where worse, by %.1f %% median, %.1f %% at most", what, noWorse, ratios.length,
          ratios.length == 0 ? Double.NaN : 100.0 * noWorse / ratios.length,
          worse.length == 0 ? 0.0 : Stats.median(worse),
          java.util.Arrays.stream(worse).max().orElse(0.0));
    }
  }

  /** Checks every workload of {@code runs}. */
  public static Report check(List<Run> runs) {
    Map<String, List<Run>> byWorkload = Harness.byWorkload(runs);
    List<Outcome> outcomes = new ArrayList<>();
    List<String> unchecked = new ArrayList<>();
    byWorkload.forEach((w, rs) -> checkWorkload(w, rs, outcomes, unchecked));
    return new Report(outcomes, unchecked);
  }

  private static void checkWorkload(String workloadId, List<Run> runs, List<Outcome> outcomes,
      List<String> unchecked) {
    Map<Integer, List<Measured>> byClass = Harness.configurations(runs).stream().collect(Collectors.groupingBy(
        m -> m.configuration().sizeClass(), TreeMap::new, Collectors.toList()));
    byClass.forEach((sizeClass, measured) -> {
      if (measured.size() < MIN_CLASS_CONFIGURATIONS) {
        return;
      }
      for (int fold = 0; fold < FOLDS; fold++) {
        String where = workloadId + "/" + sizeClass + "/" + fold + ": ";
        checkFold(workloadId, sizeClass, fold, runs, measured).ifPresentOrElse(outcomes::add,
            () -> unchecked.add(where + "no recommendation"));
      }
    });
  }

  private static Optional<Outcome> checkFold(String workloadId, int sizeClass, int fold, List<Run> runs,
      List<Measured> measured) {
    List<Configuration> hidden = new ArrayList<>();
    for (int i = fold; i < measured.size(); i += FOLDS) {
      hidden.add(measured.get(i).configuration());
    }
    List<Run> visible = runs.stream().filter(r -> !hidden.contains(r.configuration())).toList();
    if (Harness.configurations(visible).size() < Harness.MIN_CONFIGURATIONS) {
      return Optional.empty();
    }
    Optional<ResolvedPredictor> predictor = ResolvedPredictor.resolve(workloadId, null, null, visible);
    if (predictor.isEmpty()) {
      return Optional.empty();
    }
    long inputBytes = Math.round(Stats.median(measured.stream().flatMap(m -> m.members().stream())
        .mapToDouble(Run::inputBytes).toArray()));
    List<Configuration> all = measured.stream().map(Measured::configuration).toList();
    ResolvedPredictor.Predicted predicted = predictor.get().candidates(visible, all, inputBytes);
    List<Priced> priced = predicted.candidates().stream()
        .map(c -> Priced.of(c, new Memory(null, null, "observed"), Prices.coreHoursOnly())).toList();
    Ranking ranking = Ranking.rank(priced, Objective.cheapestNearFastest());
    return ranking.chosen().map(chosen -> outcome(workloadId, sizeClass, fold, measured, hidden.size(),
        predicted.predictor().name(), ranking));
  }

  private static Outcome outcome(String workloadId, int sizeClass, int fold, List<Measured> measured, int hidden,
      String predictor, Ranking ranking) {
    Map<String, Measured> byShape = new TreeMap<>();
    measured.forEach(m -> byShape.put(key(m.configuration().executors(), m.configuration().coresPerExecutor(),
        m.configuration().executorMemoryBytes()), m));
    List<Measured> order = ranking.order().stream().map(p -> byShape.get(key(p.candidate().executors(),
        p.candidate().coresPerExecutor(), p.candidate().executorMemoryBytes()))).toList();
    Measured rec = order.get(0);
    double fastest = measured.stream().mapToDouble(Measured::actualS).min().orElseThrow();
    double cheapest = measured.stream().filter(m -> m.actualS() <= (1 + Objective.TOLERANCE) * fastest)
        .mapToDouble(RecommendCheck::coreHours).min().orElseThrow();
    List<Measured> lower = new ArrayList<>(order.subList(1, order.size()));
    measured.stream().filter(m -> !order.contains(m)).forEach(lower::add);
    return new Outcome(workloadId, sizeClass, fold, measured.size(), hidden, predictor, rec.configuration(),
        rec.actualS(), fastest, coreHours(rec), cheapest,
        lower.stream().mapToDouble(l -> rec.actualS() / l.actualS()).toArray(),
        lower.stream().mapToDouble(l -> coreHours(rec) / coreHours(l)).toArray());
  }

  private static double coreHours(Measured m) {
    return m.totalCores() * m.actualS() / SECONDS_PER_HOUR;
  }

  private static String key(int executors, int cores, Long memory) {
    return executors + "x" + cores + "x" + memory;
  }
}
