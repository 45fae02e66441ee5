package org.perflab.spark.recommend;

import org.perflab.recommend.Memory;
import org.perflab.recommend.Objective;
import org.perflab.recommend.Prices;
import org.perflab.recommend.SweptPoint;
import org.perflab.recommend.WorkloadRecommender;
import static org.apache.spark.sql.functions.col;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.perflab.costmodel.Codec;
import org.perflab.memory.MemoryManager;
import org.perflab.costmodel.SerializerKind;
import org.perflab.grouping.SizeClass;
import org.perflab.prediction.Configuration;
import org.perflab.prediction.Measured;
import org.perflab.prediction.Run;
import org.perflab.prediction.WorkloadTransfer;
import org.perflab.spark.storage.TableStore;
import org.perflab.spark.sweep.SweepRows;
import scala.Tuple2;

/**
 * {@code recommend} as a Spark transform: the side tables (small: one row per workload or class) are collected into
 * a {@link WorkloadRecommender.Context} per workload, the runs grouped by workload, and each workload recommended on
 * an executor. Reads and writes nothing.
 */
public final class Recommendations {
  /** {@code memory_recommendations.scope} of the per-workload rows. */
  static final String WORKLOAD_SCOPE = "workload";

  private Recommendations() {}

  /** The {@code recommendations} rows of {@code inputs}. */
  public static Dataset<Row> of(SparkSession spark, RecommendInputs inputs, Objective objective, Prices prices) {
    Map<String, List<WorkloadRecommender.SizeClassRuns>> classes = classes(inputs.classes());
    JavaPairRDD<String, Iterable<Run>> byWorkload = inputs.runs().javaRDD()
        .mapToPair(r -> new Tuple2<>(r.<String>getAs("workload_id"), run(r))).groupByKey().cache();
    // Every workload's runs, read once from the grouped runs and indexed once, are lent to the others'
    // workload_transfer, as evaluate lends them.
    List<Run> everyRun = byWorkload.values().flatMap(Iterable::iterator).collect();
    Map<Configuration, Map<String, Measured>> lent = WorkloadTransfer.index(everyRun);
    Map<String, WorkloadRecommender.Context> contexts = contexts(inputs, classes.keySet(), lent);
    java.util.Set<String> withRuns = new java.util.HashSet<>(everyRun.stream().map(Run::workloadId).toList());
    JavaRDD<Row> rows = byWorkload.flatMap(g -> {
      List<Run> runs = new ArrayList<>();
      g._2().forEach(runs::add);
      runs.sort(java.util.Comparator.comparing(Run::runKey));
      return WorkloadRecommender.recommend(g._1(), runs, classes.getOrDefault(g._1(), List.of()),
          contexts.get(g._1()), objective, prices).stream().map(RecommendTables::row).iterator();
    });
    List<Row> without = new ArrayList<>();
    classes.forEach((w, cs) -> {
      if (!withRuns.contains(w)) {
        WorkloadRecommender.recommend(w, List.of(), cs, contexts.get(w), objective, prices)
            .forEach(r -> without.add(RecommendTables.row(r)));
      }
    });
    JavaRDD<Row> all = rows.union(spark.createDataFrame(without, RecommendTables.SCHEMA).javaRDD());
    return spark.createDataFrame(all, RecommendTables.SCHEMA).orderBy("workload_id", "size_class");
  }

  /** A row of {@code RunTable.SCHEMA} as a run. */
  public static Run run(Row r) {
    return new Run(r.getAs("run_key"), r.getAs("workload_id"), r.<Long>getAs("input_bytes"),
        r.<Integer>getAs("executors"), r.<Integer>getAs("cores_per_executor"), r.getAs("executor_memory_bytes"),
        r.<Double>getAs("duration_s"));
  }

  private static Map<String, List<WorkloadRecommender.SizeClassRuns>> classes(Dataset<Row> classes) {
    Map<String, List<WorkloadRecommender.SizeClassRuns>> out = new TreeMap<>();
    classes.orderBy("workload_id", "size_class").collectAsList().forEach(r -> out.computeIfAbsent(
        r.getAs("workload_id"), k -> new ArrayList<>()).add(new WorkloadRecommender.SizeClassRuns(
        r.<Integer>getAs("size_class"), r.<Integer>getAs("runs"), r.<Long>getAs("input_bytes"))));
    return out;
  }

  private static Map<String, WorkloadRecommender.Context> contexts(RecommendInputs in,
      java.util.Set<String> workloads, Map<Configuration, Map<String, Measured>> lent) {
    Map<String, String[]> choices = choices(in.choices());
    Map<String, String> versions = new HashMap<>();
    in.versions().ifPresent(v -> v.collectAsList().forEach(r -> versions.put(r.getString(0), r.getString(1))));
    Map<String, Memory> memory = memory(in.memory(), versions);
    Map<String, List<SweptPoint>> sweep = sweep(in.sweep());
    Map<String, Map<Integer, Long>> shuffle = shuffle(in.shuffle());
    Map<String, List<String>> findings = findings(in.findings());
    Map<String, Map<Integer, String>> scaling = scaling(in.scaling());
    Memory observed = new Memory(null, null, "observed: the measured configuration's spark.executor.memory (no "
        + "memory_recommendations row for the workload)");
    Map<String, WorkloadRecommender.Context> out = new HashMap<>();
    for (String w : workloads) {
      String[] choice = choices.getOrDefault(w, new String[2]);
      out.put(w, new WorkloadRecommender.Context(choice[0], choice[1], memory.getOrDefault(w, observed),
          sweep.getOrDefault(w, List.of()), shuffle.getOrDefault(w, Map.of()), findings.getOrDefault(w, List.of()),
          scaling.getOrDefault(w, Map.of()), WorkloadTransfer.of(w, lent), versions.get(w)));
    }
    return out;
  }

  private static Map<String, String[]> choices(Optional<Dataset<Row>> table) {
    Map<String, String[]> out = new HashMap<>();
    table.ifPresent(t -> t.where(col("predictor").isNotNull()).select("workload_id", "predictor", "reason")
        .collectAsList().forEach(r -> out.put(r.getString(0), new String[] {r.getString(1), r.getString(2)})));
    return out;
  }

  /**
   * Per workload, its {@code memory_recommendations} row's heap and settings; for a workload row with no
   * recommendation, the measured memory with the row's reason.
   */
  private static Map<String, Memory> memory(Optional<Dataset<Row>> table, Map<String, String> versions) {
    Map<String, Memory> out = new HashMap<>();
    table.ifPresent(t -> t.where(col("scope").equalTo(WORKLOAD_SCOPE)).select(col("workload_id"),
            col("executor_memory_bytes").cast("long"), col("memory_overhead_bytes").cast("long"),
            col("tier").cast("string"), TableStore.columnOrNull(t, "memory_fraction", DataTypes.DoubleType),
            TableStore.columnOrNull(t, "storage_fraction", DataTypes.DoubleType),
            TableStore.columnOrNull(t, "storage_memory_fraction", DataTypes.DoubleType),
            TableStore.columnOrNull(t, "shuffle_memory_fraction", DataTypes.DoubleType),
            TableStore.columnOrNull(t, "reason", DataTypes.StringType))
        .collectAsList().forEach(r -> {
          if (!r.isNullAt(1)) {
            out.put(r.getString(0), new Memory(r.getLong(1), r.isNullAt(2) ? null : r.getLong(2),
                "memory_recommendations, tier " + r.getString(3), settings(r, versions.get(r.getString(0)))));
          } else if (!r.isNullAt(8)) {
            out.put(r.getString(0), new Memory(null, null, "observed: the measured configuration's"
                + " spark.executor.memory (memory_recommendations: " + r.getString(8) + ")"));
          }
        }));
    return out;
  }

  /**
   * The fractions a memory row's heap was sized with that raise a region above Spark's default under
   * {@code sparkVersion}, as {@code key=value}: the unified manager's, or the static manager's when the row has them
   * ({@code memory_recommendations.memory_manager}). A fraction below the default is not set: it would only give the
   * heap to user memory, which event logs do not measure, and a need they do not show (no peak execution memory
   * before Spark 1.5) reads as none.
   */
  static List<String> settings(Row r, String sparkVersion) {
    String[] keys = {MemoryManager.MEMORY_FRACTION_KEY, MemoryManager.STORAGE_FRACTION_KEY,
        MemoryManager.STATIC_STORAGE_FRACTION_KEY, MemoryManager.STATIC_SHUFFLE_FRACTION_KEY};
    double[] defaults = {MemoryManager.memoryFractionDefault(sparkVersion), MemoryManager.STORAGE_FRACTION,
        MemoryManager.STATIC_STORAGE_FRACTION, MemoryManager.STATIC_SHUFFLE_FRACTION};
    List<String> out = new ArrayList<>();
    for (int i = 0; i < keys.length; i++) {
      if (!r.isNullAt(4 + i) && r.getDouble(4 + i) > defaults[i]) {
        out.add(keys[i] + "=" + r.getDouble(4 + i));
      }
    }
    return out;
  }

  private static Map<String, List<SweptPoint>> sweep(Optional<Dataset<Row>> table) {
    Map<String, List<SweptPoint>> out = new HashMap<>();
    table.map(SweepRows::onePerPoint).ifPresent(t -> t.where(col("workload_id").isNotNull()
        .and(col("input_bytes").isNotNull()))
        .orderBy("workload_id", "log_id", "executors", "cores_per_executor").collectAsList().forEach(r -> {
          Double gb = r.getAs("executor_memory_gb");
          String codec = r.getAs("codec");
          String serializer = r.getAs("serializer");
          out.computeIfAbsent(r.getAs("workload_id"), k -> new ArrayList<>()).add(new SweptPoint(
              SizeClass.of(r.<Long>getAs("input_bytes")), r.<Integer>getAs("executors"),
              r.<Integer>getAs("cores_per_executor"), gb == null ? null : Math.round(gb * (1L << 30)),
              r.<Double>getAs("mean_s"), r.<Double>getAs("p50_s"), r.<Double>getAs("p90_s"),
              codec == null ? null : Codec.parse(codec), serializer == null ? null : SerializerKind.parse(serializer),
              r.getAs("rule")));
        }));
    return out;
  }

  private static Map<String, Map<Integer, Long>> shuffle(Optional<Dataset<Row>> table) {
    Map<String, Map<Integer, Long>> out = new HashMap<>();
    table.ifPresent(t -> t.where(col("shuffle_bytes").isNotNull()).collectAsList().forEach(r -> out.computeIfAbsent(
        r.getAs("workload_id"), k -> new HashMap<>()).put(r.getAs("size_class"), r.<Long>getAs("shuffle_bytes"))));
    return out;
  }

  private static Map<String, List<String>> findings(Optional<Dataset<Row>> table) {
    Map<String, List<String>> parts = new TreeMap<>();
    table.ifPresent(t -> t.orderBy(col("runs").desc(), col("rule")).collectAsList().forEach(r -> parts
        .computeIfAbsent(r.getAs("workload_id"), k -> new ArrayList<>())
        .add(String.format(Locale.ROOT, "%s in %d runs", r.<String>getAs("rule"), r.<Long>getAs("runs")))));
    Map<String, List<String>> out = new HashMap<>();
    parts.forEach((w, p) -> out.put(w, List.of("findings: " + String.join(", ", p))));
    return out;
  }

  private static Map<String, Map<Integer, String>> scaling(Optional<Dataset<Row>> table) {
    Map<String, Map<Integer, String>> out = new HashMap<>();
    table.ifPresent(t -> t.where(col("best").equalTo(true).and(col("size_class").isNotNull()))
        .orderBy("workload_id", "size_class", "cores_per_executor").collectAsList().forEach(r -> {
          Double r2 = r.getAs("r2");
          Double nStar = r.getAs("n_star");
          String fit = String.format(Locale.ROOT, "scaling: %s fits best (R² %s) over %d core counts at %s cores "
                  + "per executor%s", r.<String>getAs("model"), r2 == null ? "n/a" : String.format(Locale.ROOT,
                  "%.3f", r2), r.<Integer>getAs("points"), r.getAs("cores_per_executor"),
              nStar == null ? "" : String.format(Locale.ROOT, ", fastest near %.0f total cores", nStar));
          out.computeIfAbsent(r.getAs("workload_id"), k -> new HashMap<>())
              .merge(r.<Integer>getAs("size_class"), fit, (a, b) -> a + "; " + b);
        }));
    return out;
  }
}
