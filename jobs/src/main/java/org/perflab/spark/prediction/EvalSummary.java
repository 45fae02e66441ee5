package org.perflab.spark.prediction;

import org.perflab.prediction.Stats;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;

/**
 * {@code prediction_eval_summary} from the rows of {@code prediction_eval}: per workload and predictor, per workload
 * for the selected predictions ({@value PredictionTables#SELECTED}), and the same over all workloads
 * ({@value PredictionTables#ALL_WORKLOADS}); the mean, median and 90th percentile of the absolute error, and how
 * often the actual runtime fell inside the 80 % interval. The rows are few (configurations × predictors), so this
 * runs on the driver over collected rows, with exact order statistics.
 */
public final class EvalSummary {
  private EvalSummary() {}

  /** One summary line's inputs: the errors of predictions made, the coverage of those with an interval. */
  private static final class Acc {
    int configurations;
    final List<Double> errors = new ArrayList<>();
    int withInterval;
    int covered;

    void add(Row r) {
      configurations++;
      if (ev(r, "abs_error_pct") != null) {
        errors.add((Double) ev(r, "abs_error_pct"));
      }
      Double low = (Double) ev(r, "predicted_low_s");
      Double high = (Double) ev(r, "predicted_high_s");
      if (low != null && high != null) {
        withInterval++;
        double actual = (Double) ev(r, "actual_s");
        if (actual >= low && actual <= high) {
          covered++;
        }
      }
    }
  }

  /** The summary rows ({@link PredictionTables#SUMMARY}), workloads and predictors in order, "all" last. */
  public static List<Row> of(List<Row> evalRows, Map<String, String> skippedWorkloads) {
    Map<String, Map<String, Acc>> by = new TreeMap<>();
    Map<String, Acc> all = new LinkedHashMap<>();
    for (Row r : evalRows) {
      String workload = (String) ev(r, "workload_id");
      String predictor = (String) ev(r, "predictor");
      add(by, workload, predictor, r);
      all.computeIfAbsent(predictor, k -> new Acc()).add(r);
      if ((Boolean) ev(r, "selected")) {
        add(by, workload, PredictionTables.SELECTED, r);
        all.computeIfAbsent(PredictionTables.SELECTED, k -> new Acc()).add(r);
      }
    }
    List<Row> out = new ArrayList<>();
    by.forEach((w, preds) -> new TreeMap<>(preds).forEach((p, acc) -> out.add(row(w, p, acc, null))));
    skippedWorkloads.forEach((w, reason) -> out.add(RowFactory.create(w, PredictionTables.SELECTED, 0, 0, null, null,
        null, 0, null, reason)));
    new TreeMap<>(all).forEach((p, acc) -> out.add(row(PredictionTables.ALL_WORKLOADS, p, acc, null)));
    return out;
  }

  private static void add(Map<String, Map<String, Acc>> by, String workload, String predictor, Row r) {
    by.computeIfAbsent(workload, k -> new TreeMap<>()).computeIfAbsent(predictor, k -> new Acc()).add(r);
  }

  private static Row row(String workload, String predictor, Acc acc, String note) {
    double[] e = acc.errors.stream().mapToDouble(Double::doubleValue).toArray();
    return RowFactory.create(workload, predictor, acc.configurations, e.length, nan(Stats.mean(e)),
        nan(Stats.median(e)), nan(Stats.quantile(e, 0.9)), acc.withInterval,
        acc.withInterval == 0 ? null : (double) acc.covered / acc.withInterval, note);
  }

  private static Double nan(double v) {
    return Double.isNaN(v) ? null : v;
  }

  /** The summary as a console table: one line per row, over all workloads first. */
  public static String format(List<Row> summary) {
    StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "%-40s %-18s %6s %6s %8s %8s %8s %9s%n",
        "workload", "predictor", "confs", "pred", "mean%", "median%", "p90%", "coverage"));
    List<Row> ordered = new ArrayList<>(summary.stream()
        .filter(r -> PredictionTables.ALL_WORKLOADS.equals(at(r, "workload_id"))).toList());
    ordered.addAll(summary.stream().filter(r -> !PredictionTables.ALL_WORKLOADS.equals(at(r, "workload_id")))
        .toList());
    for (Row r : ordered) {
      if (at(r, "note") != null) {
        out.append(String.format(Locale.ROOT, "%-40s %s%n", clip((String) at(r, "workload_id")), (String) at(r, "note")));
        continue;
      }
      out.append(String.format(Locale.ROOT, "%-40s %-18s %6d %6d %8s %8s %8s %9s%n", clip((String) at(r, "workload_id")),
          (String) at(r, "predictor"), (Integer) at(r, "configurations"), (Integer) at(r, "predicted"),
          num((Double) at(r, "mean_abs_error_pct")), num((Double) at(r, "median_abs_error_pct")),
          num((Double) at(r, "p90_abs_error_pct")), at(r, "interval_coverage") == null ? "-"
              : String.format(Locale.ROOT, "%.0f %%", 100 * (Double) at(r, "interval_coverage"))));
    }
    return out.toString();
  }

  /** A {@code prediction_eval} row's field by name (rows built on the driver carry no schema). */
  private static Object ev(Row r, String name) {
    return r.get(PredictionTables.EVAL.fieldIndex(name));
  }

  /** A summary row's field by name (the rows carry no schema). */
  private static Object at(Row r, String name) {
    return r.get(PredictionTables.SUMMARY.fieldIndex(name));
  }

  private static String clip(String s) {
    return s.length() <= 40 ? s : s.substring(0, 37) + "...";
  }

  private static String num(Double v) {
    return v == null ? "-" : String.format(Locale.ROOT, "%.1f", v);
  }
}
