package org.perflab.recommend;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.perflab.prediction.Configuration;
import org.perflab.prediction.Harness;
import org.perflab.prediction.InnerErrors;
import org.perflab.prediction.Predictor;
import org.perflab.prediction.Predictors;
import org.perflab.prediction.Run;
import org.perflab.prediction.Selection;
import org.perflab.prediction.WorkloadTransfer;

/**
 * The harness predictor {@code recommend} uses for a workload: the one {@code predictor_choice} names when it is a
 * runtime predictor ({@link Predictors#runtimeOnly()}, and {@code workload_transfer} when the other workloads' runs
 * are lent); otherwise (no choice, or a simulator-family or regression choice, which need the runs' models or fits
 * that {@code recommend} does not rebuild) the harness's choice among the runtime predictors, made now on the
 * workload's runs. Its {@code blend} is the runtime predictors' ({@code evaluate}'s also weighs {@code stages}).
 *
 * @param predictor the predictor
 * @param evidence how it was chosen, in words
 * @param fallbacks the other runtime predictors that could predict some of the workload's configurations from the
 *     others, lowest inner mean absolute error first: used, in turn, for a size class {@code predictor} cannot
 *     predict (a law outside its series)
 */
public record ResolvedPredictor(Predictor predictor, String evidence, List<Predictor> fallbacks)
    implements java.io.Serializable {

  /**
   * The predictor for {@code workloadId}.
   *
   * @param chosen {@code predictor_choice.predictor} for the workload; null when there is none
   * @param chosenReason {@code predictor_choice.reason}; null likewise
   * @param runs the workload's runs
   * @return empty when no runtime predictor can predict any of the workload's configurations from the others
   */
  public static Optional<ResolvedPredictor> resolve(String workloadId, String chosen, String chosenReason,
      List<Run> runs) {
    return resolve(workloadId, chosen, chosenReason, runs, null);
  }

  /**
   * {@link #resolve(String, String, String, List)} with the other workloads' runs lent to {@code workload_transfer}:
   * it is then one of the runtime predictors (a choice of it is used, and the blend weighs it, as in {@code
   * evaluate}).
   *
   * @param lent the data set's other workloads' runs, for {@code workloadId}; null when there are none to read
   */
  public static Optional<ResolvedPredictor> resolve(String workloadId, String chosen, String chosenReason,
      List<Run> runs, WorkloadTransfer lent) {
    List<Predictor> runtime = lent == null ? Predictors.runtimeOnly() : Predictors.all(null, lent);
    Harness.WorkloadChoice choice = Harness.choose(workloadId, runs, runtime);
    if (chosen != null) {
      Optional<Predictor> named = runtime.stream().filter(p -> p.name().equals(chosen)).findFirst();
      if (named.isPresent()) {
        return Optional.of(new ResolvedPredictor(named.get(), "predictor_choice: " + chosen
            + (chosenReason == null ? "" : " (" + chosenReason + ")"), fallbacks(choice, runtime, chosen)));
      }
    }
    Optional<Selection.Choice> now = choice.choice();
    String why = chosen == null ? "no predictor_choice row"
        : "predictor_choice chose " + chosen + ", which needs what recommend does not read (the runs' models, the "
            + "regressions' fits or, without them, the other workloads' runs)";
    return now.flatMap(c -> runtime.stream().filter(p -> p.name().equals(c.predictor())).findFirst()
        .map(p -> new ResolvedPredictor(p, String.format(Locale.ROOT, "%s chosen now by the harness among the "
            + "runtime predictors (%s): %s", p.name(), why, c.reason()), fallbacks(choice, runtime, p.name()))));
  }

  /**
   * Candidates predicted by one predictor, and which.
   *
   * @param predictor the predictor that predicted them
   * @param candidates the configurations it could predict, with their predictions
   * @param evidence how the predictor was chosen, in words
   */
  public record Predicted(Predictor predictor, List<Candidate> candidates, String evidence) {}

  /**
   * {@code configurations} predicted at {@code inputBytes} ({@link Recommender#predict}) by the predictor, or, where
   * it predicts none of them, by the first of the {@link #fallbacks} that predicts some. {@code recommend} and its
   * check ({@link RecommendCheck}) both predict this way.
   *
   * @param runs the training runs
   */
  public Predicted candidates(List<Run> runs, List<Configuration> configurations, long inputBytes) {
    List<Candidate> own = Recommender.predict(predictor, runs, configurations, inputBytes);
    if (own.isEmpty()) {
      for (Predictor fallback : fallbacks) {
        List<Candidate> next = Recommender.predict(fallback, runs, configurations, inputBytes);
        if (!next.isEmpty()) {
          return new Predicted(fallback, next, lookupNote(fallback, String.format(Locale.ROOT, "%s predicts no "
              + "candidate of this class, so %s, the runtime predictor with the next lowest inner error; %s",
              predictor.name(), fallback.name(), evidence)));
        }
      }
    }
    return new Predicted(predictor, own, lookupNote(predictor, evidence));
  }

  private static String lookupNote(Predictor used, String evidence) {
    return used.modelsConfiguration() ? evidence : evidence + "; " + used.name() + " is a lookup, so only the "
        + "measured configurations are ranked, each at its measured median runtime";
  }

  private static List<Predictor> fallbacks(Harness.WorkloadChoice choice, List<Predictor> runtime, String chosen) {
    return choice.inner().stream().filter(i -> i.predicted() > 0 && !i.predictor().equals(chosen))
        .sorted(java.util.Comparator.comparingDouble(InnerErrors::meanAbsErrorPct))
        .flatMap(i -> runtime.stream().filter(p -> p.name().equals(i.predictor())).findFirst().stream()).toList();
  }
}
