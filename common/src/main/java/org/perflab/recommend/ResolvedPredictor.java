package org.perflab.recommend;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.perflab.prediction.Harness;
import org.perflab.prediction.InnerErrors;
import org.perflab.prediction.Predictor;
import org.perflab.prediction.Predictors;
import org.perflab.prediction.Run;
import org.perflab.prediction.Selection;

/**
 * The harness predictor {@code recommend} uses for a workload: the one {@code predictor_choice} names when it is a
 * runtime predictor ({@link Predictors#runtimeOnly()}); otherwise (no choice, or a simulator-family or regression
 * choice, which need models {@code recommend} does not rebuild) the harness's choice among the runtime predictors,
 * made now on the workload's runs.
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
    List<Predictor> runtime = Predictors.runtimeOnly();
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
        : "predictor_choice chose " + chosen + ", which needs models recommend does not rebuild";
    return now.flatMap(c -> runtime.stream().filter(p -> p.name().equals(c.predictor())).findFirst()
        .map(p -> new ResolvedPredictor(p, String.format(Locale.ROOT, "%s chosen now by the harness among the "
            + "runtime predictors (%s): %s", p.name(), why, c.reason()), fallbacks(choice, runtime, p.name()))));
  }

  private static List<Predictor> fallbacks(Harness.WorkloadChoice choice, List<Predictor> runtime, String chosen) {
    return choice.inner().stream().filter(i -> i.predicted() > 0 && !i.predictor().equals(chosen))
        .sorted(java.util.Comparator.comparingDouble(InnerErrors::meanAbsErrorPct))
        .flatMap(i -> runtime.stream().filter(p -> p.name().equals(i.predictor())).findFirst().stream()).toList();
  }
}
