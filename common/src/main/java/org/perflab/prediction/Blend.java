package org.perflab.prediction;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * A weighted combination of several predictors instead of a choice among them: the geometric mean of the members'
 * predictions for the target, each weighted by 1 ÷ e², e the member's mean absolute error, floored at
 * {@value #ERROR_FLOOR_PCT} %, on the {@value #EVIDENCE} training configurations nearest the target (by {@link
 * Nearest}'s order: input size, then task slots), each predicted from the other training configurations. The weights
 * are local: a law that extrapolates well in executors but not across input sizes weighs where the target's nearest
 * neighbours say it does. A member that cannot predict the target, or predicted fewer than {@value #MIN_EVIDENCE} of
 * those neighbours, takes no part. A member whose error is half another's weighs four times as much: where one member
 * is clearly best the blend follows it, and where several are alike it averages their independent errors.
 *
 * <p>The weights are learnt from the training configurations only, so the harness's inner errors of a blend are
 * nested (each inner prediction learns its weights from the remaining configurations) and honest. The nested inner
 * loops ask the members for the same predictions from several held-out configurations: members that are {@link Memo}s
 * (as {@link Predictors} builds them) make each once.
 */
public final class Blend implements Predictor {
  public static final String NAME = "blend";
  /** Training configurations nearest the target whose inner errors weigh the members. */
  public static final int EVIDENCE = 6;
  /** Fewest of them a member must predict to take part. */
  public static final int MIN_EVIDENCE = 2;
  /** The smallest error a weight uses, percent: no member's weight grows without bound. */
  public static final double ERROR_FLOOR_PCT = 0.5;

  private static final long serialVersionUID = 1L;
  private final String name;
  private final List<Predictor> members;
  private final int evidenceCount;

  /**
   * @param name the predictor's name
   * @param members the predictors combined
   */
  public Blend(String name, List<Predictor> members) {
    this(name, members, EVIDENCE);
  }

  /**
   * @param name the predictor's name
   * @param members the predictors combined
   * @param evidenceCount training configurations nearest the target whose inner errors weigh the members
   */
  public Blend(String name, List<Predictor> members, int evidenceCount) {
    this.name = name;
    this.members = List.copyOf(members);
    this.evidenceCount = evidenceCount;
  }

  @Override
  public String name() {
    return name;
  }

  /** The predictors combined. */
  public List<Predictor> members() {
    return members;
  }

  /** Training configurations nearest the target whose inner errors weigh the members. */
  public int evidenceCount() {
    return evidenceCount;
  }

  @Override
  public Estimate predict(List<Measured> training, Target target) {
    List<Measured> evidence = nearest(training, target);
    double weightSum = 0;
    double logSum = 0;
    int used = 0;
    for (int m = 0; m < members.size(); m++) {
      Estimate e = members.get(m).predict(training, target);
      if (!e.present()) {
        continue;
      }
      double error = innerError(m, training, evidence);
      if (Double.isNaN(error)) {
        continue;
      }
      double weight = 1 / Math.pow(Math.max(ERROR_FLOOR_PCT, error), 2);
      weightSum += weight;
      logSum += weight * Math.log(e.predictedS());
      used++;
    }
    if (used == 0) {
      return Estimate.none(String.format(Locale.ROOT, "Cannot predict by blend: none of its %d predictors can "
          + "predict this configuration and %d of its nearest training configurations from the others",
          members.size(), MIN_EVIDENCE));
    }
    return Estimate.of(Math.exp(logSum / weightSum));
  }

  /** Member {@code m}'s mean absolute error, percent, on {@code evidence}; NaN below {@value #MIN_EVIDENCE}. */
  private double innerError(int m, List<Measured> training, List<Measured> evidence) {
    double sum = 0;
    int n = 0;
    for (Measured left : evidence) {
      List<Measured> rest = new ArrayList<>(training);
      rest.remove(left);
      Estimate e = members.get(m).predict(rest, left.target());
      if (e.present()) {
        sum += PredictionRow.absErrorPct(left.actualS(), e.predictedS());
        n++;
      }
    }
    return n < MIN_EVIDENCE ? Double.NaN : sum / n;
  }

  /** The {@value #EVIDENCE} training configurations nearest {@code target}, by {@link Nearest}'s order. */
  private List<Measured> nearest(List<Measured> training, Target target) {
    return training.stream().sorted(Nearest.order(target)).limit(evidenceCount).toList();
  }
}
