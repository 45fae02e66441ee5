package org.perflab.spark.model;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.perflab.changes.StageRef;
import org.perflab.dagmodel.AppTrace;
import org.perflab.dagmodel.CrossSlotPredictor;
import org.perflab.dagmodel.DagModelBuilder;
import org.perflab.dagmodel.ModelledRun;
import org.perflab.dagmodel.Prediction;
import org.perflab.dagmodel.SampleMode;
import org.perflab.dagmodel.TraceAssembler;
import org.perflab.dagmodel.TracePart;
import org.perflab.errors.BadInputException;
import org.perflab.sim.Model;
import org.perflab.sim.ModelWriter;
import org.perflab.spark.features.FeatureInputs;
import org.perflab.spark.storage.ChangedLogs;
import org.perflab.spark.storage.SchemaRow;
import org.perflab.spark.storage.TableStore;
import org.perflab.table.KeyColumns;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Tuple2;

/**
 * The {@code model} run: builds the simulator model of every completed application from the ingest tables into
 * {@code dag_models} and, when asked, predicts each run from the runs of its workload at other slot counts into
 * {@code model_predictions}.
 *
 * <p>In replay mode without predictions, a run models only the logs ingested since its last run ({@link ChangedLogs},
 * watermark {@code model}) and replaces their rows; {@code full}, empirical mode (whose models merge the samples of
 * every run of a workload) and predictions (which pair every run) model every application.
 */
public final class DagModels {
  private static final Logger LOG = LoggerFactory.getLogger(DagModels.class);
  /** The job's name: its messages and its watermark. */
  public static final String JOB = "model";

  /**
   * The options of a run.
   *
   * @param mode task durations as replayed samples or an empirical draw
   * @param apps applications simulated per prediction
   * @param predict also write {@code model_predictions}
   * @param seed the seed of the predictions and of the stages' duration samples
   * @param workloadProperty the property naming the workload of untagged runs, as in features
   * @param full model every application, ignoring the watermark
   * @param samplesPerStage task durations kept per stage ({@link StageTaskSamples})
   */
  public record Options(String input, String output, SampleMode mode, int apps, boolean predict, long seed,
      Optional<String> workloadProperty, boolean full, int samplesPerStage) {
    public Options {
      BadInputException.require(apps >= 1, "Cannot model: --apps must be >= 1 (%d)", apps);
      BadInputException.require(samplesPerStage >= 1, "Cannot model: samples per stage must be >= 1 (%d)",
          samplesPerStage);
    }

    /** Whether a run must model every application whatever the watermark says, and why. */
    Optional<String> needsEveryRun() {
      if (mode == SampleMode.EMPIRICAL) {
        return Optional.of("empirical mode merges every run of a workload");
      }
      return predict ? Optional.of("--predict pairs every run of a workload") : Optional.empty();
    }
  }

  /**
   * What a run did.
   *
   * @param plan which logs it modelled
   * @param models models built; {@code skipped} applications skipped with a reason
   */
  public record Summary(ChangedLogs.Plan plan, long models, long skipped, List<Prediction> predictions) {}

  private DagModels() {}

  /** Builds the models, writes the tables, prints the MAPE per workload, and returns what was done. */
  public static Summary run(SparkSession spark, Options options) {
    TableStore input = new TableStore(spark, options.input());
    TableStore out = new TableStore(spark, options.output());
    ChangedLogs changed = new ChangedLogs(input, out, JOB);
    ChangedLogs.Plan plan = plan(changed, options);
    LOG.info("model: {} ({})", plan.mode(), plan.reason());
    if (plan.mode() == ChangedLogs.Mode.UP_TO_DATE) {
      changed.commit(plan);
      return new Summary(plan, 0, 0, List.of());
    }
    FeatureInputs all = FeatureInputs.read(input, JOB);
    UnaryOperator<Dataset<Row>> only = plan::restrict;
    FeatureInputs inputs = plan.incremental() ? all.onlyLogs(plan.logIds()) : all;
    SampleMode mode = options.mode();
    int apps = options.apps();
    JavaRDD<Built> single = ModelTraces.of(input, inputs, options.workloadProperty(), only,
        options.samplesPerStage(), options.seed()).map(kv -> Built.of(kv._1(), kv._2(), mode, apps));
    JavaRDD<Built> built = (mode == SampleMode.EMPIRICAL ? mergeReplications(single) : single).cache();
    try {
      changed.write(plan, ModelTables.DAG_MODELS, spark.createDataFrame(built.map(Built::row).rdd(),
          ModelTables.MODELS));
      long models = built.filter(b -> b.run() != null).count();
      long skipped = built.filter(b -> b.run() == null).count();
      List<Prediction> predictions = options.predict() ? predict(spark, out, built, options) : List.of();
      changed.commit(plan);
      return new Summary(plan, models, skipped, predictions);
    } finally {
      built.unpersist();
    }
  }

  private static ChangedLogs.Plan plan(ChangedLogs changed, Options options) {
    ChangedLogs.Plan plan = changed.plan(options.full(), ModelTables.INCREMENTAL);
    Optional<String> every = options.needsEveryRun();
    if (plan.mode() == ChangedLogs.Mode.FULL || every.isEmpty()) {
      return plan;
    }
    return new ChangedLogs.Plan(ChangedLogs.Mode.FULL, plan.sinceRunId(), plan.latestRunId(), Set.of(), every.get());
  }

  private static List<Prediction> predict(SparkSession spark, TableStore out, JavaRDD<Built> built,
      Options options) {
    int apps = options.apps();
    long seed = options.seed();
    List<Prediction> predictions = new ArrayList<>(built.filter(b -> b.run() != null)
        .mapToPair(b -> new Tuple2<>(b.group(), b.run()))
        .groupByKey()
        .flatMap(g -> CrossSlotPredictor.predict(list(g._2()), apps, seed).iterator())
        .collect());
    predictions.sort(Comparator.comparing(Prediction::workload).thenComparing(Prediction::fromAppId)
        .thenComparing(Prediction::toAppId));
    Map<String, String> logIds = logIdsByApp(built);
    Map<String, Integer> sizeClasses = built.filter(b -> b.run() != null)
        .mapToPair(b -> new Tuple2<>(b.appId(), b.sizeClass())).collectAsMap();
    out.overwrite(ModelTables.MODEL_PREDICTIONS, spark.createDataFrame(
        predictions.stream().map(p -> predictionRow(p, logIds, sizeClasses)).toList(), ModelTables.PREDICTIONS)
        .coalesce(1));
    report(predictions);
    return predictions;
  }

  /** The log of each modelled application, by application id (for the predictions' {@code log_id}). */
  private static Map<String, String> logIdsByApp(JavaRDD<Built> built) {
    Map<String, String> logIds = new HashMap<>();
    built.filter(b -> b.run() != null).map(b -> b.key().split("/", 3)).collect()
        .forEach(k -> logIds.merge(k[1], k[0], (a, b) -> a.compareTo(b) <= 0 ? a : b));
    return logIds;
  }

  /**
   * Empirical mode: each run's stages draw from the task durations of every run of its workload and size class at
   * the same slot count (its replications), so a run is never merged with a run it will be asked to predict.
   */
  static JavaRDD<Built> mergeReplications(JavaRDD<Built> single) {
    JavaRDD<Built> merged = single.filter(b -> b.run() != null)
        .mapToPair(b -> new Tuple2<>(b.group() + "@" + b.run().slots(), b))
        .groupByKey()
        .flatMap(group -> {
          List<Built> runs = list(group._2());
          runs.sort(Comparator.comparing(Built::key));
          List<Built> out = new ArrayList<>();
          for (Built b : runs) {
            List<Model> others = runs.stream().filter(o -> o != b).map(o -> o.run().model()).toList();
            out.add(b.withModel(DagModelBuilder.mergeSamples(b.run().model(), others)));
          }
          return out.iterator();
        });
    return merged.union(single.filter(b -> b.run() == null));
  }

  private static <T> List<T> list(Iterable<T> items) {
    List<T> out = new ArrayList<>();
    items.forEach(out::add);
    return out;
  }

  private static void report(List<Prediction> predictions) {
    predictions.stream().map(Prediction::workload).distinct().forEach(w -> {
      List<Prediction> mine = predictions.stream().filter(p -> p.workload().equals(w)).toList();
      System.out.printf(Locale.ROOT,
          "model: workload=%s predictions=%d mape_simulator_pct=%.2f mape_fork_join_pct=%.2f "
              + "mape_task_precedence_pct=%.2f%n", w, mine.size(),
          CrossSlotPredictor.mape(mine, Prediction::simulatedErrorPct),
          CrossSlotPredictor.mape(mine, Prediction::forkJoinErrorPct),
          CrossSlotPredictor.mape(mine, Prediction::taskPrecedenceErrorPct));
    });
  }

  private static Row predictionRow(Prediction p, Map<String, String> logIds, Map<String, Integer> sizeClasses) {
    return RowFactory.create(logIds.get(p.toAppId()), logIds.get(p.fromAppId()), p.workload(),
        sizeClasses.get(p.toAppId()), p.fromAppId(), p.toAppId(), p.fromSlots(), p.toSlots(), p.actualS(),
        p.simulatedS(), p.simulatedErrorPct(), p.forkJoinS(), p.forkJoinErrorPct(), p.taskPrecedenceS(),
        p.taskPrecedenceErrorPct());
  }

  /** One application's outcome: its run and model, or why it was skipped. */
  record Built(String key, String appId, String workload, Integer sizeClass, ModelledRun run, List<StageRef> stages,
      String reason) implements Serializable {
    static Built of(String key, Iterable<TracePart> parts, SampleMode mode, int apps) {
      Integer sizeClass = sizeClass(parts);
      try {
        AppTrace trace = TraceAssembler.assemble(key, parts);
        Model model = DagModelBuilder.build(trace, mode, apps);
        return new Built(key, trace.appId(), trace.workload(), sizeClass,
            new ModelledRun(trace.appId(), trace.workload(), trace.slots(), trace.durationS(), model,
                trace.inputBytes()), DagModelBuilder.stageRefs(trace), null);
      } catch (BadInputException e) {
        return new Built(key, key.split("/", 3)[1], null, sizeClass, null, List.of(), e.getMessage());
      } catch (RuntimeException e) {
        // Rows the ingest tables should never hold (null array elements, say): skip the application, say why.
        return new Built(key, key.split("/", 3)[1], null, sizeClass, null, List.of(),
            "Cannot model " + key + ": " + e);
      }
    }

    private static Integer sizeClass(Iterable<TracePart> parts) {
      for (TracePart part : parts) {
        if (part instanceof TracePart.AppPart app) {
          return app.sizeClass();
        }
      }
      return null;
    }

    /** The runs predicted from one another: one workload at one size class. */
    String group() {
      return run.workload() + "@size" + sizeClass;
    }

    Built withModel(Model model) {
      return new Built(key, appId, workload, sizeClass,
          new ModelledRun(run.appId(), run.workload(), run.slots(), run.actualS(), model, run.inputBytes()), stages,
          reason);
    }

    Row row() {
      String[] k = key.split("/", 3);
      SchemaRow row = SchemaRow.of(ModelTables.MODELS)
          .set(KeyColumns.LOG_ID, k[0])
          .set(KeyColumns.APP_ID, k[1])
          .set(KeyColumns.APP_ATTEMPT_ID, k[2])
          .set("size_class", sizeClass);
      if (run == null) {
        return row.set("status", "SKIPPED").set("reason", reason).row();
      }
      Model m = run.model();
      double driverS = m.stages().stream().filter(s -> s.name().startsWith("driver-"))
          .mapToDouble(s -> s.distribution().mean()).sum();
      double startupS = m.stages().stream().filter(s -> s.name().equals(DagModelBuilder.STARTUP))
          .mapToDouble(s -> s.distribution().mean()).sum();
      return row.set("workload_id", workload)
          .set("input_bytes", run.inputBytes())
          .set("slots", run.slots())
          .set("duration_s", run.actualS())
          .set("model_stages", m.stages().size())
          .set("tasks", m.tasksPerApplication())
          .set("driver_s", driverS)
          .set("startup_s", startupS)
          .set("mode", mode(m))
          .set("model_json", ModelWriter.toJson(m))
          .set("status", "OK")
          .set(ModelTables.STAGE_REFS, scala.jdk.javaapi.CollectionConverters.asScala(stages.stream()
              .map(r -> RowFactory.create(r.stageId(), r.jobOrdinal(), r.name())).toList()).toSeq())
          .row();
    }

    private static String mode(Model m) {
      return m.stages().stream().anyMatch(s -> s.distribution().type().equals("replay")) ? "replay" : "empirical";
    }
  }
}
