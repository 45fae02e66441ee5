package org.perflab.jobs;

import org.perflab.jobs.cli.Preflight;
import org.perflab.jobs.cli.RunSummary;
import org.perflab.jobs.cli.SessionCommand;
import org.perflab.jobs.cli.JobOutcome;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Optional;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.perflab.dagmodel.AppTrace;
import org.perflab.dagmodel.CrossSlotPredictor;
import org.perflab.dagmodel.DagModelBuilder;
import org.perflab.dagmodel.ModelledRun;
import org.perflab.dagmodel.Prediction;
import org.perflab.dagmodel.SampleMode;
import org.perflab.dagmodel.TraceAssembler;
import org.perflab.dagmodel.TracePart;
import org.perflab.errors.BadInputException;
import org.perflab.spark.features.FeatureInputs;
import org.perflab.spark.features.WorkloadTable;
import org.perflab.sim.Model;
import org.perflab.sim.ModelWriter;
import org.perflab.spark.storage.TableStore;
import org.perflab.table.KeyColumns;
import org.perflab.table.Table;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import scala.Tuple2;

/**
 * {@code perflab model}: builds the simulator model of every completed application from the {@code ingest} tables
 * and writes {@code dag_models}; with {@code --predict}, predicts each run's duration from every other run of its
 * workload at another slot count and writes {@code model_predictions}. Options: docs/jobs.md.
 */
@Command(
    name = "model",
    mixinStandardHelpOptions = true,
    description = "Build simulator models of applications from the ingest tables; optionally predict across slots.")
public final class ModelJob implements SessionCommand {
  private static final Logger LOG = LoggerFactory.getLogger(ModelJob.class);

  /** The options of {@code model}. */
  public record Options(String input, String output, SampleMode mode, int apps, boolean predict, long seed,
      Optional<String> workloadProperty) {
    public Options {
      BadInputException.require(apps >= 1, "Cannot model: --apps must be >= 1 (%d)", apps);
    }

    /** Options grouping runs without a workload property (the tag, else the normalised application name). */
    public Options(String input, String output, SampleMode mode, int apps, boolean predict, long seed) {
      this(input, output, mode, apps, predict, seed, Optional.empty());
    }
  }

  /** What a model run did: models built, applications skipped, and the predictions made. */
  public record Summary(long models, long skipped, List<Prediction> predictions) {}

  @Option(names = "--input", required = true, paramLabel = "DIR", description = "Output root of ingest.")
  String input;

  @Option(names = "--output", required = true, paramLabel = "DIR",
      description = "Output root: writes DIR/dag_models and, with --predict, DIR/model_predictions.")
  String output;

  @Option(names = "--mode", defaultValue = "replay", paramLabel = "replay|empirical",
      description = "Task durations as replayed samples or an empirical draw. Default: ${DEFAULT-VALUE}.")
  String mode;

  @Option(names = "--apps", defaultValue = "1", paramLabel = "N",
      description = "Applications simulated per prediction (more for empirical mode). Default: ${DEFAULT-VALUE}.")
  int apps;

  @Option(names = "--predict", description = "Also predict each run from the runs of its workload at other slots.")
  boolean predict;

  @Option(names = "--seed", defaultValue = "1", paramLabel = "N", description = "Seed of the predictions.")
  long seed;

  @Option(names = "--workload-property", paramLabel = "KEY",
      description = "A Spark property naming the workload of untagged runs, as in features. Default: none.")
  String workloadProperty;

  @Override
  public String appName() {
    return "perflab model";
  }

  @Override
  public Work prepare() {
    Options options = new Options(input, output, mode(mode), apps, predict, seed,
        Optional.ofNullable(workloadProperty));
    Preflight.of("model").ingestTables("--input", input, FeatureInputs.TABLES).outputRoot("--output", output);
    return spark -> {
      LOG.info("Modelling the applications under {} into {}", options.input(), options.output());
      Summary summary = run(spark, options);
      List<String> tables = options.predict() ? List.of(DAG_MODELS, MODEL_PREDICTIONS) : List.of(DAG_MODELS);
      JobOutcome outcome = JobOutcome.printed(String.format("model: %d models built, %d applications skipped, %d predictions%n%s",
          summary.models(), summary.skipped(), summary.predictions().size(),
          RunSummary.tables(spark, options.output(), tables)));
      return outcome;
    };
  }

  static SampleMode mode(String text) {
    try {
      return SampleMode.valueOf(text.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new BadInputException("Cannot model: --mode must be replay or empirical (" + text + ")", e);
    }
  }

  /** Builds the models, writes the tables, prints the MAPE per workload, and returns what was done. */
  static Summary run(SparkSession spark, Options options) {
    SampleMode mode = options.mode();
    int apps = options.apps();
    long seed = options.seed();
    JavaRDD<Built> single = traces(spark, options.input(), options.workloadProperty())
        .map(kv -> Built.of(kv._1(), kv._2(), mode, apps));
    JavaRDD<Built> built = (mode == SampleMode.EMPIRICAL ? mergeReplications(single) : single).cache();
    TableStore out = new TableStore(spark, options.output());
    try {
      out.overwrite(DAG_MODELS, spark.createDataFrame(built.map(Built::row).rdd(), MODELS));
      long models = built.filter(b -> b.run() != null).count();
      long skipped = built.filter(b -> b.run() == null).count();
      List<Prediction> predictions = List.of();
      if (options.predict()) {
        predictions = new ArrayList<>(built.filter(b -> b.run() != null)
            .mapToPair(b -> new Tuple2<>(b.group(), b.run()))
            .groupByKey()
            .flatMap(g -> CrossSlotPredictor.predict(list(g._2()), apps, seed).iterator())
            .collect());
        predictions.sort(Comparator.comparing(Prediction::workload).thenComparing(Prediction::fromAppId)
            .thenComparing(Prediction::toAppId));
        Map<String, String> logIds = logIdsByApp(built);
        Map<String, Integer> sizeClasses = built.filter(b -> b.run() != null)
            .mapToPair(b -> new Tuple2<>(b.appId(), b.sizeClass())).collectAsMap();
        out.overwrite(MODEL_PREDICTIONS, spark.createDataFrame(
            predictions.stream().map(p -> predictionRow(p, logIds, sizeClasses)).toList(), PREDICTIONS).coalesce(1));
        report(predictions);
      }
      return new Summary(models, skipped, predictions);
    } finally {
      built.unpersist();
    }
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

  /**
   * Every application's ingested parts, grouped by its key (log id / app id / attempt id); its workload and size
   * class by the workload rule ({@link WorkloadTable}).
   */
  static JavaPairRDD<String, Iterable<TracePart>> traces(SparkSession spark, String root,
      Optional<String> workloadProperty) {
    Dataset<Row> workloads = WorkloadTable.of(FeatureInputs.read(new TableStore(spark, root), "model"), workloadProperty)
        .select(KeyColumns.LOG_ID, KeyColumns.APP_ID, KeyColumns.APP_ATTEMPT_ID, "workload_id", "size_class",
            "input_bytes");
    JavaPairRDD<String, TracePart> apps = read(spark, root, Table.APPLICATIONS, "start_time_ms", "end_time_ms",
        "completed", "max_concurrent_cores", "task_cpus")
        .mapToPair(r -> new Tuple2<>(key(r), r))
        .join(workloads.javaRDD().mapToPair(r -> new Tuple2<>(key(r), r)))
        .mapToPair(kv -> new Tuple2<>(kv._1(), appPart(kv._2()._1(), kv._2()._2())));
    JavaPairRDD<String, TracePart> executors = read(spark, root, Table.EXECUTORS, "is_driver", "total_cores")
        .mapToPair(r -> new Tuple2<>(key(r), new TracePart.ExecutorPart(r.getBoolean(3),
            r.isNullAt(4) ? null : r.getInt(4))));
    JavaPairRDD<String, TracePart> jobs = read(spark, root, Table.JOBS, "job_id", "submission_time_ms",
        "completion_time_ms", "stage_ids")
        .filter(r -> !r.isNullAt(4))
        .mapToPair(r -> new Tuple2<>(key(r), new AppTrace.JobTrace(r.getInt(3), r.getLong(4),
            r.isNullAt(5) ? r.getLong(4) : r.getLong(5), ints(r, 6))));
    JavaPairRDD<String, TracePart> stages = read(spark, root, Table.STAGES, "stage_id", "stage_attempt_id",
        "parent_stage_ids", "num_tasks", "status", "submission_time_ms", "completion_time_ms")
        .mapToPair(r -> new Tuple2<>(key(r), new AppTrace.StageTrace(r.getInt(3), r.getInt(4), ints(r, 5),
            r.isNullAt(6) ? 0 : r.getInt(6), "SKIPPED".equals(r.getString(7)) || "PENDING".equals(r.getString(7)),
            r.isNullAt(8) ? -1 : r.getLong(8), r.isNullAt(9) ? -1 : r.getLong(9))));
    JavaPairRDD<String, TracePart> tasks = read(spark, root, Table.TASKS, "stage_id", "stage_attempt_id",
        "launch_time_ms", "finish_time_ms", "status", "input_bytes", "shuffle_remote_read_bytes",
        "shuffle_local_read_bytes")
        .filter(r -> !r.isNullAt(5) && !r.isNullAt(6))
        .mapToPair(r -> new Tuple2<>(key(r), new AppTrace.TaskTrace(r.getInt(3), r.getInt(4), r.getLong(5),
            r.getLong(6), "SUCCESS".equals(r.getString(7)), longOrZero(r, 8), longOrZero(r, 9) + longOrZero(r, 10))));
    return apps.union(executors).union(jobs).union(stages).union(tasks).groupByKey();
  }

  private static JavaRDD<Row> read(SparkSession spark, String root, Table table, String... columns) {
    String[] all = new String[columns.length + 2];
    all[0] = KeyColumns.APP_ID;
    all[1] = KeyColumns.APP_ATTEMPT_ID;
    System.arraycopy(columns, 0, all, 2, columns.length);
    Dataset<Row> rows = new TableStore(spark, root).read(table).orElseThrow(() -> new BadInputException(
        "Cannot model: no ingest tables under " + root + " (run perflab ingest --output " + root + " first)"));
    return rows.select(KeyColumns.LOG_ID, all).javaRDD();
  }

  /** A long column; null as 0. */
  private static long longOrZero(Row r, int i) {
    return r.isNullAt(i) ? 0L : r.getLong(i);
  }

  /** An array column as a list; null as empty. */
  private static List<Integer> ints(Row r, int i) {
    return r.isNullAt(i) ? List.of() : r.getList(i);
  }

  private static String key(Row r) {
    return r.getString(0) + "/" + r.getString(1) + "/" + (r.isNullAt(2) ? "" : r.getString(2));
  }

  /** The application part of an {@code applications} row and its {@code workloads} row. */
  private static TracePart appPart(Row r, Row workload) {
    return new TracePart.AppPart(r.getString(1), workload.getString(3), workload.getInt(4), r.getLong(3),
        r.getLong(4), r.getBoolean(5), r.isNullAt(6) ? 0 : r.getInt(6), r.isNullAt(7) ? null : r.getInt(7),
        longOrZero(workload, 5));
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

  /** One application's outcome: its run and model, or why it was skipped. */
  record Built(String key, String appId, String workload, Integer sizeClass, ModelledRun run, String reason)
      implements java.io.Serializable {
    static Built of(String key, Iterable<TracePart> parts, SampleMode mode, int apps) {
      Integer sizeClass = sizeClass(parts);
      try {
        AppTrace trace = TraceAssembler.assemble(key, parts);
        Model model = DagModelBuilder.build(trace, mode, apps);
        return new Built(key, trace.appId(), trace.workload(), sizeClass,
            new ModelledRun(trace.appId(), trace.workload(), trace.slots(), trace.durationS(), model,
                trace.inputBytes()), null);
      } catch (BadInputException e) {
        return new Built(key, key.split("/", 3)[1], null, sizeClass, null, e.getMessage());
      } catch (RuntimeException e) {
        // Rows the ingest tables should never hold (null array elements, say): skip the application, say why.
        return new Built(key, key.split("/", 3)[1], null, sizeClass, null, "Cannot model " + key + ": " + e);
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
          new ModelledRun(run.appId(), run.workload(), run.slots(), run.actualS(), model, run.inputBytes()), reason);
    }

    Row row() {
      String[] k = key.split("/", 3);
      if (run == null) {
        return RowFactory.create(k[0], k[1], k[2], null, sizeClass, null, null, null, null, null, null, null, null,
            null, "SKIPPED", reason);
      }
      Model m = run.model();
      double driverS = m.stages().stream().filter(s -> s.name().startsWith("driver-"))
          .mapToDouble(s -> s.distribution().mean()).sum();
      double startupS = m.stages().stream().filter(s -> s.name().equals(DagModelBuilder.STARTUP))
          .mapToDouble(s -> s.distribution().mean()).sum();
      return RowFactory.create(k[0], k[1], k[2], workload, sizeClass, run.inputBytes(), run.slots(), run.actualS(),
          m.stages().size(), m.tasksPerApplication(), driverS, startupS, mode(m), ModelWriter.toJson(m), "OK", null);
    }

    private static String mode(Model m) {
      return m.stages().stream().anyMatch(s -> s.distribution().type().equals("replay")) ? "replay" : "empirical";
    }
  }

  static final StructType MODELS = new StructType()
      .add(KeyColumns.LOG_ID, DataTypes.StringType, false)
      .add(KeyColumns.APP_ID, DataTypes.StringType, false)
      .add(KeyColumns.APP_ATTEMPT_ID, DataTypes.StringType, false)
      .add("workload_id", DataTypes.StringType, true)
      .add("size_class", DataTypes.IntegerType, true)
      .add("input_bytes", DataTypes.LongType, true)
      .add("slots", DataTypes.IntegerType, true)
      .add("duration_s", DataTypes.DoubleType, true)
      .add("model_stages", DataTypes.IntegerType, true)
      .add("tasks", DataTypes.LongType, true)
      .add("driver_s", DataTypes.DoubleType, true)
      .add("startup_s", DataTypes.DoubleType, true)
      .add("mode", DataTypes.StringType, true)
      .add("model_json", DataTypes.StringType, true)
      .add("status", DataTypes.StringType, false)
      .add("reason", DataTypes.StringType, true);

  /** The table names under the output root. */
  static final String DAG_MODELS = "dag_models";
  static final String MODEL_PREDICTIONS = "model_predictions";

  static final StructType PREDICTIONS = new StructType()
      .add(KeyColumns.LOG_ID, DataTypes.StringType, true)
      .add("from_log_id", DataTypes.StringType, true)
      .add("workload_id", DataTypes.StringType, false)
      .add("size_class", DataTypes.IntegerType, true)
      .add("from_app_id", DataTypes.StringType, false)
      .add("to_app_id", DataTypes.StringType, false)
      .add("from_slots", DataTypes.IntegerType, false)
      .add("to_slots", DataTypes.IntegerType, false)
      .add("actual_s", DataTypes.DoubleType, false)
      .add("simulated_s", DataTypes.DoubleType, false)
      .add("simulated_error_pct", DataTypes.DoubleType, false)
      .add("fork_join_s", DataTypes.DoubleType, false)
      .add("fork_join_error_pct", DataTypes.DoubleType, false)
      .add("task_precedence_s", DataTypes.DoubleType, false)
      .add("task_precedence_error_pct", DataTypes.DoubleType, false);

  private static Row predictionRow(Prediction p, Map<String, String> logIds, Map<String, Integer> sizeClasses) {
    return RowFactory.create(logIds.get(p.toAppId()), logIds.get(p.fromAppId()), p.workload(),
        sizeClasses.get(p.toAppId()), p.fromAppId(), p.toAppId(), p.fromSlots(), p.toSlots(), p.actualS(),
        p.simulatedS(), p.simulatedErrorPct(), p.forkJoinS(), p.forkJoinErrorPct(), p.taskPrecedenceS(),
        p.taskPrecedenceErrorPct());
  }
}
