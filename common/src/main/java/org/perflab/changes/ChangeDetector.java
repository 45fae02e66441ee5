package org.perflab.changes;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Judges each run of a workload against the level its earlier runs settled at: regression, improvement or within
 * noise. The baseline is the workload's runs back to its last change point (the latest {@code window}); its level is
 * their median, its noise (from up to twice as many of the level's runs: {@link #noiseRuns}) on the run's side of the
 * level the mean of two standard deviations estimated from the runs' mean distance from the
 * median, each distance clipped at 3 σ of a robust (median-based) estimate ({@link #spreadOf}): one over all the
 * runs, one over the runs on that side alone; all on log values, so that a ratio is judged the same at any scale,
 * and a few outliers move the level not at all and the noise by a bounded amount. Run times are skewed to the right
 * (a run is slowed by much more than it can be sped up): the side's own spread judges a slower run by how far slower
 * runs have strayed, a faster run by how far faster ones have; averaging it with the two-sided spread keeps the
 * estimate of a short window steady, as a side holds only half its runs. For symmetric noise both estimate σ. Mean
 * distances rather than a MAD: the noise estimated from 20 runs varies less (a relative standard deviation of 0.21
 * against 0.30 for 20 normal runs), so a run's z does too, and a steady run crosses the threshold by chance less
 * often (measured below).
 *
 * <p>The change-point test is sequential (a robust two-sample confirmation, in the spirit of a CUSUM with a reset):
 * a run more than {@code threshold} noise units from the level is a change and is reported; it starts a candidate
 * level. If the next run is within noise of the candidate and still off the old level, the change point is confirmed:
 * the candidate becomes the baseline and that run is within noise (a workload that stays at a new level is a
 * regression once). If the next run is back at the old level, the flagged run was a transient outlier: it is
 * dropped from the baseline and the old level goes on. A next run within the threshold of the old level but at least
 * the pair threshold off it on the flagged run's side is taken for the old level too, but remembered
 * ({@link Outlier}): if the run after it completes a pair with it, or is beyond the threshold on the same side, that
 * is the change the outlier reported, confirmed late; the run is within noise (marked since the change) and the
 * level restarts from the three runs, instead of the same step being reported a second time. Measured: a 20 % step
 * at log-normal σ 5 % after 15 runs was reported twice or more among its first 10 runs 34.9 → 13.9 % of the time,
 * with the same steady runs flagged (docs/benchmarks.md). Until a new level has {@code minHistory} runs of its own, its
 * noise is the previous level's; until it has a full window, at least the previous level's (a few runs' MAD
 * underestimates the spread; see {@link #levelSpread}). A workload's first level, with no level before it to borrow
 * from, has its noise widened by the error of its median until it has 10 runs ({@link #medianError}). A change point
 * needs only the runs before it, so a verdict never depends on later runs or on the order in which runs were
 * ingested.
 *
 * <p>A smaller step (20 % at 5 % noise is under 4 noise units) is often not one run beyond the threshold, and the
 * level then absorbs it. So a run within noise is also given to a pair test: when it and the run before it are both at
 * least {@code pairZ} off the level before that run, on the same side, and that level had at least twice
 * {@code minHistory} runs ({@link #pairLevelRuns}), the run is a change of kind {@link ChangeKind#PAIR}, judged
 * against that level, which restarts from the two runs (the trend test below goes first: a trend it finds has read
 * more runs). The pair threshold goes with the step threshold ({@link DetectorOptions#pairThreshold}): two steady runs in a row beyond
 * 2.54 noise units on one side are as unlikely as one beyond 4 for independent normal noise with a known spread (the
 * Western Electric rules' "two of three beyond 2σ", made as strict as the single-run rule). Both runs are judged
 * against the same median and spread, so where those are estimated from a few runs they err together for both; ten
 * runs keep that error small (with the MAD of earlier rounds it took a full window of 20). And both must lie beyond
 * every run of that window: for steady runs in random order, two given runs are both above all n others 2 times in
 * (n + 2)(n + 1) (1.5 % for 10 runs, 0.43 % for 20), whatever the noise's shape, which bounds the test's false alarms
 * under right-skewed noise, where a z threshold alone is crossed more often.
 *
 * <p>A run within noise that is not the second run of a pair is also given to a triple test
 * ({@link #triple}): it and the two runs before it all at least {@code tripleZ} (1.86 for a threshold of 4: three runs
 * beyond it are as unlikely as one beyond 4 for normal noise) off the level before the first, on the same side, beyond
 * all but one run of its window, make it a change of kind {@link ChangeKind#TRIPLE}. It finds the steps whose runs land
 * too low for a pair, or whose noise was estimated high: a 20 % step at log-normal σ 5 % after 30 runs is found within
 * 5 runs 90.2 → 95.9 % of the time, for 0.03 points more steady runs flagged (docs/benchmarks.md).
 *
 * <p>A run within noise but at least the pair or triple threshold off its level may be the first run of a step, so
 * the next run on its side is judged against the level without it ({@link #settled}; without the one before it too,
 * when that one was off on the same side): a step's own runs do not raise the level and its noise before the second
 * or third of them is judged. A run on the other side is judged against every run of the level. Measured: the same
 * step after 15 runs found within 5 runs 94.1 → 97.1 %, after 30 runs 95.9 → 97.0 %; steady runs flagged 0.34 → 0.41 %
 * at log-normal σ 5 %, 2.31 → 2.44 % under gamma noise of shape 1 (docs/benchmarks.md).
 *
 * <p>A workload that slows a little every night never has one run beyond the threshold: the level's median follows
 * it and its spread widens. So each run within noise is also given to a trend test over the level's latest runs (at
 * most twice the window, the run included, at least {@link #TREND_MIN_RUNS}): a Mann–Kendall z of at least
 * {@code trendZ} (the runs rise or fall together in start order), a Theil–Sen line that moves by at least
 * {@link #TREND_MIN_NOISE} times the runs' spread about it, and the run that far from the first {@code minHistory}
 * runs tested make the run a change of kind {@link ChangeKind#TREND}, judged against those first runs; the level
 * restarts from it and the run before, with the spread about the line as its noise, so a drift that goes on is
 * reported again only for what it adds.
 * Mann–Kendall is a rank test: for runs that do not trend its false alarms do not depend on the shape of the noise,
 * where a CUSUM's would rest on a level and a spread estimated from a few runs.
 *
 * <p>Measured over synthetic series ({@code bench/run detector}; docs/regressions.md): after a 50 % step, runs of
 * right-skewed noise (× 1 + a gamma variable of shape 1.5, σ 5 %) are flagged 1.8 % of the time with the side's
 * spread against 2.6 % with the MAD alone, log-normal runs 0.5 % either way, and a 20 % step at 3 % log-normal noise is
 * detected as often (92.7 % against 92.5 %). Clipped mean distances instead of medians (the MAD and the side's
 * semi-MAD), the pair test on levels of 10 runs instead of 20, which the steadier noise allows, and the noise from
 * up to 40 of the level's runs: steady runs flagged at σ 5 % log-normal 0.87 → 0.31 %, gamma of shape 1 / 1.5 / 2
 * 3.80 / 2.52 / 2.00 → 2.27 / 1.54 / 1.25 %; a 20 % step at log-normal σ 5 % found within 5 runs after 30 runs of
 * history 87.2 → 90.2 %, after 15 runs 68.5 → 89.3 %.
 *
 * <p>Why not a batch binary segmentation: it would re-segment the whole history each night and could move an old
 * change point with every new run, so a run judged once could be judged differently later; the sequential test gives
 * each run one verdict from the runs before it, which is what a nightly report can stand by.
 */
public final class ChangeDetector {
  private static final double MAD_TO_SIGMA = 1.4826;
  /** The fewest runs the trend test reads: below 8, no order of runs reaches a Mann–Kendall z of 3.29. */
  static final int TREND_MIN_RUNS = 10;
  /**
   * A trend's fitted change, and the run's distance from the runs it rose from, in units of the runs' spread about
   * its line, from which it is a change.
   */
  static final double TREND_MIN_NOISE = 2;

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
    Near near = null; // the run before, when it was within noise but off the level
    Near before = null; // the run before that, likewise, when the run before was
    Outlier outlier = null; // the latest run dropped as an outlier, when the run after it stayed off on its side
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
      double x = Math.log(v);
      List<Integer> settled = settled(level, before, near, x);
      List<Integer> window = tail(settled);
      Spread spread = levelSpread(values, noiseRuns(settled), previous);
      if (previous == null && window.size() < pairLevelRuns()) {
        spread = spread.times(medianError(window.size()));
      }
      double median = median(logs(values, window));
      double z = spread.z(x, median);
      if (!pending.isEmpty()) {
        double pendingMedian = median(logs(values, pending));
        double zp = spread.z(x, pendingMedian);
        if (Math.abs(z) >= options.threshold() && Math.abs(zp) < options.threshold()) {
          out.add(judgement(Verdict.WITHIN_NOISE, v, pendingMedian, zp, spread, pending, true));
          near = null;
          before = null;
          previous = spread;
          level = new ArrayList<>(pending);
          level.add(i);
          pending.clear();
          sinceChange = true;
          continue;
        }
        boolean stayedOff = Math.signum(z) == Math.signum(pendingMedian - median) && Math.abs(z) >= options.pairZ();
        outlier = stayedOff ? new Outlier(pending.get(0), i) : null;
        pending.clear();
      }
      if (Math.abs(z) < options.threshold()) {
        FoundTrend trend = trend(values, level, i, sinceChange);
        if (trend != null) {
          out.add(trend.judgement());
          previous = trend.about();
          level = new ArrayList<>(List.of(level.get(level.size() - 1), i));
          sinceChange = true;
          near = null;
          before = null;
          continue;
        }
        InARow inARow = inARow(values, i, before, near, sinceChange);
        if (inARow != null) {
          previous = inARow.earlier().get(0).spread();
          level = inARow.runs(i);
          if (outlier != null && outlier.next() == inARow.earlier().get(0).run()) {
            // the change the outlier reported, confirmed late by the runs after it: not a second report
            List<Integer> candidate = new ArrayList<>(List.of(outlier.run()));
            candidate.addAll(level.subList(0, level.size() - 1));
            out.add(confirmedLate(values, v, candidate, previous));
            level.add(0, outlier.run());
          } else {
            out.add(inARow.judgement());
          }
          sinceChange = true;
          near = null;
          before = null;
          outlier = null;
          continue;
        }
        out.add(judgement(Verdict.WITHIN_NOISE, v, median, z, spread, window, sinceChange));
        before = near;
        near = Math.abs(z) >= Math.min(options.pairZ(), options.tripleZ())
            ? new Near(i, z, median, spread, List.copyOf(window)) : null;
        level.add(i);
      } else if (outlier != null && near != null && near.run() == outlier.next()
          && Math.signum(z) == Math.signum(near.z())) {
        // the change the outlier reported, confirmed late by the two runs after it: not a second report
        List<Integer> candidate = List.of(outlier.run(), outlier.next());
        out.add(confirmedLate(values, v, candidate, spread));
        previous = spread;
        level = new ArrayList<>(candidate);
        level.add(i);
        sinceChange = true;
        near = null;
        before = null;
        outlier = null;
      } else {
        out.add(judgement(z > 0 ? Verdict.REGRESSION : Verdict.IMPROVEMENT, v, median, z, spread, window,
            sinceChange));
        pending.add(i);
        near = null;
        before = null;
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

    Spread times(double factor) {
      return new Spread(up * factor, down * factor);
    }

    Spread atLeast(Spread other) {
      return new Spread(Math.max(up, other.up), Math.max(down, other.down));
    }
  }

  /**
   * The runs of {@code level} a run of log value {@code x} is judged against: all of them, less {@code near} when
   * {@code x} is on its side of its level (it and {@code x} may be a pair), and less {@code before} too when that was
   * off on the same side (the three may be a triple). {@code near} and {@code before} stay in {@code level}: a run
   * back at the level, or on the other side, is judged against them.
   */
  private static List<Integer> settled(List<Integer> level, Near before, Near near, double x) {
    if (near == null || Math.signum(x - near.logMedian()) != Math.signum(near.z())) {
      return level; // no pair or triple is open on x's side
    }
    List<Integer> runs = new ArrayList<>(level);
    runs.remove(Integer.valueOf(near.run()));
    if (before != null && Math.signum(before.z()) == Math.signum(near.z())) {
      runs.remove(Integer.valueOf(before.run()));
    }
    return runs;
  }

  private List<Integer> tail(List<Integer> level) {
    return level.subList(Math.max(0, level.size() - options.window()), level.size());
  }

  /**
   * The runs a level's noise is estimated from: its latest, at most twice the window (the trend test reads as many).
   * Run-to-run noise belongs to the workload more than to a level's latest runs, and 40 runs estimate it better than
   * 20: measured, steady runs flagged at log-normal σ 5 % 0.41 → 0.31 %, a 20 % step after 30 runs found within 5
   * runs 87.5 → 90.2 % (docs/benchmarks.md). The level's median stays that of the window.
   */
  private List<Integer> noiseRuns(List<Integer> level) {
    return level.subList(Math.max(0, level.size() - 2 * options.window()), level.size());
  }

  /**
   * The noise a run is judged with: that of the level's own {@code runs} on the first level; on a level entered after a change point,
   * the previous level's until the new one has {@code minHistory} runs, then the larger of its own and the previous
   * level's until it has a full window of runs, side by side. The spread of a few runs underestimates σ more often
   * than not (of 5 normal runs, 1.4826 × MAD is below σ two times in three and below σ/2 more than one time in four),
   * while run-to-run noise belongs to the workload more than to one level: a new level is presumed as noisy
   * as the last until a full window shows it quieter.
   *
   * @param runs the level's latest runs, those its noise is estimated from ({@link #noiseRuns})
   * @param previous the noise the previous level was judged with; null on the first level
   */
  private Spread levelSpread(double[] values, List<Integer> runs, Spread previous) {
    if (previous == null) {
      return spread(values, runs);
    }
    if (runs.size() < options.minHistory()) {
      return previous;
    }
    Spread own = spread(values, runs);
    return runs.size() < options.window() ? own.atLeast(previous) : own;
  }

  /**
   * How much wider than the runs' own spread a new run strays from the median of {@code runs} runs: √(1 + π / 2n),
   * for normal noise, where the median of n runs varies by σ √(π / 2n) about the level (1.146 for 5 runs, 1.084 for 9).
   * The noise of a workload's first level with fewer runs than the pair test needs ({@link #pairLevelRuns}) is widened
   * by it: with nothing to borrow from a previous level, a run's z against a median and a spread of 5 runs errs with
   * both, and steady runs with 5-9 runs of history were flagged 2.02 % of the time at log-normal σ 5 % (0.38 % with
   * 20-39): 1.10 % with it, for a 20 % step after 15 runs found within 5 runs as often (97.1 → 97.3 %;
   * docs/benchmarks.md#short-first-level-measured). A later level's noise is at least the previous level's, and from
   * 10 runs on the pair and triple tests judge with the level's own.
   */
  static double medianError(int runs) {
    return Math.sqrt(1 + Math.PI / (2.0 * runs));
  }

  /**
   * Each side's noise of the window's log values, at least the floor: the mean of two σ estimated from the values'
   * mean distance from their median, one over all the values and one over those on that side, each distance clipped at
   * {@link #CLIP} times the larger of the {@link #robustSigma} and the side's {@link #semiSigma} (so the long side of a
   * skewed window is not clipped to the short side's spread), and scaled by √(n / (n − 1)). Where a MAD takes the
   * middle distance, this uses them all: for normal values the mean distance's efficiency is about 88 % against the
   * MAD's 37 %; the clip bounds what one far run can add to a side of n runs (under 2.2 σ / n). For 20 normal runs the
   * estimate averages 0.976 σ (the MAD and semi-MAD's 0.964 σ), with a relative standard deviation of 0.21 (0.30).
   */
  private Spread spread(double[] values, List<Integer> runs) {
    return spreadOf(logs(values, runs));
  }

  /**
   * The robust z of {@code value} against {@code level}, values of one level judged as the detector judges a run
   * against a first level: (ln value − the median of the ln values) ÷ their noise on the value's side ({@link
   * #spread}: a side's own spread counts, so a right-skewed measurement is judged by how far its high values stray).
   *
   * @param level positive values, at least one
   * @param value a positive value
   */
  public double z(double[] level, double value) {
    double[] xs = Arrays.stream(level).map(Math::log).toArray();
    double median = median(xs);
    return spreadOf(xs).z(Math.log(value), median);
  }

  /** {@link #spread} of log values. */
  private Spread spreadOf(double[] xs) {
    double median = median(xs);
    double mad = robustSigma(xs, median);
    double capUp = CLIP * Math.max(mad, semiSigma(xs, median, true));
    double capDown = CLIP * Math.max(mad, semiSigma(xs, median, false));
    double sumUp = 0;
    double sumDown = 0;
    int nUp = 0;
    int nDown = 0;
    for (double x : xs) {
      if (x >= median) {
        sumUp += Math.min(x - median, capUp);
        nUp++;
      }
      if (x <= median) {
        sumDown += Math.min(median - x, capDown);
        nDown++;
      }
    }
    // distances from the runs' own median are shorter than from the true level (from their mean: by √((n − 1) / n))
    double scale = CLIPPED_TO_SIGMA * Math.sqrt(xs.length / Math.max(1.0, xs.length - 1));
    double both = scale * (sumUp + sumDown) / xs.length; // a value at the median adds 0 to either sum
    double up = (both + scale * sumUp / nUp) / 2;
    double down = (both + scale * sumDown / nDown) / 2;
    return new Spread(Math.max(options.noiseFloor(), up), Math.max(options.noiseFloor(), down));
  }

  /**
   * Where a run's distance from the median is clipped, in robust σ ({@link #spreadOf}): a run within 3σ counts with
   * its whole distance, one further out (a spike in the history) as if it were 3σ out.
   */
  static final double CLIP = 3;
  /**
   * 1 / E[min(|Z|, 3)] for a standard normal Z: √(2/π) − 2 (φ(3) − 3 (1 − Φ(3))) = 0.797885 − 2 (0.0044318 − 0.0040497)
   * = 0.797120; the mean of distances clipped at 3σ, times this, estimates σ for normal values.
   */
  static final double CLIPPED_TO_SIGMA = 1 / 0.797120;

  /**
   * 1.4826 × the median distance from {@code median} of the values on one side of it (those at or above it when
   * {@code above}, at or below it otherwise): σ for normal values, larger on the long side of a skewed distribution.
   */
  static double semiSigma(double[] xs, double median, boolean above) {
    return MAD_TO_SIGMA * median(Arrays.stream(xs).filter(x -> above ? x >= median : x <= median)
        .map(x -> Math.abs(x - median)).toArray());
  }

  /** 1.4826 × the median absolute deviation of {@code xs} from their median: σ for normal values, robust to outliers. */
  public static double robustSigma(double[] xs) {
    return robustSigma(xs, median(xs));
  }

  /** {@link #robustSigma} of {@code xs} whose median, {@code median}, is known. */
  private static double robustSigma(double[] xs, double median) {
    return MAD_TO_SIGMA * median(Arrays.stream(xs).map(x -> Math.abs(x - median)).toArray());
  }

  private static Judgement judgement(Verdict verdict, double v, double logMedian, double z, Spread spread,
      List<Integer> baseline, boolean sinceChange) {
    double median = Math.exp(logMedian);
    return new Judgement(verdict, v / median, z, median, spread.noise(Math.log(v), logMedian), baseline,
        sinceChange, null, List.of());
  }

  /**
   * A run judged within noise of its level but at least {@code pairZ} or {@code tripleZ} off it: the first run of a
   * possible pair or triple, with what it was judged against (the level before it).
   *
   * @param z its robust z against that level
   * @param logMedian the level's median log value
   */
  private record Near(int run, double z, double logMedian, Spread spread, List<Integer> baseline) {}

  /**
   * Run value {@code v} judged within noise of the level {@code candidate} it confirms, late (marked since the change):
   * the runs from the {@link Outlier} on, before it.
   */
  private static Judgement confirmedLate(double[] values, double v, List<Integer> candidate, Spread spread) {
    double logMedian = median(logs(values, candidate));
    return judgement(Verdict.WITHIN_NOISE, v, logMedian, spread.z(Math.log(v), logMedian), spread, candidate, true);
  }

  /**
   * A run reported as a change and then dropped as an outlier because the next run, {@code next}, was within the
   * threshold of the old level, though at least the pair threshold off it on the same side.
   */
  private record Outlier(int run, int next) {}

  /** A pair or a triple that run {@code i} completes: its judgement and its earlier runs, oldest first. */
  private record InARow(Judgement judgement, List<Near> earlier) {
    /** The runs of the new level: the earlier runs, then {@code run}. */
    List<Integer> runs(int run) {
      List<Integer> runs = new ArrayList<>();
      earlier.forEach(n -> runs.add(n.run()));
      runs.add(run);
      return runs;
    }
  }

  /** The pair that run {@code i} completes, else the triple, else null ({@link #pair}, {@link #triple}). */
  private InARow inARow(double[] values, int i, Near before, Near near, boolean sinceChange) {
    Judgement pair = pair(values, i, near, sinceChange);
    if (pair != null) {
      return new InARow(pair, List.of(near));
    }
    Judgement triple = triple(values, i, before, near, sinceChange);
    return triple == null ? null : new InARow(triple, List.of(before, near));
  }

  /**
   * Run {@code i}, within noise of its level, judged by the pair test: a change when the run before it was
   * {@code near} (within noise, at least {@code pairZ} off the level, judged against at least {@link #pairLevelRuns}
   * of the level's runs) and run {@code i} is at least {@code pairZ} off the same level, the level before
   * {@code near}, on the same side, and both lie beyond every run of that level's window. That level is its baseline.
   *
   * @return the judgement of the pair's second run; null when there is no pair
   */
  private Judgement pair(double[] values, int i, Near near, boolean sinceChange) {
    if (near == null || near.baseline().size() < pairLevelRuns() || Math.abs(near.z()) < options.pairZ()) {
      return null; // a median and a spread from fewer runs err together for both runs, and often
    }
    double x = Math.log(values[i]);
    double z = near.spread().z(x, near.logMedian());
    if (Math.signum(z) != Math.signum(near.z()) || Math.abs(z) < options.pairZ()) {
      return null;
    }
    if (!beyondEvery(values, near.baseline(), values[near.run()], z > 0)
        || !beyondEvery(values, near.baseline(), values[i], z > 0)) {
      return null; // a rank condition, whatever the noise's shape: see the class comment
    }
    double median = Math.exp(near.logMedian());
    return new Judgement(z > 0 ? Verdict.REGRESSION : Verdict.IMPROVEMENT, values[i] / median, z, median,
        near.spread().noise(x, near.logMedian()), near.baseline(), sinceChange, null,
        List.of(new EarlierRun(near.run(), values[near.run()] / median, near.z())));
  }

  /**
   * Run {@code i}, within noise of its level and not the second run of a pair, judged by the triple test: a change
   * when the two runs before it were within noise and off their levels ({@code first}, then {@code second}), and all
   * three stand at least {@code tripleZ} off the level before {@code first}, on the same side, beyond all but at most
   * one run of that level's window, which had at least {@link #pairLevelRuns} runs. That level is its baseline.
   * Why all but one: for steady runs in random order, three given runs are all above all but one of n others 24 times
   * in (n + 1)(n + 2)(n + 3) (1.4 % for 10 runs, 0.23 % for 20): no more often than the pair's two runs above all n,
   * whatever the noise's shape.
   *
   * @return the judgement of the triple's third run; null when there is no triple
   */
  private Judgement triple(double[] values, int i, Near first, Near second, boolean sinceChange) {
    if (first == null || second == null || first.baseline().size() < pairLevelRuns()
        || Math.abs(first.z()) < options.tripleZ()) {
      return null;
    }
    double median = first.logMedian();
    double z2 = first.spread().z(Math.log(values[second.run()]), median);
    double x = Math.log(values[i]);
    double z = first.spread().z(x, median);
    boolean up = first.z() > 0;
    for (double other : new double[] {z2, z}) {
      if ((other > 0) != up || Math.abs(other) < options.tripleZ()) {
        return null;
      }
    }
    for (int run : new int[] {first.run(), second.run(), i}) {
      if (notBeyond(values, first.baseline(), values[run], up) > 1) {
        return null; // a rank condition, whatever the noise's shape: see above
      }
    }
    double level = Math.exp(median);
    return new Judgement(up ? Verdict.REGRESSION : Verdict.IMPROVEMENT, values[i] / level, z, level,
        first.spread().noise(x, median), first.baseline(), sinceChange, null,
        List.of(new EarlierRun(first.run(), values[first.run()] / level, first.z()),
            new EarlierRun(second.run(), values[second.run()] / level, z2)));
  }

  /**
   * The fewest runs of a level the pair test judges against: twice {@code minHistory} (10 by default, the trend test's
   * least), at most the window.
   */
  int pairLevelRuns() {
    return Math.min(options.window(), 2 * options.minHistory());
  }

  /** Whether {@code v} is above every run of {@code runs} ({@code above}), or below every one. */
  private static boolean beyondEvery(double[] values, List<Integer> runs, double v, boolean above) {
    return notBeyond(values, runs, v, above) == 0;
  }

  /** How many runs of {@code runs} {@code v} is not above ({@code above}), or not below. */
  private static long notBeyond(double[] values, List<Integer> runs, double v, boolean above) {
    return runs.stream().mapToDouble(r -> values[r]).filter(r -> above ? !(v > r) : !(v < r)).count();
  }

  /** The runs the trend test reads at run {@code i}: the level's latest, {@code i} last, at most twice the window. */
  private List<Integer> trendRuns(List<Integer> level, int i) {
    List<Integer> runs = new ArrayList<>(level.subList(Math.max(0, level.size() - 2 * options.window() + 1),
        level.size()));
    runs.add(i);
    return runs;
  }

  /**
   * Run {@code i}, within noise of its level, judged by the trend test: a change when the level's latest runs and it
   * (at least {@link #TREND_MIN_RUNS} and twice {@code minHistory}) rise or fall together, by a Mann–Kendall z of
   * at least {@code trendZ}, their Theil–Sen line moves by at least {@link #TREND_MIN_NOISE} times the spread of the
   * runs about it, and run {@code i} itself is that far from the median of the first {@code minHistory} runs tested,
   * in the same direction. Those runs are its baseline: the level the trend rose from.
   *
   * @return the judgement of a trend, with the runs' spread about its line; null when there is none
   */
  private FoundTrend trend(double[] values, List<Integer> level, int i, boolean sinceChange) {
    if (!options.trends()) {
      return null;
    }
    List<Integer> runs = trendRuns(level, i);
    if (runs.size() < Math.max(TREND_MIN_RUNS, 2 * options.minHistory())) {
      return null; // and the runs it starts from are at most half the runs tested
    }
    double[] xs = logs(values, runs);
    double mk = mannKendallZ(xs);
    if (Math.abs(mk) < options.trendZ()) {
      return null;
    }
    double slope = theilSenSlope(xs);
    double total = slope * (xs.length - 1);
    Spread about = spreadOf(residuals(xs, slope));
    double x = Math.log(values[i]);
    double noise = total > 0 ? about.up() : about.down();
    if (Math.signum(total) != Math.signum(mk) || Math.abs(total) < TREND_MIN_NOISE * noise) {
      return null;
    }
    List<Integer> from = runs.subList(0, options.minHistory());
    double fromMedian = median(logs(values, from));
    double z = (x - fromMedian) / noise;
    if (Math.signum(z) != Math.signum(total) || Math.abs(z) < TREND_MIN_NOISE) {
      return null; // the run itself has not moved from where the runs started (runs of mixed shapes, not a drift)
    }
    return new FoundTrend(new Judgement(mk > 0 ? Verdict.REGRESSION : Verdict.IMPROVEMENT,
        values[i] / Math.exp(fromMedian), z, Math.exp(fromMedian), noise, from, sinceChange,
        new Trend(runs.size(), mk, Math.exp(slope), Math.exp(total)), List.of()), about);
  }

  /**
   * A trend the trend test found: the run's judgement, and the noise of the runs tested about the trend's line, side
   * by side, which the level after the trend starts with.
   */
  private record FoundTrend(Judgement judgement, Spread about) {}

  /** {@code xs} less the line of slope {@code slope} (per position) through the origin. */
  private static double[] residuals(double[] xs, double slope) {
    double[] r = new double[xs.length];
    for (int k = 0; k < xs.length; k++) {
      r[k] = xs[k] - slope * k;
    }
    return r;
  }

  /**
   * The Mann–Kendall z of {@code xs} in order: S = Σ sign(x_b − x_a) over pairs a &lt; b, with the variance of S
   * for exchangeable values corrected for ties, and a continuity correction of 1. For values in random order it is
   * standard normal whatever their distribution, which is why a trend's false alarms do not depend on the shape of
   * a workload's noise.
   */
  static double mannKendallZ(double[] xs) {
    int n = xs.length;
    long s = 0;
    for (int a = 0; a < n; a++) {
      for (int b = a + 1; b < n; b++) {
        s += Integer.signum(Double.compare(xs[b], xs[a]));
      }
    }
    double variance = n * (n - 1.0) * (2 * n + 5);
    double[] sorted = xs.clone();
    Arrays.sort(sorted);
    for (int a = 0; a < n; ) {
      int b = a;
      while (b < n && sorted[b] == sorted[a]) {
        b++;
      }
      double t = b - a;
      variance -= t * (t - 1) * (2 * t + 5);
      a = b;
    }
    variance /= 18;
    return variance <= 0 || s == 0 ? 0 : (s - Math.signum(s)) / Math.sqrt(variance);
  }

  /** The Theil–Sen slope of {@code xs} against their positions: the median of (x_b − x_a) ÷ (b − a), a &lt; b. */
  static double theilSenSlope(double[] xs) {
    int n = xs.length;
    double[] slopes = new double[n * (n - 1) / 2];
    int k = 0;
    for (int a = 0; a < n; a++) {
      for (int b = a + 1; b < n; b++) {
        slopes[k++] = (xs[b] - xs[a]) / (b - a);
      }
    }
    return median(slopes);
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
