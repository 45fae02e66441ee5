package org.perflab.jobs.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.spark.sql.SparkSession;
import org.perflab.prediction.Blend;
import org.perflab.prediction.Configuration;
import org.perflab.prediction.Goals;
import org.perflab.prediction.Harness;
import org.perflab.prediction.Measured;
import org.perflab.prediction.Memo;
import org.perflab.prediction.NoiseFloor;
import org.perflab.prediction.PredictionRow;
import org.perflab.prediction.Predictor;
import org.perflab.prediction.Predictors;
import org.perflab.prediction.RatioTransfer;
import org.perflab.prediction.Run;
import org.perflab.prediction.RunModel;
import org.perflab.prediction.Selection;
import org.perflab.prediction.SimulatorFamily;
import org.perflab.prediction.Stats;
import org.perflab.prediction.WorkloadTransfer;
import org.perflab.spark.features.FeatureTables;
import org.perflab.spark.prediction.Evaluation;
import org.perflab.spark.prediction.RunTable;
import org.perflab.spark.storage.DeltaSessions;
import org.perflab.spark.storage.TableStore;

/**
 * The goals of issue 28 per data set, before and after the combining predictors, in the same run: the harness over
 * the runtime-only predictors without {@link Blend} and {@link RatioTransfer}, selecting on all the training
 * configurations ({@code before}: issue 11's harness), and with both, selecting in the target's region ({@code
 * after}: {@link Selection.Evidence}), on the driver, each
 * data set's noise floor ({@link NoiseFloor}), the goals ({@link Goals}) and the harness's wall time, also for issue 11's
 * predictors with every fit made anew ({@code before, fits not remembered}: the harness before {@link Memo}, its laws
 * and Ernest fitted with their diagnostics as then: {@link Predictors#unremembered}). Each argument is
 * {@code LABEL=PATH}: a runtime table ({@code .csv}) or an output root of {@code features}. When the root holds
 * {@code dag_models} (event logs modelled by {@code model}), two more variants run every predictor of {@code
 * evaluate}, the simulator family included: without the DAG-aware {@code stages} and with it. Not a test: it prints
 * figures. Run with {@code bench/run prediction cems=/tmp/cems grep=grep.csv sgd=sgd.csv}. {@code BLEND_VARIANTS=3,12}
 * in the environment adds blends weighted on that many nearest training configurations as further rows (and
 * candidates of the selection "after"); {@code PREDICTION_ROWS=DIR} writes each variant's rows to a file there.
 */
public final class PredictionBenchmark {
  /** The runtime-only predictors with {@code workload_transfer} (issue 28: strength borrowed across workloads). */
  static final String BORROWING = "after, borrowing";
  /** {@link #WITH_MODELS} with {@code workload_transfer}. */
  static final String WITH_MODELS_BORROWING = "after, with models, borrowing";
  /** The variant with every predictor of {@code evaluate}'s harness, the runs' models included. */
  static final String WITH_MODELS = "after, with models";
  /**
   * {@link #WITH_MODELS} without {@code stages}, as a row and in the blend: {@code evaluate}'s harness before the
   * DAG-aware predictor.
   */
  static final String WITHOUT_STAGES = "after, with models, no stages";

  private PredictionBenchmark() {}

  /** {@code predictors} without {@code stages}, as a row and as a member of the blend. */
  private static List<Predictor> withoutStages(List<Predictor> predictors) {
    return predictors.stream().filter(p -> !p.name().equals(SimulatorFamily.STAGES))
        .map(p -> p instanceof Blend b ? new Blend(b.name(), b.members().stream()
            .filter(m -> !m.name().equals(SimulatorFamily.STAGES)).toList(), b.evidenceCount()) : p).toList();
  }

  public static void main(String[] args) {
    SparkSession spark = DeltaSessions.builder("perflab prediction benchmark").master("local[2]")
        .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "4").getOrCreate();
    System.out.printf(Locale.ROOT, "load average: %.2f%n",
        java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    for (String arg : args) {
      String[] labelPath = arg.split("=", 2);
      List<Run> runs = runs(spark, labelPath[1]);
      report(labelPath[0], runs, models(spark, labelPath[1]));
    }
    spark.stop();
  }

  /** The runs of a runtime table or of a features root, on the driver. */
  static List<Run> runs(SparkSession spark, String path) {
    RunTable.Runs runs = path.endsWith(".csv") ? RunTable.fromCsv(spark, path)
        : RunTable.fromWorkloads(new TableStore(spark, path).read(FeatureTables.WORKLOADS_TABLE).orElseThrow());
    List<Run> out = new ArrayList<>(Evaluation.collectRuns(runs.rows()));
    out.sort(java.util.Comparator.comparing(Run::runKey));
    return out;
  }

  /**
   * The runs' simulator models ({@code dag_models.model_json} of the OK rows) by run key, when {@code path} is an
   * output root that has them; empty for a runtime table.
   */
  static Map<String, RunModel> models(SparkSession spark, String path) {
    Map<String, RunModel> out = new TreeMap<>();
    if (path.endsWith(".csv")) {
      return out;
    }
    new TableStore(spark, path).read(org.perflab.spark.model.ModelTables.DAG_MODELS).ifPresent(models -> models
        .where(org.apache.spark.sql.functions.col("status").equalTo("OK")
            .and(org.apache.spark.sql.functions.col(Evaluation.MODEL_JSON).isNotNull()))
        .select(RunTable.runKey().as("run_key"), org.apache.spark.sql.functions.col(Evaluation.MODEL_JSON),
            Evaluation.stageRefs(models)).collectAsList()
        .forEach(r -> out.put(r.getString(0), Evaluation.runModel(r))));
    return out;
  }

  static void report(String label, List<Run> runs, Map<String, RunModel> models) {
    NoiseFloor.Floor floor = NoiseFloor.of(runs, 1);
    System.out.printf(Locale.ROOT, "%n== %s: %d runs; noise floor %.2f %% over %d configurations%n", label,
        runs.size(), floor.meanAbsErrorPct(), floor.configurations());
    Map<String, List<PredictionRow>> rows = new TreeMap<>();
    // Each variant gets predictors of its own, so that no variant's time profits from another's remembered fits.
    List<String> variants = new ArrayList<>(List.of("before, fits not remembered", "before", "after", BORROWING));
    if (!models.isEmpty()) {
      variants.add(WITHOUT_STAGES);
      variants.add(WITH_MODELS);
      variants.add(WITH_MODELS_BORROWING);
    }
    Map<Configuration, Map<String, Measured>> measured = WorkloadTransfer.index(runs);
    for (String variant : variants) {
      Function<String, List<Predictor>> predictors = variant.startsWith("before")
          ? same(before(variant.equals("before")))
          : variant.equals(WITH_MODELS) ? same(Predictors.all(new SimulatorFamily(models, 1, 1)))
          : variant.equals(WITH_MODELS_BORROWING)
              ? w -> Predictors.all(new SimulatorFamily(models, 1, 1), WorkloadTransfer.of(w, measured))
          : variant.equals(WITHOUT_STAGES) ? same(withoutStages(Predictors.all(new SimulatorFamily(models, 1, 1))))
          : variant.equals(BORROWING) ? w -> Predictors.all(null, WorkloadTransfer.of(w, measured))
          : same(after());
      long start = System.nanoTime();
      List<PredictionRow> all = evaluate(runs, predictors, variant.startsWith("before")
          ? Selection.Evidence.ALL_TRAINING : Selection.Evidence.TARGET_REGION);
      System.out.printf(Locale.ROOT, "%s: %d predictors, harness %.1f s%n", variant,
          all.stream().map(PredictionRow::predictor).distinct().count(), (System.nanoTime() - start) / 1e9);
      rows.put(variant, all);
      dump(label, variant, all);
    }
    table(rows.get("after"), rows.get("before"));
    System.out.println(BORROWING + " (workload_transfer: the other workloads' speed-ups):");
    table(rows.get(BORROWING), rows.get("after"), "borrowing", "after");
    if (rows.containsKey(WITH_MODELS)) {
      System.out.println(WITH_MODELS + " (the simulator family and stages of " + models.size() + " models):");
      table(rows.get(WITH_MODELS), rows.get(WITHOUT_STAGES), "models", "models, no stages");
      System.out.println(WITH_MODELS_BORROWING + ":");
      table(rows.get(WITH_MODELS_BORROWING), rows.get(WITH_MODELS), "borrowing", "models");
    }
    for (String which : rows.keySet().stream().filter(v -> !v.contains("not remembered")).toList()) {
      System.out.println("goals " + which + ":");
      Goals.of(rows.get(which), floor.meanAbsErrorPct()).forEach(g -> System.out.println("  " + g.describe()));
    }
  }

  /**
   * With {@code PREDICTION_ROWS=DIR} in the environment, writes {@code rows} one per line to {@code
   * DIR/LABEL-VARIANT.txt}, so that two builds' rows can be compared exactly (diff).
   */
  private static void dump(String label, String variant, List<PredictionRow> rows) {
    String dir = System.getenv("PREDICTION_ROWS");
    if (dir == null || dir.isBlank()) {
      return;
    }
    java.nio.file.Path file = java.nio.file.Path.of(dir, label + "-" + variant.replaceAll("[^a-z]+", "_") + ".txt");
    try {
      java.nio.file.Files.createDirectories(file.getParent());
      java.nio.file.Files.write(file, rows.stream().map(PredictionRow::toString).toList());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("Cannot write the rows: " + e.getMessage() + " (" + file + ")", e);
    }
  }

  /** The runtime-only predictors, with the blends of {@code BLEND_VARIANTS}. */
  static List<Predictor> after() {
    List<Predictor> after = new ArrayList<>(Predictors.runtimeOnly());
    Blend blend = (Blend) after.stream().filter(p -> p instanceof Blend).findFirst().orElseThrow();
    for (String variant : System.getenv().getOrDefault("BLEND_VARIANTS", "").split(",")) {
      if (!variant.isBlank()) {
        after.add(new Blend("blend_" + variant, blend.members(), Integer.parseInt(variant)));
      }
    }
    return after;
  }

  /**
   * Issue 11's predictors: the runtime-only ones without {@code blend} and {@code transfer}; with {@code remembered}
   * false, as issue 11's harness made every fit ({@link Predictors#unremembered}).
   */
  static List<Predictor> before(boolean remembered) {
    List<Predictor> out = new ArrayList<>();
    for (Predictor p : Predictors.runtimeOnly()) {
      if (p instanceof Blend || p.name().equals(RatioTransfer.NAME)) {
        continue;
      }
      out.add(remembered ? p : Predictors.unremembered(p));
    }
    return out;
  }

  static List<PredictionRow> evaluate(List<Run> runs, Function<String, List<Predictor>> predictors,
      Selection.Evidence evidence) {
    List<PredictionRow> out = new ArrayList<>();
    Harness.byWorkload(runs).forEach((w, rs) ->
        out.addAll(Harness.evaluate(w, rs, predictors.apply(w), evidence).rows()));
    return out;
  }

  /** The same predictors for every workload. */
  private static Function<String, List<Predictor>> same(List<Predictor> predictors) {
    return w -> predictors;
  }



  /** Per predictor of {@code after}, and {@code selected} before and after: mean, median, coverage. */
  static void table(List<PredictionRow> after, List<PredictionRow> before) {
    table(after, before, "after", "before");
  }

  /** {@link #table(List, List)} with the two variants' names. */
  static void table(List<PredictionRow> after, List<PredictionRow> before, String afterName, String beforeName) {
    System.out.printf(Locale.ROOT, "%-18s %6s %8s %8s %9s%n", "predictor", "pred", "mean%", "median%", "coverage");
    line("selected " + beforeName, before.stream().filter(PredictionRow::selected).toList());
    line("selected " + afterName, after.stream().filter(PredictionRow::selected).toList());
    after.stream().map(PredictionRow::predictor).distinct().forEach(p ->
        line(p, after.stream().filter(r -> r.predictor().equals(p)).toList()));
  }

  private static void line(String name, List<PredictionRow> rows) {
    double[] e = rows.stream().filter(r -> r.absErrorPct() != null).mapToDouble(PredictionRow::absErrorPct)
        .toArray();
    long withInterval = rows.stream().filter(r -> r.lowS() != null).count();
    long covered = rows.stream().filter(PredictionRow::covered).count();
    System.out.printf(Locale.ROOT, "%-18s %6d %8.1f %8.1f %8.0f %%%n", name, e.length, Stats.mean(e),
        Stats.median(e), withInterval == 0 ? Double.NaN : 100.0 * covered / withInterval);
  }
}
