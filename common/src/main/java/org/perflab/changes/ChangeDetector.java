package org.perflab.changes;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Judges each run of a workload against the level its earlier runs settled at: regression, improvement or within
 * noise. The baseline is the workload's runs back to its last change point; its level is their median, its noise
 * 1.4826 × their median absolute deviation (MAD), both on log values, so that a ratio is judged the same at any
 * scale and a few outliers move neither.
 *
 * <p>The change-point test is sequential (a robust two-sample confirmation, in the spirit of a CUSUM with a reset):
 * a run more than {@code threshold} noise units from the level is a change and is reported; it starts a candidate
 * level. If the next run is within noise of the candidate and still off the old level, the change point is confirmed:
 * the candidate becomes the baseline and that run is within noise (a workload that stays at a new level is a
 * regression once). If the next run is back at the old level, the flagged run was a transient outlier: it is
 * dropped from the baseline and the old level goes on. Until a new level has {@code minHistory} runs of its own, its
 * noise is the previous level's; until it has a full window, at least the previous level's (a few runs' MAD
 * underestimates the spread; see {@link #levelNoise}). A change point needs only the runs before it, so a verdict
 * never depends on later runs or on the order in which runs were ingested.
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
    double previousNoise = Double.NaN;
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
      double noise = levelNoise(values, window, previousNoise);
      double median = median(logs(values, window));
      double z = (Math.log(v) - median) / noise;
      if (!pending.isEmpty()) {
        double pendingMedian = median(logs(values, pending));
        double zp = (Math.log(v) - pendingMedian) / noise;
        if (Math.abs(z) >= options.threshold() && Math.abs(zp) < options.threshold()) {
          out.add(judgement(Verdict.WITHIN_NOISE, v, pendingMedian, zp, noise, pending, true));
          previousNoise = noise;
          level = new ArrayList<>(pending);
          level.add(i);
          pending.clear();
          sinceChange = true;
          continue;
        }
        pending.clear();
      }
      if (Math.abs(z) < options.threshold()) {
        out.add(judgement(Verdict.WITHIN_NOISE, v, median, z, noise, window, sinceChange));
        level.add(i);
      } else {
        out.add(judgement(z > 0 ? Verdict.REGRESSION : Verdict.IMPROVEMENT, v, median, z, noise, window,
            sinceChange));
        pending.add(i);
      }
    }
    return out;
  }

  private List<Integer> tail(List<Integer> level) {
    return level.subList(Math.max(0, level.size() - options.window()), level.size());
  }

  /**
   * The noise a run is judged with: the window's own (1.4826 × MAD) on the first level; on a level entered after a
   * change point, the previous level's until the new one has {@code minHistory} runs, then the larger of its own and
   * the previous level's until it has a full window of runs. The MAD of a few runs underestimates the spread more
   * often than not (of 5 normal runs, 1.4826 × MAD is below σ two times in three and below σ/2 more than one time in four),
   * while run-to-run noise belongs to the workload more than to one level: a new level is presumed as noisy as the
   * last until a full window shows it quieter.
   *
   * @param previousNoise the noise the previous level was judged with; NaN on the first level
   */
  private double levelNoise(double[] values, List<Integer> window, double previousNoise) {
    if (Double.isNaN(previousNoise)) {
      return noise(values, window);
    }
    if (window.size() < options.minHistory()) {
      return previousNoise;
    }
    double own = noise(values, window);
    return window.size() < options.window() ? Math.max(own, previousNoise) : own;
  }

  /** 1.4826 × MAD of the window's log values, at least the floor. */
  private double noise(double[] values, List<Integer> window) {
    return Math.max(options.noiseFloor(), robustSigma(logs(values, window)));
  }

  /** 1.4826 × the median absolute deviation of {@code xs} from their median: σ for normal values, robust to outliers. */
  static double robustSigma(double[] xs) {
    double median = median(xs);
    return MAD_TO_SIGMA * median(Arrays.stream(xs).map(x -> Math.abs(x - median)).toArray());
  }

  private static Judgement judgement(Verdict verdict, double v, double logMedian, double z, double noise,
      List<Integer> baseline, boolean sinceChange) {
    double median = Math.exp(logMedian);
    return new Judgement(verdict, v / median, z, median, noise, baseline, sinceChange);
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
