package org.perflab.spark.scaling;

import org.perflab.scaling.ErnestFit;
import org.perflab.scaling.Law;
import org.perflab.scaling.LawFit;
import static org.apache.spark.sql.functions.array_sort;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.collect_list;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.percentile;
import static org.apache.spark.sql.functions.struct;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The {@code scaling_fits} rows of a {@code workloads} table, fitted on the executors (no run reaches the driver):
 *
 * <ol>
 *   <li><b>Runs.</b> Completed applications with a duration and total cores ≥ 1.
 *   <li><b>Points.</b> Per series and total cores, the median duration over its runs, in s (the mean of the two middle
 *       runs for an even count), and the median input bytes. A <i>series</i> is (workload_id, size_class,
 *       cores_per_executor, executor_memory_bytes), nulls grouping with nulls: runs that differ only in executor
 *       count. The reference averages its 3 repetitions; the median resists the outliers of real archives.
 *   <li><b>Laws.</b> Per series, every {@link Law} over (total cores, median runtime) by {@link LawFit#fit}: a series
 *       with fewer than 3 distinct total cores gets rows with null parameters and the fitter's note. {@code best}
 *       marks the law of the highest R² in the series (the earlier law of {@link Law}'s order on a tie).
 *   <li><b>Ernest.</b> Per (workload_id, cores_per_executor, executor_memory_bytes), across size classes, Ernest's
 *       model over the configurations (size_class, total cores), each with its median input bytes and runtime.
 * </ol>
 */
public final class ScalingFits {
  /** The series of the laws: runs that differ only in executor count. */
  static final List<String> SERIES = List.of(ScalingTables.WORKLOAD_ID, ScalingTables.SIZE_CLASS,
      ScalingTables.CORES_PER_EXECUTOR, ScalingTables.EXECUTOR_MEMORY_BYTES);
  /** Ernest's groups: a series without its size class. */
  static final List<String> ERNEST_GROUP = List.of(ScalingTables.WORKLOAD_ID, ScalingTables.CORES_PER_EXECUTOR,
      ScalingTables.EXECUTOR_MEMORY_BYTES);
  private static final String POINTS = "points";
  private static final double MS_PER_S = 1000;

  private ScalingFits() {}

  /** The fits of every series and Ernest group of {@code workloads} (columns of docs/tables.md#workloads). */
  public static Dataset<Row> of(Dataset<Row> workloads) {
    Dataset<Row> points = points(workloads);
    Dataset<Row> laws = grouped(points, SERIES)
        .flatMap((FlatMapFunction<Row, Row>) series -> lawRows(series).iterator(), Encoders.row(ScalingTables.FITS));
    Dataset<Row> ernest = grouped(points, ERNEST_GROUP)
        .map((MapFunction<Row, Row>) ScalingFits::ernestRow, Encoders.row(ScalingTables.FITS));
    return laws.unionByName(ernest);
  }

  /** One row per series and total cores: the runs, the median runtime in s and the median input bytes. */
  static Dataset<Row> points(Dataset<Row> workloads) {
    Column usable = col("completed").equalTo(true).and(col("duration_ms").isNotNull())
        .and(col(ScalingTables.TOTAL_CORES).geq(1));
    Column[] keys = Stream.concat(SERIES.stream(), Stream.of(ScalingTables.TOTAL_CORES)).map(c -> col(c))
        .toArray(Column[]::new);
    return workloads.where(usable).groupBy(keys).agg(count(lit(1)).as("runs"),
        percentile(col("duration_ms"), lit(0.5)).divide(MS_PER_S).as("runtime_s"),
        percentile(col("input_bytes"), lit(0.5)).as("input_bytes"));
  }

  /** The points of each group of {@code keys}, as one sorted array column {@code points}. */
  private static Dataset<Row> grouped(Dataset<Row> points, List<String> keys) {
    Column point = struct(col(ScalingTables.SIZE_CLASS), col(ScalingTables.TOTAL_CORES), col("input_bytes"),
        col("runtime_s"), col("runs"));
    return points.groupBy(keys.stream().map(c -> col(c)).toArray(Column[]::new))
        .agg(array_sort(collect_list(point)).as(POINTS));
  }

  /** The four law rows of one series. */
  static List<Row> lawRows(Row grouped) {
    Group points = Group.of(grouped);
    List<LawFit> fits = Arrays.stream(Law.values()).map(law -> LawFit.fit(law, points.cores(), points.runtimeS()))
        .toList();
    Optional<LawFit> best = fits.stream().filter(fit -> fit.ok() && !Double.isNaN(fit.r2()))
        .max(Comparator.comparingDouble(LawFit::r2));
    List<Row> rows = new ArrayList<>();
    for (LawFit fit : fits) {
      rows.add(points.values(fit.law().label(), grouped)
          .set(ScalingTables.SIZE_CLASS, grouped.getAs(ScalingTables.SIZE_CLASS))
          .params(fit.ok() ? fit.params() : null)
          .set("t_s", param(fit, "t")).set("f", param(fit, "f"))
          .set("a", param(fit, "a")).set("b", param(fit, "b")).set("c", param(fit, "c"))
          .set("r2", finite(fit.r2())).set("loo_error_pct", finite(fit.looErrorPct()))
          .set("n_star", fit.nStar()).set("min_runtime_s", fit.minRuntimeS())
          .set("best", best.isPresent() && best.get() == fit).set("note", fit.note())
          .row());
    }
    return rows;
  }

  /** The Ernest row of one group. */
  static Row ernestRow(Row grouped) {
    Group points = Group.of(grouped);
    ErnestFit fit = ErnestFit.fit(points.inputBytes(), points.cores(), points.runtimeS());
    Map<String, Double> theta = null;
    if (fit.ok()) {
      theta = new LinkedHashMap<>();
      for (int j = 0; j < fit.theta().length; j++) {
        theta.put("theta" + j, fit.theta()[j]);
      }
    }
    return points.values(ErnestFit.LABEL, grouped).params(theta).set("r2", finite(fit.r2()))
        .set("loo_error_pct", finite(fit.looErrorPct())).set("best", false).set("note", fit.note()).row();
  }

  private static Double param(LawFit fit, String name) {
    return fit.params().get(name);
  }

  private static Double finite(double value) {
    return Double.isFinite(value) ? value : null;
  }

  /** The points of a group, as the fitters take them. */
  private record Group(double[] cores, double[] runtimeS, double[] inputBytes, long runs, int[] distinctCores) {
    static Group of(Row grouped) {
      List<Row> rows = grouped.getList(grouped.fieldIndex(POINTS));
      double[] cores = rows.stream().mapToDouble(p -> p.<Integer>getAs(ScalingTables.TOTAL_CORES)).toArray();
      return new Group(cores, rows.stream().mapToDouble(p -> p.<Double>getAs("runtime_s")).toArray(),
          rows.stream().mapToDouble(p -> p.<Double>getAs("input_bytes")).toArray(),
          rows.stream().mapToLong(p -> p.<Long>getAs("runs")).sum(),
          Arrays.stream(cores).mapToInt(c -> (int) c).distinct().sorted().toArray());
    }

    /** The columns every row of the group shares: its key, the model, and what the points are. */
    Values values(String model, Row grouped) {
      Values values = new Values();
      for (String key : ERNEST_GROUP) {
        values.set(key, grouped.getAs(key));
      }
      List<Integer> distinct = Arrays.stream(distinctCores).boxed().toList();
      return values.set(ScalingTables.MODEL, model).set("points", cores.length).set("runs", runs)
          .set(ScalingTables.TOTAL_CORES, CollectionConverters.asScala(distinct).toSeq());
    }
  }

  /** A {@code scaling_fits} row being filled by column name; unset columns are null. */
  private static final class Values {
    private final Object[] values = new Object[ScalingTables.FITS.size()];

    Values set(String column, Object value) {
      values[ScalingTables.FITS.fieldIndex(column)] = value;
      return this;
    }

    Values params(Map<String, Double> params) {
      return set("params", params == null ? null : CollectionConverters.asScala(params));
    }

    Row row() {
      return RowFactory.create(values);
    }
  }
}
