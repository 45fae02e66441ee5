package org.perflab.recommend;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.perflab.prediction.Run;
import org.perflab.prediction.Stats;
import org.perflab.prediction.WorkloadTransfer;

/**
 * The recommendations of one workload, one per input-size class: with the harness's predictor where the workload's
 * runs allow one ({@link ResolvedPredictor}), else with the simulator sweep's points of that class, else a row with
 * the reason. Pure: no Spark, no I/O.
 */
public final class WorkloadRecommender {
  private WorkloadRecommender() {}

  /**
   * A size class of the workload as the {@code workloads} table has it.
   *
   * @param sizeClass the class
   * @param runs applications of the class, usable or not
   * @param inputBytes their median input bytes
   */
  public record SizeClassRuns(int sizeClass, int runs, long inputBytes) implements java.io.Serializable {}

  /**
   * What else is known about the workload.
   *
   * @param chosenPredictor {@code predictor_choice.predictor}; null without a row
   * @param chosenReason {@code predictor_choice.reason}; null likewise
   * @param memory the memory to set, or one with a null size meaning "each candidate's observed memory"
   * @param sweep the sweep's points of the workload, every class
   * @param shuffleBytes median shuffle bytes read per run, by size class; absent classes unknown
   * @param notes evidence of the workload (findings)
   * @param classNotes evidence by size class (the scaling fit)
   * @param lent the other workloads' runs, lent to the workload's {@code workload_transfer}; null when none are read
   * @param sparkVersion the Spark version of the workload's latest run, whose keys the arguments use; null unknown
   */
  public record Context(String chosenPredictor, String chosenReason, Memory memory, List<SweptPoint> sweep,
      Map<Integer, Long> shuffleBytes, List<String> notes, Map<Integer, String> classNotes, WorkloadTransfer lent,
      String sparkVersion) implements java.io.Serializable {}

  /** The rows of {@code workloadId}, one per class of {@code classes}. */
  public static List<Recommendation> recommend(String workloadId, List<Run> runs, List<SizeClassRuns> classes,
      Context context, Objective objective, Prices prices) {
    Optional<ResolvedPredictor> predictor = runs.isEmpty() ? Optional.empty()
        : ResolvedPredictor.resolve(workloadId, context.chosenPredictor(), context.chosenReason(), runs,
            context.lent());
    List<Recommendation> out = new ArrayList<>();
    for (SizeClassRuns c : classes) {
      out.add(recommendClass(workloadId, runs, c, predictor, context, objective, prices));
    }
    return out;
  }

  /** The chosen predictor's recommendation, or, where it predicts no candidate of the class, the first fallback's. */
  private static Recommendation withHarness(Recommender.Subject s, List<Run> runs, ResolvedPredictor resolved,
      Objective objective, Prices prices) {
    ResolvedPredictor.Predicted predicted = resolved.candidates(runs, CandidateGrid.of(runs, s.sizeClass()),
        s.inputBytes());
    return Recommender.recommend(s, predicted.candidates(), predicted.predictor().name(), predicted.evidence(),
        objective, prices);
  }

  private static Recommendation recommendClass(String workloadId, List<Run> runs, SizeClassRuns c,
      Optional<ResolvedPredictor> predictor, Context context, Objective objective, Prices prices) {
    List<Run> inClass = runs.stream().filter(r -> r.configuration().sizeClass() == c.sizeClass()).toList();
    long inputBytes = inClass.isEmpty() ? c.inputBytes()
        : Math.round(Stats.median(inClass.stream().mapToDouble(Run::inputBytes).toArray()));
    List<String> notes = new ArrayList<>(context.notes());
    Optional.ofNullable(context.classNotes().get(c.sizeClass())).ifPresent(notes::add);
    Recommender.Subject subject = new Recommender.Subject(workloadId, c.sizeClass(), inputBytes, c.runs(),
        context.memory(), context.shuffleBytes().get(c.sizeClass()), notes, context.sparkVersion());
    if (predictor.isPresent()) {
      return withHarness(subject, runs, predictor.get(), objective, prices);
    }
    List<SweptPoint> points = context.sweep().stream().filter(p -> p.sizeClass() == c.sizeClass()).toList();
    List<Candidate> swept = points.stream().map(SweptPoint::candidate).toList();
    if (!swept.isEmpty()) {
      return Recommender.recommend(subject, swept, SweptPoint.PREDICTOR, String.format(Locale.ROOT, "the simulator "
          + "sweep (sweep_results, %d points of this class%s): no harness predictor for %d usable runs", swept.size(),
          rules(points), runs.size()), objective, prices);
    }
    String reason = runs.isEmpty()
        ? String.format(Locale.ROOT, "Cannot recommend a configuration: none of the workload's %d runs of this class "
            + "completed with a duration and executor information, and sweep_results has no point of this class "
            + "(at least 1 usable run or sweep point)", c.runs())
        : String.format(Locale.ROOT, "Cannot recommend a configuration: no runtime predictor can predict the "
            + "workload's %d usable runs from each other, and sweep_results has no point of this class (a harness "
            + "predictor or a sweep point)", runs.size());
    return Recommendation.none(workloadId, c.sizeClass(), inputBytes, c.runs(), 0, prices.unit(),
        objective.describe(), null, "memory: " + context.memory().source(), reason);
  }

  /** ", rules a, b": the scaling rules that simulated {@code points}, sorted; empty when none is recorded. */
  private static String rules(List<SweptPoint> points) {
    List<String> rules = points.stream().map(SweptPoint::rule).filter(Objects::nonNull).distinct().sorted()
        .toList();
    return rules.isEmpty() ? "" : (rules.size() == 1 ? ", rule " : ", rules ") + String.join(", ", rules);
  }
}
