package org.perflab.prediction;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The evaluation harness for one workload: every configuration in turn is held out and predicted by every predictor
 * from the workload's other configurations (all input sizes). Nothing measured at the held-out configuration reaches
 * its prediction: the predictors, their intervals ({@link InnerErrors}) and the selection ({@link Selection}) all see
 * only the other configurations.
 */
public final class Harness {
  /** Fewest configurations a workload needs to be evaluated. */
  public static final int MIN_CONFIGURATIONS = 3;

  private Harness() {}

  /**
   * A workload's evaluation: its rows, or why it was skipped.
   *
   * @param workloadId the workload
   * @param configurations configurations measured
   * @param rows one per held-out configuration and predictor
   * @param skipReason why the workload was not evaluated; null when it was
   */
  public record WorkloadEvaluation(String workloadId, int configurations, List<PredictionRow> rows,
      String skipReason) implements java.io.Serializable {}

  /**
   * The predictor chosen for a workload when trained on all its configurations.
   *
   * @param workloadId the workload
   * @param configurations configurations measured
   * @param choice the choice, empty when no predictor can predict any configuration
   * @param inner every predictor's inner errors over all the configurations
   */
  public record WorkloadChoice(String workloadId, int configurations, Optional<Selection.Choice> choice,
      List<InnerErrors> inner) implements java.io.Serializable {}

  /** {@code runs} grouped by workload, in workload order; each workload's runs in their order in {@code runs}. */
  public static Map<String, List<Run>> byWorkload(List<Run> runs) {
    Map<String, List<Run>> by = new TreeMap<>();
    runs.forEach(r -> by.computeIfAbsent(r.workloadId(), k -> new ArrayList<>()).add(r));
    return by;
  }

  /** The runs of one workload grouped by configuration, in configuration order. */
  public static List<Measured> configurations(List<Run> runs) {
    Map<Configuration, List<Run>> by = new TreeMap<>();
    runs.forEach(r -> by.computeIfAbsent(r.configuration(), k -> new ArrayList<>()).add(r));
    List<Measured> out = new ArrayList<>();
    by.forEach((c, rs) -> out.add(Measured.of(c, rs)));
    return out;
  }

  /** Holds out each configuration of {@code runs} (one workload) in turn and predicts it with every predictor. */
  public static WorkloadEvaluation evaluate(String workloadId, List<Run> runs, List<Predictor> predictors) {
    return evaluate(workloadId, runs, predictors, Selection.Evidence.TARGET_REGION);
  }

  /** Like {@link #evaluate(String, List, List)}, with the selection comparing on {@code evidence}. */
  public static WorkloadEvaluation evaluate(String workloadId, List<Run> runs, List<Predictor> predictors,
      Selection.Evidence evidence) {
    List<Measured> all = configurations(runs);
    Optional<WorkloadEvaluation> skipped = skipped(workloadId, all.size());
    if (skipped.isPresent()) {
      return skipped.get();
    }
    List<PredictionRow> rows = new ArrayList<>();
    for (int h = 0; h < all.size(); h++) {
      List<Measured> training = new ArrayList<>(all);
      Measured held = training.remove(h);
      rows.addAll(holdOut(workloadId, held, training, predictors, evidence));
    }
    return new WorkloadEvaluation(workloadId, all.size(), rows, null);
  }

  /**
   * Holds out the {@code heldOut}-th configuration of {@code runs} (one workload, configurations in {@link
   * #configurations} order) alone: one of the (workload, held-out configuration) pairs that {@link #evaluate} does in
   * turn, so that they can run apart. The rows are those {@link #evaluate} gives for that configuration.
   *
   * @param heldOut index of the configuration held out, 0 to {@link #configurations}{@code .size() - 1}
   */
  public static WorkloadEvaluation evaluate(String workloadId, List<Run> runs, List<Predictor> predictors,
      int heldOut) {
    List<Measured> all = configurations(runs);
    return skipped(workloadId, all.size()).orElseGet(() -> new WorkloadEvaluation(workloadId, all.size(),
        holdOut(workloadId, all, heldOut, predictors), null));
  }

  /** A workload's evaluation when it has fewer than {@value #MIN_CONFIGURATIONS} configurations, with the reason. */
  private static Optional<WorkloadEvaluation> skipped(String workloadId, int configurations) {
    return configurations >= MIN_CONFIGURATIONS ? Optional.empty() : Optional.of(new WorkloadEvaluation(workloadId,
        configurations, List.of(), String.format(Locale.ROOT,
            "Cannot evaluate workload %s: %d configurations (at least %d)", workloadId, configurations,
            MIN_CONFIGURATIONS)));
  }

  private static List<PredictionRow> holdOut(String workloadId, List<Measured> all, int heldOut,
      List<Predictor> predictors) {
    List<Measured> training = new ArrayList<>(all);
    Measured held = training.remove(heldOut);
    return holdOut(workloadId, held, training, predictors, Selection.Evidence.TARGET_REGION);
  }

  /** The rows of one held-out configuration: every predictor's prediction, one of them selected. */
  private static List<PredictionRow> holdOut(String workloadId, Measured held, List<Measured> training,
      List<Predictor> predictors, Selection.Evidence evidence) {
    List<PredictionRow> rows = new ArrayList<>();
    List<InnerErrors> inner = new ArrayList<>();
    List<Boolean> present = new ArrayList<>();
    for (Predictor p : predictors) {
      Estimate e = p.predict(training, held.target());
      InnerErrors errors = InnerErrors.of(p, training);
      rows.add(row(workloadId, held, p.name(), e, errors));
      inner.add(errors);
      present.add(e.present());
    }
    List<InnerErrors> candidates = candidates(predictors, inner, present);
    Optional<Selection.Choice> choice = Selection.choose(candidates, evidence == Selection.Evidence.TARGET_REGION
        ? ScalingRegion.sameAs(held.target(), training) : java.util.Set.of());
    if (choice.isEmpty()) {
      return rows;
    }
    List<PredictionRow> out = new ArrayList<>();
    for (PredictionRow r : rows) {
      boolean chosen = r.predictor().equals(choice.get().predictor());
      out.add(chosen ? r.withSelected(true, join(r.note(), "selected: " + choice.get().reason())) : r);
    }
    return out;
  }

  /** The choice for a workload trained on all its configurations (what {@code predictor_choice} records). */
  public static WorkloadChoice choose(String workloadId, List<Run> runs, List<Predictor> predictors) {
    List<Measured> all = configurations(runs);
    List<InnerErrors> inner = predictors.stream().map(p -> InnerErrors.of(p, all)).toList();
    List<Boolean> present = inner.stream().map(i -> i.predicted() > 0).toList();
    return new WorkloadChoice(workloadId, all.size(), Selection.choose(candidates(predictors, inner, present)),
        inner);
  }

  /**
   * The inner errors of the predictors the selection compares, in the harness's order: those that can predict
   * ({@code present}) and are candidates by their {@link Candidacy}. A {@link Candidacy#FALLBACK} predictor is one only
   * where no {@link Candidacy#ALWAYS} candidate that models the configuration has inner evidence (predicted at least
   * {@value Selection#MIN_COMMON} training configurations from the others).
   */
  static List<InnerErrors> candidates(List<Predictor> predictors, List<InnerErrors> inner, List<Boolean> present) {
    boolean established = false;
    for (int i = 0; i < predictors.size(); i++) {
      Predictor p = predictors.get(i);
      established |= present.get(i) && p.candidacy() == Candidacy.ALWAYS && p.modelsConfiguration()
          && inner.get(i).predicted() >= Selection.MIN_COMMON;
    }
    List<InnerErrors> out = new ArrayList<>();
    for (int i = 0; i < predictors.size(); i++) {
      Candidacy c = predictors.get(i).candidacy();
      if (present.get(i) && (c == Candidacy.ALWAYS || c == Candidacy.FALLBACK && !established)) {
        out.add(inner.get(i));
      }
    }
    return out;
  }

  private static PredictionRow row(String workloadId, Measured held, String predictor, Estimate e,
      InnerErrors inner) {
    Configuration c = held.configuration();
    if (!e.present()) {
      String note = e.note() != null ? e.note()
          : "Cannot predict with " + predictor + ": no finite positive prediction (" + e.predictedS() + ")";
      return new PredictionRow(workloadId, held.inputBytes(), c.executors(), c.coresPerExecutor(), c.totalCores(),
          c.executorMemoryBytes(), held.runs(), held.actualS(), predictor, null, null, null, null, false,
          IntervalSource.NONE, note);
    }
    double predicted = e.predictedS();
    double[] interval = inner.interval(predicted);
    IntervalSource source = interval == null ? IntervalSource.NONE : IntervalSource.RESIDUALS;
    String note = e.note();
    if (interval == null) {
      note = join(note, String.format(Locale.ROOT, "no interval: %d training configurations predicted from the "
          + "others (at least %d)", inner.predicted(), InnerErrors.MIN_FOR_INTERVAL));
    }
    return new PredictionRow(workloadId, held.inputBytes(), c.executors(), c.coresPerExecutor(), c.totalCores(),
        c.executorMemoryBytes(), held.runs(), held.actualS(), predictor, predicted,
        interval == null ? null : interval[0], interval == null ? null : interval[1],
        PredictionRow.absErrorPct(held.actualS(), predicted), false, source, note);
  }

  private static String join(String a, String b) {
    return a == null ? b : a + "; " + b;
  }
}
