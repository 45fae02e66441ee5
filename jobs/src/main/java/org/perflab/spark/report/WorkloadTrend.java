package org.perflab.spark.report;

import static org.apache.spark.sql.functions.col;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.perflab.spark.report.Charts.Series;
import org.perflab.spark.report.View.Chart;
import org.perflab.spark.report.View.Section;

/** The overview's trend of runtime and cost per workload over the nights of {@code workload_history}. */
final class WorkloadTrend {
  private WorkloadTrend() {}

  /** The trend section: the {@code top} workloads of the latest night by core-hours, one line each. */
  static List<Section> sections(Inputs in, int top) {
    Optional<Dataset<Row>> history = in.readOutput(WorkloadHistory.TABLE);
    if (history.isEmpty()) {
      return List.of(Section.note("trend", "Trend per workload", "No workload_history table yet: the report "
          + "appends one row per workload and night to it."));
    }
    List<Row> rows = history.get().orderBy(col("run_id"), col("workload_id")).collectAsList();
    TreeSet<String> runs = new TreeSet<>();
    Map<String, Double> latestCost = new HashMap<>();
    for (Row r : rows) {
      runs.add(r.getAs("run_id"));
    }
    String latest = runs.isEmpty() ? "" : runs.last();
    for (Row r : rows) {
      if (latest.equals(r.getAs("run_id"))) {
        Double cost = Fmt.dbl(r, "core_hours");
        latestCost.put(r.getAs("workload_id"), cost == null ? 0.0 : cost);
      }
    }
    List<String> shown = latestCost.entrySet().stream()
        .sorted(Map.Entry.<String, Double>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
        .limit(top).map(Map.Entry::getKey).toList();
    List<String> runList = new ArrayList<>(runs);
    Map<String, Double[]> runtime = new LinkedHashMap<>();
    Map<String, Double[]> cost = new LinkedHashMap<>();
    for (String w : shown) {
      runtime.put(w, new Double[runList.size()]);
      cost.put(w, new Double[runList.size()]);
    }
    Map<String, String> labels = new HashMap<>();
    for (Row r : rows) {
      String w = r.getAs("workload_id");
      int i = runList.indexOf(r.<String>getAs("run_id"));
      labels.put(r.getAs("run_id"), r.getAs("night").toString() + " · " + r.<String>getAs("run_id"));
      if (runtime.containsKey(w)) {
        runtime.get(w)[i] = round(Fmt.dbl(r, "median_wall_time_s"));
        cost.get(w)[i] = round(Fmt.dbl(r, "core_hours"));
      }
    }
    List<String> categories = runList.stream().map(labels::get).toList();
    Chart runtimeChart = new Chart("chart-trend-runtime", "Median runtime per workload and night", ScriptJson.of(
        Charts.lines("night (ingest run)", "median wall time (s)", categories, series(runtime))));
    Chart costChart = new Chart("chart-trend-cost", "Cost per workload and night", ScriptJson.of(
        Charts.lines("night (ingest run)", "executor core-hours (core·h)", categories, series(cost))));
    return List.of(new Section("trend", "Trend per workload", List.of(String.format(
        "%d nights of workload_history; the %d costliest workloads of the latest night.", runList.size(),
        shown.size())), List.of(runtimeChart, costChart), List.of(), List.of()));
  }

  private static List<Series> series(Map<String, Double[]> values) {
    return values.entrySet().stream().map(e -> new Series(e.getKey(), "line", java.util.Arrays.asList(e.getValue()))).toList();
  }

  private static Double round(Double value) {
    return value == null ? null : Charts.round(value);
  }
}
