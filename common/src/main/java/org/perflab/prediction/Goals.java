package org.perflab.prediction;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The goals of issue 28 on one data set's held-out predictions: the selected predictor's mean absolute error at most
 * {@value #MAX_MEAN_PCT} % over all its predictions, and at most half each simple baseline's ({@link #BASELINES})
 * on the configurations that baseline predicts, by the same rows; where half a baseline's error (or
 * {@value #MAX_MEAN_PCT} %) is below the noise floor ({@link NoiseFloor}), the floor is the goal. Its 80 % intervals
 * hold {@value #MIN_COVERAGE}–{@value #MAX_COVERAGE} of the time.
 */
public final class Goals {
  /** The simple baselines the selected predictor is compared with. */
  public static final List<String> BASELINES = List.of("amdahl", "sqrt", Nearest.NAME);
  /** The selected predictor's largest mean absolute error, percent. */
  public static final double MAX_MEAN_PCT = 10.0;
  /** The coverage band of the 80 % intervals. */
  public static final double MIN_COVERAGE = 0.70;
  public static final double MAX_COVERAGE = 0.90;

  private Goals() {}

  /**
   * One goal's line.
   *
   * @param what what is compared, e.g. "vs sqrt on 70 configurations"
   * @param selectedPct the selected predictor's figure (mean absolute error percent, or coverage percent)
   * @param goalPct the bound it must meet (for coverage: the band's lower end)
   * @param baselinePct the baseline's mean error on the same configurations, percent; NaN for the other goals
   * @param verdict met, not met, or not measured (nothing to measure it on: no selected prediction, or no interval)
   */
  public record Goal(String what, double selectedPct, double goalPct, double baselinePct, Verdict verdict)
      implements java.io.Serializable {
    /** The goal in words, one line. */
    public String describe() {
      String base = Double.isNaN(baselinePct) ? ""
          : String.format(Locale.ROOT, " (baseline %.1f %%)", baselinePct);
      String figure = Double.isNaN(selectedPct) ? "     -  " : String.format(Locale.ROOT, "%6.1f %%", selectedPct);
      return String.format(Locale.ROOT, "%-40s selected %s  goal %s %5.1f %%%s  %s", what, figure,
          what.startsWith("coverage") ? ">=" : "<=", goalPct, base, verdict.words);
    }
  }

  /** A goal's verdict. */
  public enum Verdict {
    MET("met"),
    NOT_MET("NOT met"),
    /** Nothing to judge: the data set gave no held-out prediction (or no interval) to measure the goal on. */
    NOT_MEASURED("not measured: nothing predicted");

    private final String words;

    Verdict(String words) {
      this.words = words;
    }

    /** {@link #NOT_MEASURED} for a NaN figure, else met or not met. */
    static Verdict of(double figure, boolean met) {
      return Double.isNaN(figure) ? NOT_MEASURED : met ? MET : NOT_MET;
    }
  }

  /** The goals over {@code rows} (one data set's {@code prediction_eval} rows) with the data set's noise floor. */
  public static List<Goal> of(List<PredictionRow> rows, double noiseFloorPct) {
    double floor = Double.isNaN(noiseFloorPct) ? 0 : noiseFloorPct;
    Map<Key, PredictionRow> selected = new HashMap<>();
    rows.stream().filter(r -> r.selected() && r.absErrorPct() != null).forEach(r -> selected.put(Key.of(r), r));
    List<Goal> out = new ArrayList<>();
    double all = mean(selected.values().stream().map(PredictionRow::absErrorPct).toList());
    out.add(new Goal(String.format(Locale.ROOT, "mean on all %d configurations", selected.size()), all,
        Math.max(MAX_MEAN_PCT, floor), Double.NaN, Verdict.of(all, all <= Math.max(MAX_MEAN_PCT, floor))));
    for (String baseline : BASELINES) {
      List<Double> base = new ArrayList<>();
      List<Double> mine = new ArrayList<>();
      rows.stream().filter(r -> r.predictor().equals(baseline) && r.absErrorPct() != null).forEach(r -> {
        PredictionRow s = selected.get(Key.of(r));
        if (s != null) {
          base.add(r.absErrorPct());
          mine.add(s.absErrorPct());
        }
      });
      if (base.isEmpty()) {
        continue;
      }
      double b = mean(base);
      double m = mean(mine);
      double goal = Math.max(b / 2, floor);
      out.add(new Goal(String.format(Locale.ROOT, "vs %s on %d configurations", baseline, base.size()), m, goal, b,
          Verdict.of(m, m <= goal)));
    }
    long withInterval = selected.values().stream().filter(r -> r.lowS() != null).count();
    double coverage = withInterval == 0 ? Double.NaN
        : 100.0 * selected.values().stream().filter(PredictionRow::covered).count() / withInterval;
    out.add(new Goal(String.format(Locale.ROOT, "coverage of %d intervals", withInterval), coverage,
        100 * MIN_COVERAGE, Double.NaN,
        Verdict.of(coverage, coverage >= 100 * MIN_COVERAGE && coverage <= 100 * MAX_COVERAGE)));
    return out;
  }

  private static double mean(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
  }

  /** A held-out configuration of a workload, as the rows name it. */
  private record Key(String workloadId, long inputBytes, int executors, int coresPerExecutor, Long memory) {
    static Key of(PredictionRow r) {
      return new Key(r.workloadId(), r.inputBytes(), r.executors(), r.coresPerExecutor(), r.executorMemoryBytes());
    }
  }
}
