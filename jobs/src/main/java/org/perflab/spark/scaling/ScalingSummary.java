package org.perflab.spark.scaling;

import org.perflab.scaling.ErnestFit;
import org.perflab.scaling.Law;
import org.perflab.scaling.LawFit;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max_by;
import static org.apache.spark.sql.functions.percentile;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.when;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * What a {@code scaling} run fitted, from its {@code scaling_fits} rows (a few aggregated rows reach the driver).
 *
 * @param series the series of the laws
 * @param fittedSeries the series fitted: with 3 distinct total cores or more
 * @param ernestGroups the groups of Ernest's model
 * @param ernestFitted the groups with Ernest fitted
 * @param best per law label, the series whose highest R² among the four laws is that law's
 * @param paperBest per label of the paper's three (sqrt, amdahl, gustafson), the series whose highest R² among
 *     those three is that law's: the reference's "25 / 4 / 6 of 35" tally
 * @param medianLooErrorPct per model label (the laws, then ernest), the median leave-one-out error over its fits, %;
 *     absent when no fit has one
 */
public record ScalingSummary(long series, long fittedSeries, long ernestGroups, long ernestFitted,
    Map<String, Long> best, Map<String, Long> paperBest, Map<String, Double> medianLooErrorPct) {
  /** The laws of the paper's comparison (Table 6, Fig. 22), in its order. */
  static final List<Law> PAPER = List.of(Law.SQRT, Law.AMDAHL, Law.GUSTAFSON);

  /** The summary of {@code fits}, rows of {@link ScalingTables#FITS}, in two small aggregations. */
  public static ScalingSummary of(Dataset<Row> fits) {
    Map<String, Row> byModel = fits.groupBy(ScalingTables.MODEL)
        .agg(count(lit(1)).as("rows"), count(col("params")).as("fitted"),
            sum(when(col("best"), 1).otherwise(0)).as("best"), percentile(col("loo_error_pct"), lit(0.5)).as("loo"))
        .collectAsList().stream().collect(Collectors.toMap(r -> r.getString(0), r -> r));
    Column[] series = ScalingFits.SERIES.stream().map(c -> col(c)).toArray(Column[]::new);
    Map<String, Long> paper = fits.where(col(ScalingTables.MODEL).isin(labels(PAPER).toArray())
            .and(col("r2").isNotNull()))
        .groupBy(series).agg(max_by(col(ScalingTables.MODEL), col("r2")).as(ScalingTables.MODEL))
        .groupBy(ScalingTables.MODEL).count().collectAsList().stream()
        .collect(Collectors.toMap(r -> r.getString(0), r -> r.getLong(1)));
    Map<String, Long> best = new LinkedHashMap<>();
    Map<String, Double> loo = new LinkedHashMap<>();
    for (String model : modelLabels()) {
      Optional<Row> row = Optional.ofNullable(byModel.get(model));
      if (!model.equals(ErnestFit.LABEL)) {
        best.put(model, row.map(r -> r.<Long>getAs("best")).orElse(0L));
      }
      row.filter(r -> !r.isNullAt(r.fieldIndex("loo"))).ifPresent(r -> loo.put(model, r.<Double>getAs("loo")));
    }
    Map<String, Long> paperBest = new LinkedHashMap<>();
    PAPER.forEach(law -> paperBest.put(law.label(), paper.getOrDefault(law.label(), 0L)));
    // Every series has one row per law, and the gate of 3 core counts is every law's: the sqrt rows count them.
    Optional<Row> sqrt = Optional.ofNullable(byModel.get(Law.SQRT.label()));
    Optional<Row> ernest = Optional.ofNullable(byModel.get(ErnestFit.LABEL));
    return new ScalingSummary(sqrt.map(r -> r.<Long>getAs("rows")).orElse(0L),
        sqrt.map(r -> r.<Long>getAs("fitted")).orElse(0L), ernest.map(r -> r.<Long>getAs("rows")).orElse(0L),
        ernest.map(r -> r.<Long>getAs("fitted")).orElse(0L), best, paperBest, loo);
  }

  /**
   * The lines {@code scaling} prints, e.g.
   *
   * <pre>
   * scaling: 35 series, 33 fitted (2 with fewer than 3 total core counts: null parameters and a note); ernest: 5 of 5
   *   groups fitted
   *   model      best  best of paper's 3  median loo error %
   *   amdahl        3                  4                 6.1
   * </pre>
   */
  public String lines() {
    StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "scaling: %d series, %d fitted (%d with fewer"
        + " than %d total core counts: null parameters and a note); ernest: %d of %d groups fitted", series,
        fittedSeries, series - fittedSeries, LawFit.MIN_CORE_COUNTS, ernestFitted, ernestGroups));
    out.append(String.format(Locale.ROOT, "%n  %-10s %5s %18s %19s", "model", "best", "best of paper's 3",
        "median loo error %"));
    for (String model : modelLabels()) {
      Long paper = paperBest.get(model);
      Double loo = medianLooErrorPct.get(model);
      out.append(String.format(Locale.ROOT, "%n  %-10s %5s %18s %19s", model,
          best.containsKey(model) ? best.get(model).toString() : "-", paper == null ? "-" : paper.toString(),
          loo == null ? "-" : String.format(Locale.ROOT, "%.1f", loo)));
    }
    return out.toString();
  }

  private static List<String> modelLabels() {
    List<String> labels = new ArrayList<>(labels(List.of(Law.values())));
    labels.add(ErnestFit.LABEL);
    return labels;
  }

  private static List<String> labels(List<Law> laws) {
    return laws.stream().map(Law::label).toList();
  }
}
