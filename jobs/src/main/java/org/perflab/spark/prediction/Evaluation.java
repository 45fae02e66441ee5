package org.perflab.spark.prediction;

import org.perflab.prediction.Harness;
import org.perflab.prediction.IntervalSource;
import org.perflab.prediction.PredictionRow;
import org.perflab.prediction.Predictor;
import org.perflab.prediction.Run;
import org.perflab.prediction.RunModel;
import org.perflab.prediction.Selection;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.perflab.changes.StageRef;
import org.perflab.spark.model.ModelTables;
import org.perflab.spark.storage.TableStore;
import scala.Tuple2;

/**
 * The harness as a Spark job: the runs of {@link RunTable#SCHEMA} (plus an optional {@code model_json} column, the
 * run's simulator model) grouped by workload, each workload evaluated by {@link Harness} on an executor. Returns
 * Datasets; reads and writes nothing.
 */
public final class Evaluation {
  /** The optional column holding a run's simulator model (dagSim JSON, as {@code dag_models.model_json}). */
  public static final String MODEL_JSON = "model_json";
  /** The optional column beside {@link #MODEL_JSON}: where the model's stages sit ({@code dag_models.stage_refs}). */
  public static final String STAGE_REFS = ModelTables.STAGE_REFS;
  /** Ranges of (workload, held-out configuration) pairs per core. */
  static final int PAIRS_PER_CORE = 2;

  private Evaluation() {}

  /** Builds a workload's predictors on the executor, from the workload's runs and their models by run key. */
  @FunctionalInterface
  public interface PredictorFactory extends Serializable {
    List<Predictor> predictors(String workloadId, Map<String, RunModel> modelsByRunKey);
  }

  /** The evaluation's tables before writing: {@code prediction_eval}, {@code predictor_choice}, skipped workloads. */
  public record Result(Dataset<Row> rows, Dataset<Row> choices, Map<String, String> skipped) {}

  /**
   * Evaluates every workload of {@code runs}. The work is spread over (workload, held-out configuration) pairs, not
   * one task per workload: the pairs are sorted and cut into contiguous ranges, about {@value #PAIRS_PER_CORE} per
   * core, so that a large workload runs on several cores while the pairs of one range share their predictors (and
   * the simulator's and the blend's memoised predictions).
   */
  public static Result evaluate(SparkSession spark, Dataset<Row> runs, PredictorFactory factory) {
    boolean withModels = List.of(runs.columns()).contains(MODEL_JSON);
    JavaPairRDD<String, Iterable<Row>> byWorkload = runs.javaRDD()
        .mapToPair(r -> new Tuple2<>(r.<String>getAs("workload_id"), r)).groupByKey().cache();
    int ranges = Math.max(1, spark.sparkContext().defaultParallelism() * PAIRS_PER_CORE);
    JavaRDD<Harness.WorkloadEvaluation> evaluations = byWorkload.flatMapToPair(g -> {
      List<Row> rows = new ArrayList<>();
      g._2().forEach(rows::add);
      int n = Math.max(1, Harness.configurations(Workload.of(g._1(), rows, false).runs()).size());
      List<Tuple2<PairKey, List<Row>>> out = new ArrayList<>();
      for (int h = 0; h < (n < Harness.MIN_CONFIGURATIONS ? 1 : n); h++) {
        out.add(new Tuple2<>(new PairKey(g._1(), h), rows));
      }
      return out.iterator();
    }).sortByKey(true, ranges).mapPartitions(pairs -> {
      List<Harness.WorkloadEvaluation> out = new ArrayList<>();
      String current = null;
      Workload w = null;
      List<Predictor> predictors = null;
      while (pairs.hasNext()) {
        Tuple2<PairKey, List<Row>> pair = pairs.next();
        if (!pair._1().workloadId().equals(current)) {
          current = pair._1().workloadId();
          w = Workload.of(current, pair._2(), withModels);
          predictors = factory.predictors(current, w.models());
        }
        out.add(Harness.evaluate(current, w.runs(), predictors, pair._1().heldOut()));
      }
      return out.iterator();
    }).cache();
    Dataset<Row> rows = spark.createDataFrame(
        evaluations.flatMap(e -> e.rows().stream().map(Evaluation::evalRow).iterator()), PredictionTables.EVAL);
    JavaRDD<Row> choiceRows = byWorkload.map(g -> {
      Workload w = Workload.of(g._1(), g._2(), withModels);
      return choiceRow(Harness.choose(g._1(), w.runs(), factory.predictors(g._1(), w.models())), w.runs().size());
    });
    Map<String, String> skipped = new TreeMap<>();
    evaluations.filter(e -> e.skipReason() != null).collect().forEach(e -> skipped.put(e.workloadId(),
        e.skipReason()));
    return new Result(rows, spark.createDataFrame(choiceRows, PredictionTables.CHOICE), skipped);
  }

  /** A (workload, held-out configuration) pair, ordered by workload then configuration index. */
  record PairKey(String workloadId, int heldOut) implements Comparable<PairKey>, Serializable {
    @Override
    public int compareTo(PairKey o) {
      int c = workloadId.compareTo(o.workloadId);
      return c != 0 ? c : Integer.compare(heldOut, o.heldOut);
    }
  }

  /** A workload's runs and, when the runs carry them, their models by run key. */
  record Workload(List<Run> runs, Map<String, RunModel> models) {
    static Workload of(String workloadId, Iterable<Row> rows, boolean withModels) {
      List<Run> runs = new ArrayList<>();
      Map<String, RunModel> models = new HashMap<>();
      for (Row r : rows) {
        String key = r.getAs("run_key");
        runs.add(new Run(key, workloadId, r.<Long>getAs("input_bytes"), r.<Integer>getAs("executors"),
            r.<Integer>getAs("cores_per_executor"), r.getAs("executor_memory_bytes"), r.<Double>getAs("duration_s")));
        if (withModels && r.getAs(MODEL_JSON) != null) {
          models.put(key, runModel(r));
        }
      }
      runs.sort(java.util.Comparator.comparing(Run::runKey));
      return new Workload(runs, models);
    }
  }

  /**
   * The run's model of a row with a {@link #MODEL_JSON} column and, when the row has it, a {@link #STAGE_REFS} column
   * ({@code dag_models} or the runs joined with it); stages with no places when the column is missing or null.
   */
  public static RunModel runModel(Row r) {
    List<StageRef> stages = new ArrayList<>();
    int i = List.of(r.schema().fieldNames()).indexOf(STAGE_REFS);
    if (i >= 0 && !r.isNullAt(i)) {
      for (Row s : r.<Row>getList(i)) {
        stages.add(new StageRef(s.getInt(0), s.getInt(1), s.isNullAt(2) ? null : s.getString(2)));
      }
    }
    return new RunModel(r.getAs(MODEL_JSON), stages);
  }

  /**
   * {@link #STAGE_REFS} of a {@code dag_models} table: its column, or nulls of its type for a table written before the
   * column existed.
   */
  public static Column stageRefs(Dataset<Row> dagModels) {
    return TableStore.columnOrNull(dagModels, STAGE_REFS, DataTypes.createArrayType(ModelTables.STAGE_REF, false))
        .as(STAGE_REFS);
  }

  /** A {@link PredictionRow} as a row of {@link PredictionTables#EVAL}. */
  public static Row evalRow(PredictionRow p) {
    return RowFactory.create(p.workloadId(), p.inputBytes(), p.executors(), p.coresPerExecutor(), p.totalCores(),
        p.executorMemoryBytes(), p.runs(), p.actualS(), p.predictor(), p.predictedS(), p.lowS(), p.highS(),
        p.absErrorPct(), p.selected(), p.intervalSource().name(), p.note());
  }

  /** A row of {@link PredictionTables#EVAL} (a row built by {@link #evalRow}) as a {@link PredictionRow}. */
  public static PredictionRow predictionRow(Row r) {
    return new PredictionRow(r.getString(0), r.getLong(1), r.getInt(2), r.getInt(3), r.getInt(4),
        (Long) r.get(5), r.getInt(6), r.getDouble(7), r.getString(8), (Double) r.get(9), (Double) r.get(10),
        (Double) r.get(11), (Double) r.get(12), r.getBoolean(13), IntervalSource.valueOf(r.getString(14)),
        r.getString(15));
  }

  /** The runs of {@link RunTable#SCHEMA} on the driver, as the harness takes them (the noise floor's input). */
  public static List<Run> collectRuns(Dataset<Row> runs) {
    List<Run> out = new ArrayList<>();
    for (Row r : runs.select("run_key", "workload_id", "input_bytes", "executors", "cores_per_executor",
        "executor_memory_bytes", "duration_s").collectAsList()) {
      out.add(new Run(r.getString(0), r.getString(1), r.getLong(2), r.getInt(3), r.getInt(4), (Long) r.get(5),
          r.getDouble(6)));
    }
    return out;
  }

  private static Row choiceRow(Harness.WorkloadChoice c, int runs) {
    Map<String, Double> inner = new TreeMap<>();
    c.inner().stream().filter(i -> i.predicted() > 0).forEach(i -> inner.put(i.predictor(), i.meanAbsErrorPct()));
    String reason = c.choice().map(Selection.Choice::reason).orElse(
        "Cannot choose a predictor: no predictor could predict any configuration from the others ("
            + c.configurations() + " configurations)");
    Double mae = c.choice().map(Selection.Choice::innerMaePct).filter(Double::isFinite).orElse(null);
    return RowFactory.create(c.workloadId(), c.configurations(), runs,
        c.choice().map(Selection.Choice::predictor).orElse(null), mae, reason,
        scala.jdk.javaapi.CollectionConverters.asScala(inner));
  }
}
