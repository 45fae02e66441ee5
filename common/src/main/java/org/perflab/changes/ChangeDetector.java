package org.perflab.changes;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Judges each run of a workload against the level its earlier runs settled at: regression, improvement or within
 * noise. The baseline is the workload's runs back to its last change point; its level is their median, its noise on
 * the run's side of the level the mean of 1.4826 × their median absolute deviation (MAD) and 1.4826 × the median
 * deviation of the runs on that side alone (a semi-MAD), all on log values, so that a ratio is judged the same at
 * any scale and a few outliers move neither. Run times are skewed to the right (a run is slowed by much more than
 * it can be sped up): the side's own spread judges a slower run by how far slower runs have strayed, a faster run
 * by how far faster ones have; averaging it with the two-sided MAD keeps the estimate of a short window steady, as
 * a side holds only half its runs. For symmetric noise both estimate σ.
 *
 * <p>The change-point test is sequential (a robust two-sample confirmation, in the spirit of a CUSUM with a reset):
 * a run more than {@code threshold} noise units from the level is a change and is reported; it starts a candidate
 * level. If the next run is within noise of the candidate and still off the old level, the change point is confirmed:
 * the candidate becomes the baseline and that run is within noise (a workload that stays at a new level is a
 * regression once). If the next run is back at the old level, the flagged run was a transient outlier: it is
 * dropped from the baseline and the old level goes on. Until a new level has {@code minHistory} runs of its own, its
 * noise is the previous level's; until it has a full window, at least the previous level's (a few runs' MAD
 * underestimates the spread; see {@link #levelSpread}). A change point needs only the runs before it, so a verdict
 * never depends on later runs or on the order in which runs were ingested.
 *
 * <p>Measured over synthetic series ({@code bench/run detector}; docs/regressions.md): after a 50 % step, runs of
 * right-skewed noise (× 1 + a gamma variable of shape 1.5, σ 5 %) are flagged 1.8 % of the time with the side's
 * spread against 2.6 % with the MAD alone, log-normal runs 0.5 % either way, and a 20 % step at 3 % log-normal noise is
 * detected as often (92.7 % against 92.5 %).
 *
 * <p>Why not a batch binary segmentation: it would re-segment the whole history each night and could move an old
 * change point with every new run, so a run judged once could be judged differently later; the sequential test gives
 * each run one verdict from the runs before it, which is what a nightly report can stand by.
 */
public final class ChangeDetector {
  private static final double MAD_TO_SIGMA = 1.4826;

  private final DetectorOptions options;

  public ChangeDetector(DetectorOptions options) {
    this.options = options;
  }

  /**
   * Judges every run of a series in order.
   *
   * @param values the metric of each run, in order of start time (positive; NaN when the run has none)
   * @return one judgement per value, at the same index
   */
  public List<Judgement> judge(double[] values) {
    List<Judgement> out = new ArrayList<>(values.length);
    List<Integer> level = new ArrayList<>();
    List<Integer> pending = new ArrayList<>();
    boolean established = false;
    boolean sinceChange = false;
    Spread previous = null;
    for (int i = 0; i < values.length; i++) {
      double v = values[i];
      if (!(v > 0) || Double.isInfinite(v)) {
        out.add(Judgement.without(Verdict.NOT_MEASURED, List.of()));
        continue;
      }
      if (!established) {
        out.add(Judgement.without(Verdict.INSUFFICIENT_HISTORY, level));
        level.add(i);
        established = level.size() >= options.minHistory();
        continue;
      }
      List<Integer> window = tail(level);
      Spread spread = levelSpread(values, window, previous);
      double median = median(logs(values, window));
      double z = spread.z(Math.log(v), median);
      if (!pending.isEmpty()) {
        double pendingMedian = median(logs(values, pending));
        double zp = spread.z(Math.log(v), pendingMedian);
        if (Math.abs(z) >= options.threshold() && Math.abs(zp) < options.threshold()) {
          out.add(judgement(Verdict.WITHIN_NOISE, v, pendingMedian, zp, spread, pending, true));
          previous = spread;
          level = new ArrayList<>(pending);
          level.add(i);
          pending.clear();
          sinceChange = true;
          continue;
        }
        pending.clear();
      }
      if (Math.abs(z) < options.threshold()) {
        out.add(judgement(Verdict.WITHIN_NOISE, v, median, z, spread, window, sinceChange));
        level.add(i);
      } else {
        out.add(judgement(z > 0 ? Verdict.REGRESSION : Verdict.IMPROVEMENT, v, median, z, spread, window,
            sinceChange));
        pending.add(i);
      }
    }
    return out;
  }

  /**
   * The noise of a level on each side of its median, in log units.
   *
   * @param up the noise a slower run is judged with
   * @param down the noise a faster run is judged with
   */
  private record Spread(double up, double down) {
    /** Robust z of log value {@code x} from log level {@code median}, with the noise of {@code x}'s side. */
    double z(double x, double median) {
      return (x - median) / noise(x, median);
    }

    double noise(double x, double median) {
      return x >= median ? up : down;
    }

    Spread atLeast(Spread other) {
      return new Spread(Math.max(up, other.up), Math.max(down, other.down));
    }
  }

  private List<Integer> tail(List<Integer> level) {
    return level.subList(Math.max(0, level.size() - options.window()), level.size());
  }

  /**
   * The noise a run is judged with: the window's own on the first level; on a level entered after a change point,
   * the previous level's until the new one has {@code minHistory} runs, then the larger of its own and the previous
   * level's until it has a full window of runs, side by side. The MAD of a few runs underestimates the spread more
   * often than not (of 5 normal runs, 1.4826 × MAD is below σ two times in three and below σ/2 more than one time in
   * four), while run-to-run noise belongs to the workload more than to one level: a new level is presumed as noisy
   * as the last until a full window shows it quieter.
   *
   * @param previous the noise the previous level was judged with; null on the first level
   */
  private Spread levelSpread(double[] values, List<Integer> window, Spread previous) {
    if (previous == null) {
      return spread(values, window);
    }
    if (window.size() < options.minHistory()) {
      return previous;
    }
    Spread own = spread(values, window);
    return window.size() < options.window() ? own.atLeast(previous) : own;
  }

  /**
   * Each side's noise of the window's log values: the mean of 1.4826 × MAD and 1.4826 × the side's semi-MAD, at
   * least the floor.
   */
  private Spread spread(double[] values, List<Integer> window) {
    double[] xs = logs(values, window);
    double median = median(xs);
    double mad = robustSigma(xs);
    double up = (mad + semiSigma(xs, median, true)) / 2;
    double down = (mad + semiSigma(xs, median, false)) / 2;
    return new Spread(Math.max(options.noiseFloor(), up), Math.max(options.noiseFloor(), down));
  }

  /**
   * 1.4826 × the median distance from {@code median} of the values on one side of it (those at or above it when
   * {@code above}, at or below it otherwise): σ for normal values, larger on the long side of a skewed distribution.
   */
  static double semiSigma(double[] xs, double median, boolean above) {
    return MAD_TO_SIGMA * median(Arrays.stream(xs).filter(x -> above ? x >= median : x <= median)
        .map(x -> Math.abs(x - median)).toArray());
  }

  /** 1.4826 × the median absolute deviation of {@code xs} from their median: σ for normal values, robust to outliers. */
  static double robustSigma(double[] xs) {
    double median = median(xs);
    return MAD_TO_SIGMA * median(Arrays.stream(xs).map(x -> Math.abs(x - median)).toArray());
  }

  private static Judgement judgement(Verdict verdict, double v, double logMedian, double z, Spread spread,
      List<Integer> baseline, boolean sinceChange) {
    double median = Math.exp(logMedian);
    return new Judgement(verdict, v / median, z, median, spread.noise(Math.log(v), logMedian), baseline,
        sinceChange);
  }

  private static double[] logs(double[] values, List<Integer> indices) {
    return indices.stream().mapToDouble(i -> Math.log(values[i])).toArray();
  }

  /** The median of {@code xs} (the mean of the middle two for an even count); NaN when empty. */
  static double median(double[] xs) {
    if (xs.length == 0) {
      return Double.NaN;
    }
    double[] s = xs.clone();
    Arrays.sort(s);
    int n = s.length;
    return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  }
}
