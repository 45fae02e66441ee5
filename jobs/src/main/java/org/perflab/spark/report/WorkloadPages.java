package org.perflab.spark.report;

import static org.apache.spark.sql.functions.col;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.perflab.spark.report.Charts.Series;
import org.perflab.spark.report.View.Cell;
import org.perflab.spark.report.View.Chart;
import org.perflab.spark.report.View.Page;
import org.perflab.spark.report.View.Section;
import org.perflab.spark.report.View.TableView;
import org.perflab.spark.sweep.SweepRows;

/**
 * One page per workload: measured runtimes against total cores and input size with the fitted scaling laws, the
 * evaluation harness's errors per predictor, the sweep heatmap and Pareto front, and the recommendations. Each table
 * is read once, filtered to the workloads shown, and collected grouped by workload.
 */
public final class WorkloadPages {
  private static final List<String> LAWS = List.of("amdahl", "gustafson", "sqrt", "power");
  private static final int CURVE_POINTS = 60;

  private final Inputs in;
  private final Map<String, List<Row>> points;
  private final Map<String, List<Row>> fits;
  private final Map<String, List<Row>> errors;
  private final Map<String, List<Row>> choices;
  private final Map<String, List<Row>> sweep;
  private final Map<String, List<Row>> pareto;
  private final Map<String, List<Row>> recommendations;
  private final Map<String, List<Row>> memory;

  private WorkloadPages(Inputs in) {
    this.in = in;
    points = grouped("app_features", "workload_id", "total_cores", "wall_time_s", "input_bytes", "completed");
    fits = grouped("scaling_fits");
    errors = grouped("prediction_eval_summary");
    choices = grouped("predictor_choice", "workload_id", "predictor", "reason");
    sweep = grouped("sweep_results", rows -> SweepRows.onePerPoint(SweepRows.atSweptShuffleSettings(rows)),
        "workload_id", "executors", "cores_per_executor", "mean_s", "core_hours", "rule");
    pareto = grouped("sweep_best", rows -> SweepRows.preferredRulePerLog(SweepRows.atSweptShuffleSettings(rows)));
    recommendations = grouped("recommendations");
    memory = grouped("memory_recommendations");
  }

  /** The page of every workload in {@code workloads}, by path. */
  public static Map<String, Page> build(Inputs in, List<String> workloads) {
    WorkloadPages data = new WorkloadPages(in);
    Map<String, Page> pages = new LinkedHashMap<>();
    for (String workload : workloads) {
      pages.put(Paths.workloadPage(workload), data.page(workload));
    }
    return pages;
  }

  private Map<String, List<Row>> grouped(String table, String... columns) {
    return grouped(table, rows -> rows, columns);
  }

  /** {@code table}'s rows through {@code view}, by workload; null when the table is missing. */
  private Map<String, List<Row>> grouped(String table, java.util.function.UnaryOperator<Dataset<Row>> view,
      String... columns) {
    Optional<Dataset<Row>> rows = in.read(table).map(view);
    if (rows.isEmpty()) {
      return null;
    }
    Dataset<Row> selected = columns.length == 0 ? rows.get()
        : rows.get().select(Arrays.stream(columns).map(c -> col(c)).toArray(org.apache.spark.sql.Column[]::new));
    Map<String, List<Row>> byWorkload = new HashMap<>();
    for (Row row : selected.where(col("workload_id").isNotNull()).collectAsList()) {
      byWorkload.computeIfAbsent(row.getAs("workload_id"), k -> new ArrayList<>()).add(row);
    }
    return byWorkload;
  }

  private Page page(String workload) {
    List<Section> sections = new ArrayList<>();
    sections.add(scaling(workload));
    sections.add(evaluation(workload));
    sections.add(sweep(workload));
    sections.add(recommendation(workload));
    sections.add(memory(workload));
    return new Page("Workload " + workload, "../", Overview.nav("../"), sections);
  }

  private Section scaling(String workload) {
    if (points == null) {
      return Section.note("scaling", "Runtime and scaling laws", in.missing("app_features", "features"));
    }
    List<Row> runs = points.getOrDefault(workload, List.of()).stream()
        .filter(r -> Fmt.dbl(r, "wall_time_s") != null && Fmt.dbl(r, "total_cores") != null).toList();
    List<List<Double>> measured = runs.stream().map(r -> List.of(Fmt.dbl(r, "total_cores"),
        Charts.round(Fmt.dbl(r, "wall_time_s")))).toList();
    List<Series> cores = new ArrayList<>(List.of(new Series("measured runs", "scatter", measured)));
    double maxCores = runs.stream().mapToDouble(r -> Fmt.dbl(r, "total_cores")).max().orElse(1) * 1.5;
    List<String> notes = new ArrayList<>();
    List<Row> laws = fits == null ? List.of() : fits.getOrDefault(workload, List.of());
    if (fits == null) {
      notes.add(in.missing("scaling_fits", "scaling"));
    }
    for (Row fit : laws) {
      String model = fit.getAs("model");
      if (LAWS.contains(model) && Fmt.dbl(fit, "r2") != null) {
        cores.add(new Series(model + " (size class " + Fmt.str(fit, "size_class") + ", R² "
            + Fmt.num(Fmt.dbl(fit, "r2"), 3) + ")", "line", curve(fit, Math.max(2, maxCores))));
      }
    }
    List<List<Double>> byInput = runs.stream().map(r -> List.of(Charts.round(orZero(Fmt.dbl(r, "input_bytes")) / 1e9),
        Charts.round(Fmt.dbl(r, "wall_time_s")))).toList();
    List<Series> input = new ArrayList<>(List.of(new Series("measured runs", "scatter", byInput)));
    double medianCores = runs.stream().mapToDouble(r -> Fmt.dbl(r, "total_cores")).sorted()
        .skip(runs.size() / 2).findFirst().orElse(1);
    double maxGb = byInput.stream().mapToDouble(p -> p.get(0)).max().orElse(1) * 1.2;
    laws.stream().filter(f -> "ernest".equals(f.getAs("model")) && Fmt.dbl(f, "r2") != null).findFirst()
        .ifPresent(f -> input.add(new Series("ernest at " + (int) medianCores + " cores", "line",
            ernest(f, medianCores, Math.max(maxGb, 0.001)))));
    List<Chart> charts = List.of(
        new Chart("chart-runtime-cores", "Runtime against total cores, with the fitted scaling laws",
            ScriptJson.of(Charts.xy("total cores (task slots)", "runtime (s)", cores, false))),
        new Chart("chart-runtime-input", "Runtime against input size", ScriptJson.of(
            Charts.xy("input (GB, 10⁹ bytes)", "runtime (s)", input, false))));
    return new Section("scaling", "Runtime and scaling laws", notes, charts, List.of(fitsTable(laws)), List.of());
  }

  private static TableView fitsTable(List<Row> laws) {
    List<List<Cell>> rows = laws.stream().sorted(Comparator.comparing(r -> r.<String>getAs("model"))).map(r -> List.of(
        Cell.text(r.getAs("model")), Cell.number(Fmt.str(r, "size_class")), Cell.number(Fmt.str(r, "points")),
        Cell.number(Fmt.num(Fmt.dbl(r, "r2"), 3)), Cell.number(Fmt.num(Fmt.dbl(r, "loo_error_pct"), 1)),
        Cell.number(Fmt.num(Fmt.dbl(r, "n_star"), 1)), Cell.text(Fmt.str(r, "best")),
        Cell.text(Fmt.str(r, "note")))).toList();
    return new TableView("fits-table", List.of("law", "size class (log2 bytes)", "points", "R²",
        "leave-one-out error (%)", "best total cores", "best law", "note"), rows);
  }

  /** The law's predicted runtime (s) at total cores 1 to {@code maxCores}. */
  static List<List<Double>> curve(Row fit, double maxCores) {
    List<List<Double>> curve = new ArrayList<>();
    for (int i = 0; i < CURVE_POINTS; i++) {
      double n = 1 + (maxCores - 1) * i / (CURVE_POINTS - 1);
      double y = law(fit.getAs("model"), fit, n);
      if (Double.isFinite(y) && y >= 0) {
        curve.add(List.of(Charts.round(n), Charts.round(y)));
      }
    }
    return curve;
  }

  /** The scaling laws of docs/tables.md#scaling_fits, at {@code n} total cores. */
  static double law(String model, Row fit, double n) {
    return switch (model) {
      case "amdahl" -> (1 - p(fit, "f")) * p(fit, "t_s") / n + p(fit, "f") * p(fit, "t_s");
      case "gustafson" -> p(fit, "t_s") / (n + (1 - n) * p(fit, "f"));
      case "sqrt" -> p(fit, "a") / n + p(fit, "b") * Math.sqrt(n);
      case "power" -> p(fit, "a") / n + p(fit, "b") * Math.pow(n, p(fit, "c"));
      default -> Double.NaN;
    };
  }

  private static List<List<Double>> ernest(Row fit, double cores, double maxGb) {
    Map<String, Double> theta = params(fit);
    List<List<Double>> curve = new ArrayList<>();
    for (int i = 0; i < CURVE_POINTS; i++) {
      double gb = maxGb * i / (CURVE_POINTS - 1);
      double y = theta.getOrDefault("theta0", 0.0) + theta.getOrDefault("theta1", 0.0) * gb / cores
          + theta.getOrDefault("theta2", 0.0) * Math.log(cores) + theta.getOrDefault("theta3", 0.0) * cores;
      curve.add(List.of(Charts.round(gb), Charts.round(y)));
    }
    return curve;
  }

  private static Map<String, Double> params(Row fit) {
    Object map = fit.getAs("params");
    Map<String, Double> out = new HashMap<>();
    if (map instanceof scala.collection.Map<?, ?> m) {
      scala.jdk.javaapi.CollectionConverters.asJava(m).forEach((k, v) -> out.put(k.toString(), ((Number) v)
          .doubleValue()));
    }
    return out;
  }

  private static double p(Row fit, String column) {
    Double value = Fmt.dbl(fit, column);
    return value == null ? Double.NaN : value;
  }

  private Section evaluation(String workload) {
    if (errors == null) {
      return Section.note("evaluation", "Prediction errors", in.missing("prediction_eval_summary", "evaluate"));
    }
    List<Row> rows = errors.getOrDefault(workload, List.of()).stream()
        .sorted(Comparator.comparing(r -> r.<String>getAs("predictor"))).toList();
    List<Row> predicted = rows.stream().filter(r -> Fmt.dbl(r, "median_abs_error_pct") != null).toList();
    List<Chart> charts = predicted.isEmpty() ? List.of() : List.of(new Chart("chart-eval",
        "Held-out error per predictor", ScriptJson.of(Charts.bars("predictor", "absolute error (%)",
        predicted.stream().map(r -> r.<String>getAs("predictor")).toList(), List.of(
            new Series("median", "bar", predicted.stream().map(r -> Charts.round(Fmt.dbl(r, "median_abs_error_pct")))
                .toList()),
            new Series("p90", "bar", predicted.stream().map(r -> Charts.round(orZero(Fmt.dbl(r, "p90_abs_error_pct"))))
                .toList()))))));
    List<List<Cell>> cells = rows.stream().map(r -> List.of(Cell.text(r.getAs("predictor")),
        Cell.number(Fmt.str(r, "configurations")), Cell.number(Fmt.str(r, "predicted")),
        Cell.number(Fmt.num(Fmt.dbl(r, "median_abs_error_pct"), 1)),
        Cell.number(Fmt.num(Fmt.dbl(r, "p90_abs_error_pct"), 1)),
        Cell.number(Fmt.num(Fmt.dbl(r, "interval_coverage"), 2)), Cell.text(Fmt.str(r, "note")))).toList();
    List<String> notes = new ArrayList<>();
    if (rows.isEmpty()) {
      notes.add("The workload was not evaluated.");
    }
    for (Row choice : choices == null ? List.<Row>of() : choices.getOrDefault(workload, List.of())) {
      notes.add("Predictor used: " + Objects.requireNonNullElse(Fmt.str(choice, "predictor"), "none") + " ("
          + Fmt.str(choice, "reason") + ").");
    }
    return new Section("evaluation", "Prediction errors (evaluation harness)", notes, charts,
        List.of(new TableView("eval-table", List.of("predictor", "configurations", "predicted",
            "median error (%)", "p90 error (%)", "80 % interval coverage (ratio)", "note"), cells)), List.of());
  }

  private Section sweep(String workload) {
    if (sweep == null) {
      return Section.note("sweep", "Sweep", in.missing("sweep_results", "sweep"));
    }
    List<Row> rows = sweep.getOrDefault(workload, List.of());
    if (rows.isEmpty()) {
      return Section.note("sweep", "Sweep", "No sweep of this workload in sweep_results.");
    }
    TreeSet<Integer> executors = new TreeSet<>();
    TreeSet<Integer> cores = new TreeSet<>();
    Map<List<Integer>, Double> best = new HashMap<>();
    for (Row r : rows) {
      int e = r.<Integer>getAs("executors");
      int c = r.<Integer>getAs("cores_per_executor");
      executors.add(e);
      cores.add(c);
      best.merge(List.of(e, c), r.<Double>getAs("mean_s"), Math::min);
    }
    List<Integer> xs = new ArrayList<>(executors);
    List<Integer> ys = new ArrayList<>(cores);
    List<List<Object>> cells = new ArrayList<>();
    best.forEach((k, v) -> cells.add(List.of(xs.indexOf(k.get(0)), ys.indexOf(k.get(1)), Charts.round(v))));
    double min = best.values().stream().mapToDouble(Double::doubleValue).min().orElse(0);
    double max = best.values().stream().mapToDouble(Double::doubleValue).max().orElse(1);
    Chart heatmap = new Chart("chart-sweep-heatmap", "Simulated mean runtime (s) by executors × cores per executor"
        + rules(rows),
        ScriptJson.of(Charts.heatmap("executors (count)", "cores per executor (count)",
            xs.stream().map(String::valueOf).toList(), ys.stream().map(String::valueOf).toList(), cells,
            "mean runtime (s)", Charts.round(min), Charts.round(max))));
    List<Series> series = new ArrayList<>(List.of(new Series("grid points", "scatter", rows.stream()
        .map(r -> List.of(Charts.round(r.<Double>getAs("core_hours")), Charts.round(r.<Double>getAs("mean_s"))))
        .toList())));
    List<Row> front = pareto == null ? List.of() : pareto.getOrDefault(workload, List.of()).stream()
        .filter(r -> "pareto".equals(r.getAs("kind")))
        .sorted(Comparator.comparing(r -> r.<Double>getAs("core_hours"))).toList();
    if (!front.isEmpty()) {
      series.add(new Series("Pareto front", "line", front.stream().map(r -> List.of(
          Charts.round(r.<Double>getAs("core_hours")), Charts.round(r.<Double>getAs("time_s")))).toList()));
    }
    Chart paretoChart = new Chart("chart-pareto", "Time against cost of every grid point, with the Pareto front",
        ScriptJson.of(Charts.xy("cost (executor core-hours, core·h)", "simulated runtime (s)", series, false)));
    List<List<Cell>> frontCells = front.stream().map(r -> List.of(Cell.number(Fmt.str(r, "executors")),
        Cell.number(Fmt.str(r, "cores_per_executor")), Cell.number(Fmt.num(Fmt.dbl(r, "time_s"), 1)),
        Cell.number(Fmt.num(Fmt.dbl(r, "core_hours"), 4)))).toList();
    return new Section("sweep", "Sweep", pareto == null ? List.of(in.missing("sweep_best", "sweep")) : List.of(),
        List.of(heatmap, paretoChart), List.of(new TableView("pareto-table", List.of("executors",
        "cores per executor", "time (s)", "cost (core·h)"), frontCells)), List.of());
  }

  /** " (rule baseline)": the scaling rules of the heatmap's rows, sorted; empty when none is recorded. */
  private static String rules(List<Row> rows) {
    List<String> rules = rows.stream().map(r -> r.<String>getAs("rule")).filter(Objects::nonNull).distinct().sorted()
        .toList();
    return rules.isEmpty() ? "" : " (" + (rules.size() == 1 ? "rule " : "rules ") + String.join(", ", rules) + ")";
  }

  private Section recommendation(String workload) {
    if (recommendations == null) {
      return Section.note("recommendation", "Recommendation", in.missing("recommendations", "recommend"));
    }
    List<Row> rows = recommendations.getOrDefault(workload, List.of());
    List<List<Cell>> cells = new ArrayList<>();
    List<String> code = new ArrayList<>();
    for (Row r : rows) {
      cells.add(List.of(Cell.number(Fmt.count(Fmt.lng(r, "input_bytes"))), Cell.number(Fmt.str(r, "executors")),
          Cell.number(Fmt.str(r, "cores_per_executor")), Cell.number(Fmt.count(Fmt.lng(r, "executor_memory_bytes"))),
          Cell.number(Fmt.str(r, "shuffle_partitions")), Cell.number(Fmt.num(Fmt.dbl(r, "predicted_s"), 1)),
          Cell.number(Fmt.num(Fmt.dbl(r, "predicted_low_s"), 1) + " – " + Fmt.num(Fmt.dbl(r, "predicted_high_s"), 1)),
          Cell.number(Fmt.num(Fmt.dbl(r, "core_hours"), 3)), Cell.number(Fmt.num(Fmt.dbl(r, "gb_hours"), 3)),
          Cell.number(Fmt.num(Fmt.dbl(r, "cost"), 3)), Cell.text(Fmt.str(r, "predictor")),
          Cell.text(Fmt.str(r, "evidence"))));
      code.addAll(submitLines(Fmt.str(r, "spark_submit_args")));
    }
    return new Section("recommendation", "Recommendation", rows.isEmpty() ? List.of("No recommendation for this "
        + "workload.") : List.of(), List.of(), List.of(new TableView("recommendation-table", List.of("input (bytes)",
        "executors", "cores per executor", "executor memory (bytes)", "shuffle partitions", "predicted runtime (s)",
        "80 % interval (s)", "core-hours (core·h)", "GB-hours (GB·h)", "cost", "predictor", "evidence"), cells)), code);
  }

  /** spark-submit arguments one per line: each {@code --option value} pair on its own line. */
  static List<String> submitLines(String args) {
    if (args == null || args.isBlank()) {
      return List.of();
    }
    return Arrays.stream(args.trim().split("\\s+(?=--)")).map(String::trim).toList();
  }

  private Section memory(String workload) {
    if (memory == null) {
      return Section.note("memory", "Memory recommendation", in.missing("memory_recommendations", "memory"));
    }
    List<Row> rows = memory.getOrDefault(workload, List.of());
    if (rows.isEmpty()) {
      return Section.note("memory", "Memory recommendation", "No memory recommendation for this workload.");
    }
    List<List<Cell>> cells = rows.stream().map(r -> List.of(Cell.number(Fmt.count(Fmt.lng(r, "applications"))),
        Cell.number(Fmt.count(Fmt.lng(r, "executor_memory_bytes"))),
        Cell.text(orNone(Fmt.str(r, "memory_manager"))),
        Cell.number(Fmt.num(Fmt.dbl(r, "memory_fraction"), 3)), Cell.number(Fmt.num(Fmt.dbl(r, "storage_fraction"), 2)),
        Cell.number(Fmt.num(Fmt.dbl(r, "storage_memory_fraction"), 2)),
        Cell.number(Fmt.num(Fmt.dbl(r, "shuffle_memory_fraction"), 2)),
        Cell.number(Fmt.count(Fmt.lng(r, "memory_overhead_bytes"))), Cell.number(Fmt.count(Fmt.lng(r, "storage_bytes"))),
        Cell.number(Fmt.count(Fmt.lng(r, "execution_bytes"))), Cell.text(orNone(Fmt.str(r, "collector"))),
        Cell.text(orNone(Fmt.str(r, "tier"))),
        Cell.text(orNone(Optional.ofNullable(Fmt.str(r, "reason")).orElse(Fmt.str(r, "evidence")))))).toList();
    return new Section("memory", "Memory recommendation", List.of("Per executor (memory_recommendations, docs/memory.md):"
        + " the heap, Spark's memory fractions and overhead it recommends, from the storage and execution the runs"
        + " needed."), List.of(), List.of(new TableView("memory-table", List.of("applications",
            "executor memory (bytes)", "memory manager", "memory fraction (ratio)", "storage fraction (ratio)",
            "static storage fraction (ratio)", "static shuffle fraction (ratio)", "memory overhead (bytes)",
            "storage need (bytes)", "execution need (bytes)", "collector", "tier", "evidence or reason"), cells)),
        List.of());
  }

  private static String orNone(String text) {
    return text == null ? Fmt.NONE : text;
  }

  private static double orZero(Double value) {
    return value == null ? 0.0 : value;
  }
}
