package org.perflab.changes;

import java.util.List;
import java.util.Optional;

/**
 * One run's metric judged against its baseline.
 *
 * @param verdict regression, improvement, within noise, or why there is none
 * @param ratio the run's value ÷ the baseline median; NaN without a verdict
 * @param z robust z: (log value − log baseline median) ÷ noise; NaN without a verdict
 * @param baselineMedian the baseline's median value, in the metric's unit; NaN without a baseline
 * @param noise the spread the run was judged with, in log units, on its side of the baseline median: the mean of
 *     two σ from the log values' mean distance from their median (clipped at 3 robust σ) of the level's latest runs
 *     (at most twice the window: more than the baseline), over all of them and over those on that side, at least the
 *     floor; on a level entered after a change with less than a window of runs, at least the previous level's; on
 *     a workload's first level of fewer than 10 runs, widened by its median's error ({@code
 *     ChangeDetector.medianError})
 * @param baseline the indices (into the judged series) of the baseline runs
 * @param sinceChange whether the baseline is a new level entered after a change that was already reported
 * @param trend the trend that made this run a change, when the trend test found it; null for a step (a run beyond the
 *     threshold) and for every other verdict. A trend's baseline is the first runs it rose from, its z and noise
 *     those of the runs about the trend's line
 * @param earlier the earlier runs in a row, oldest first, that with this run made it a change: one when the pair test
 *     found it, two when the triple test did; empty otherwise. Their baseline is the level before the first of them
 * @param confirmation what made this run, within noise on its own, a change: another measurement of the same run
 *     ({@link OffCpuWait}) or its set-up changed ({@link KnownChange}); null otherwise
 */
public record Judgement(Verdict verdict, double ratio, double z, double baselineMedian, double noise,
    List<Integer> baseline, boolean sinceChange, Trend trend, List<EarlierRun> earlier, Confirmation confirmation) {
  public Judgement {
    baseline = List.copyOf(baseline);
    earlier = List.copyOf(earlier);
  }

  /** A judgement found by the detector alone: no confirmation. */
  public Judgement(Verdict verdict, double ratio, double z, double baselineMedian, double noise,
      List<Integer> baseline, boolean sinceChange, Trend trend, List<EarlierRun> earlier) {
    this(verdict, ratio, z, baselineMedian, noise, baseline, sinceChange, trend, earlier, null);
  }

  static Judgement without(Verdict verdict, List<Integer> baseline) {
    return new Judgement(verdict, Double.NaN, Double.NaN, Double.NaN, Double.NaN, baseline, false, null, List.of());
  }

  /**
   * The same measurement made a change in {@code verdict}'s direction by {@code confirmation}: the ratio, z, noise
   * and baseline kept.
   */
  Judgement confirmed(Verdict verdict, Confirmation confirmation) {
    return new Judgement(verdict, ratio, z, baselineMedian, noise, baseline, sinceChange, null, List.of(),
        confirmation);
  }

  /**
   * The same measurement with its change withdrawn: {@code WITHIN_NOISE}, with the ratio, z, noise and baseline kept
   * and no trend or earlier runs. For a verdict that another judgement overrules.
   */
  public Judgement withdrawn() {
    return new Judgement(Verdict.WITHIN_NOISE, ratio, z, baselineMedian, noise, baseline, sinceChange, null, List.of());
  }

  /** How the change was found; empty when the verdict is no change. */
  public Optional<ChangeKind> kind() {
    if (!verdict.changed()) {
      return Optional.empty();
    }
    if (trend != null) {
      return Optional.of(ChangeKind.TREND);
    }
    if (confirmation != null) {
      return Optional.of(confirmation.kind());
    }
    return Optional.of(switch (earlier.size()) {
      case 0 -> ChangeKind.STEP;
      case 1 -> ChangeKind.PAIR;
      default -> ChangeKind.TRIPLE;
    });
  }
}
