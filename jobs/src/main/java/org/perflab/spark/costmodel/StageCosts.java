package org.perflab.spark.costmodel;

import org.perflab.costmodel.StageCostFit;
import org.perflab.costmodel.TaskSample;
import static org.apache.spark.sql.functions.col;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.spark.api.java.function.FlatMapGroupsFunction;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.perflab.costmodel.StageCostFit.Term;
import org.perflab.sim.Percentiles;
import org.perflab.spark.storage.ChangedLogs;
import org.perflab.spark.sampling.SeededUniform;
import org.perflab.spark.storage.OutputLock;
import org.perflab.spark.storage.TableStore;
import org.perflab.table.Table;

/**
 * {@code stage_costs}: per stage attempt, the cost statistics of reference 000 estimated from the successful tasks of
 * the ingest {@code tasks} table ({@link StageCostFit}, NNLS), the data statistics that are ratios of task metric
 * sums, and the list of statistics that could not be estimated. Tasks are grouped per stage attempt with
 * {@code groupByKey}; no task row reaches the driver. Columns: docs/tables.md#stage_costs.
 *
 * <p>State per stage is bounded: the ratio statistics and {@code tasks} are sums over every successful task, while the
 * fit, the overhead's median and the size ratios use at most {@link #SAMPLED_TASKS} of them: every task of a stage
 * that has no more, else the {@code SAMPLED_TASKS} of the smallest {@link SeededUniform} of (application, stage, task
 * id): a bottom-k sample as {@code model}'s ({@code StageTaskSamples}), uniform, and independent of the order the
 * tasks arrive in.
 */
public final class StageCosts {
  /** The job's name (messages, watermark). */
  public static final String JOB = "stage-costs";
  public static final String TABLE = "stage_costs";
  private static final List<String> RATIOS = List.of("read_in_pair_width_bytes", "shuffle_read_pair_width_bytes",
      "shuffle_write_pair_width_bytes", "records_selectivity", "spill_disk_ratio", "shuffle_write_time_ns_per_byte",
      "gc_share");
  /**
   * The column of a task's time outside its executor run time (deserialisation, scheduler delay, result
   * serialisation), ns: measured per task, not fitted.
   */
  public static final String OVERHEAD = "overhead_ns_per_task";
  /**
   * The column of the spread of a stage's task sizes: a task's volume (input bytes plus shuffle bytes read) at the
   * {@link #SIZE_QUANTILES}, each ÷ their mean.
   */
  public static final String SIZE_RATIOS = "task_size_ratios";
  /** The quantiles of {@link #SIZE_RATIOS}: the midpoints of five equal shares of the tasks. */
  static final double[] SIZE_QUANTILES = {0.1, 0.3, 0.5, 0.7, 0.9};
  public static final StructType SCHEMA = schema();
  /** The most tasks per stage attempt the fit, the overhead's median and the size ratios are computed from. */
  static final int SAMPLED_TASKS = 100_000;
  /** The seed of the sample's {@link SeededUniform}. */
  private static final long SAMPLE_SEED = 0L;
  /** The column that carries each task's {@link SeededUniform} into its stage's group. */
  private static final String RANK = "_sample_rank";

  /** The options: ingest root, output root, and whether to recompute every log. */
  public record Options(String input, String output, boolean full) {}

  /** What a run did: how it planned, and the rows written (0 when up to date). */
  public record Summary(ChangedLogs.Plan plan, long rows) {}

  private StageCosts() {}

  private static StructType schema() {
    StructType s = new StructType().add("log_id", DataTypes.StringType, false)
        .add("app_id", DataTypes.StringType, false).add("app_attempt_id", DataTypes.StringType, false)
        .add("stage_id", DataTypes.IntegerType, false).add("stage_attempt_id", DataTypes.IntegerType, false)
        .add("tasks", DataTypes.IntegerType, false).add("fixed_ns_per_task", DataTypes.DoubleType)
        .add(OVERHEAD, DataTypes.DoubleType);
    for (Term t : Term.values()) {
      s = s.add(t.column(), DataTypes.DoubleType);
    }
    for (String r : RATIOS) {
      s = s.add(r, DataTypes.DoubleType);
    }
    return s.add(SIZE_RATIOS, DataTypes.createArrayType(DataTypes.DoubleType, false))
        .add("fit_r2", DataTypes.DoubleType)
        .add("missing", DataTypes.createArrayType(DataTypes.StringType, false), false);
  }

  /** Runs the job: plans from the watermark, estimates the changed logs' stages, writes, commits. */
  public static Summary run(SparkSession spark, Options options, Clock clock) {
    TableStore input = new TableStore(spark, options.input());
    TableStore output = new TableStore(spark, options.output());
    ChangedLogs changed = new ChangedLogs(input, output, JOB);
    try (OutputLock lock = OutputLock.acquire(output.fileSystem(), output.root(), JOB, clock)) {
      ChangedLogs.Plan plan = changed.plan(options.full(), List.of(TABLE));
      long rows = 0;
      if (plan.mode() != ChangedLogs.Mode.UP_TO_DATE) {
        Dataset<Row> tasks = input.read(Table.TASKS).orElseThrow();
        Dataset<Row> costs = of(plan.restrict(tasks)).cache();
        try {
          rows = costs.count();
          changed.write(plan, TABLE, costs.coalesce(1));
        } finally {
          costs.unpersist();
        }
      }
      changed.commit(plan);
      return new Summary(plan, rows);
    }
  }

  /** One row per stage attempt with a successful task: the estimate over its successful tasks. */
  public static Dataset<Row> of(Dataset<Row> tasks) {
    return of(tasks, SAMPLED_TASKS);
  }

  /** As {@link #of(Dataset)}, with at most {@code sampled} tasks per stage for the fit and the quantiles. */
  static Dataset<Row> of(Dataset<Row> tasks, int sampled) {
    return tasks.where(col("status").equalTo("SUCCESS"))
        .withColumn(RANK, SeededUniform.of(SAMPLE_SEED, col("log_id"), col("app_id"), col("app_attempt_id"),
            col("stage_id"), col("task_id")))
        .groupByKey((MapFunction<Row, String>) StageCosts::key, Encoders.STRING())
        .flatMapGroups((FlatMapGroupsFunction<String, Row, Row>) (key, rows) -> List.of(stageRow(rows, sampled))
            .iterator(), Encoders.row(SCHEMA));
  }

  private static String key(Row r) {
    return r.<String>getAs("log_id") + '\u0000' + r.<String>getAs("app_id") + '\u0000'
        + r.<String>getAs("app_attempt_id") + '\u0000' + r.<Integer>getAs("stage_id") + '\u0000'
        + r.<Integer>getAs("stage_attempt_id");
  }

  private static Row stageRow(Iterator<Row> rows, int sampled) {
    Row first = rows.next();
    Sums sums = new Sums();
    BoundedSample kept = new BoundedSample(sampled);
    for (Row r = first; r != null; r = rows.hasNext() ? rows.next() : null) {
      TaskSample sample = sample(r);
      sums.add(sample);
      kept.add(new Kept(r.getAs(RANK), sample, overhead(r)));
    }
    List<TaskSample> samples = kept.samples();
    List<Double> overheads = kept.overheads();
    StageCostFit.Result fit = StageCostFit.fit(samples);
    List<Object> v = new ArrayList<>(List.<Object>of(first.getAs("log_id"), first.getAs("app_id"),
        first.getAs("app_attempt_id"), first.getAs("stage_id"), first.getAs("stage_attempt_id"),
        (int) sums.in.getCount()));
    v.add(fit.fixedNs());
    Double overhead = overheads.isEmpty() ? null
        : Percentiles.ofSorted(overheads.stream().mapToDouble(Double::doubleValue).sorted().toArray(), 0.5);
    v.add(overhead);
    for (Term t : Term.values()) {
      v.add(fit.costs().get(t));
    }
    Double[] ratios = sums.ratios();
    v.addAll(Arrays.asList(ratios));
    Double[] sizes = sizeRatios(samples);
    v.add(sizes);
    v.add(fit.r2());
    List<String> missing = fit.missing().stream().map(Term::column).collect(Collectors.toCollection(ArrayList::new));
    if (overhead == null) {
      missing.add(0, OVERHEAD);
    }
    if (fit.fixedNs() == null) {
      missing.add(0, "fixed_ns_per_task");
    }
    for (int i = 0; i < RATIOS.size(); i++) {
      if (ratios[i] == null) {
        missing.add(RATIOS.get(i));
      }
    }
    if (sizes == null) {
      missing.add(SIZE_RATIOS);
    }
    v.add(missing.toArray(new String[0]));
    return RowFactory.create(v.toArray());
  }

  /**
   * The sums of the ratio statistics over every task of a stage, in arrival order, with the compensated summation of
   * {@code DoubleStream.sum} (so that they equal the sums over a list of the same tasks).
   */
  private static final class Sums {
    private final java.util.DoubleSummaryStatistics in = new java.util.DoubleSummaryStatistics();
    private final java.util.DoubleSummaryStatistics inRecs = new java.util.DoubleSummaryStatistics();
    private final java.util.DoubleSummaryStatistics read = new java.util.DoubleSummaryStatistics();
    private final java.util.DoubleSummaryStatistics readRecs = new java.util.DoubleSummaryStatistics();
    private final java.util.DoubleSummaryStatistics written = new java.util.DoubleSummaryStatistics();
    private final java.util.DoubleSummaryStatistics writtenRecs = new java.util.DoubleSummaryStatistics();
    private final java.util.DoubleSummaryStatistics diskSpilled = new java.util.DoubleSummaryStatistics();
    private final java.util.DoubleSummaryStatistics memorySpilled = new java.util.DoubleSummaryStatistics();
    private final java.util.DoubleSummaryStatistics writeNs = new java.util.DoubleSummaryStatistics();
    private final java.util.DoubleSummaryStatistics gcNs = new java.util.DoubleSummaryStatistics();
    private final java.util.DoubleSummaryStatistics runNs = new java.util.DoubleSummaryStatistics();

    void add(TaskSample s) {
      in.accept(s.inputBytes());
      inRecs.accept(s.inputRecords());
      read.accept(s.shuffleLocalBytes() + s.shuffleRemoteBytes());
      readRecs.accept(s.shuffleReadRecords());
      written.accept(s.shuffleWriteBytes());
      writtenRecs.accept(s.shuffleWriteRecords());
      diskSpilled.accept(s.diskSpilledBytes());
      memorySpilled.accept(s.memorySpilledBytes());
      writeNs.accept(s.shuffleWriteNs());
      gcNs.accept(s.gcNs());
      runNs.accept(s.runNs());
    }

    /** The ratio statistics, in {@link #RATIOS} order; null where the denominator is 0. */
    Double[] ratios() {
      double w = written.getSum();
      double wr = writtenRecs.getSum();
      return new Double[] {ratio(in.getSum(), inRecs.getSum()), ratio(read.getSum(), readRecs.getSum()),
          ratio(w, wr), ratio(wr, inRecs.getSum() + readRecs.getSum()),
          ratio(diskSpilled.getSum(), memorySpilled.getSum()), ratio(writeNs.getSum(), w),
          ratio(gcNs.getSum(), runNs.getSum())};
    }
  }

  /** A task kept for the fit: its rank in the bottom-k sample, its sample and its overhead (null when unknown). */
  private record Kept(double rank, TaskSample sample, Double overhead) {}

  /**
   * At most {@code limit} of a stage's tasks: all of them in arrival order while there are no more; beyond, the
   * {@code limit} of smallest rank, in rank order.
   */
  private static final class BoundedSample {
    private final int limit;
    private final List<Kept> arrived = new ArrayList<>();
    private java.util.PriorityQueue<Kept> smallest;

    BoundedSample(int limit) {
      this.limit = limit;
    }

    void add(Kept task) {
      if (smallest == null) {
        arrived.add(task);
        if (arrived.size() <= limit) {
          return;
        }
        smallest = new java.util.PriorityQueue<>(limit + 1,
            java.util.Comparator.comparingDouble(Kept::rank).reversed());
        smallest.addAll(arrived);
        arrived.clear();
      } else {
        smallest.add(task);
      }
      while (smallest.size() > limit) {
        smallest.poll();
      }
    }

    private List<Kept> entries() {
      if (smallest == null) {
        return arrived;
      }
      List<Kept> sorted = new ArrayList<>(smallest);
      sorted.sort(java.util.Comparator.comparingDouble(Kept::rank));
      return sorted;
    }

    List<TaskSample> samples() {
      return entries().stream().map(Kept::sample).toList();
    }

    List<Double> overheads() {
      return entries().stream().map(Kept::overhead).filter(java.util.Objects::nonNull).toList();
    }
  }

  private static Double ratio(double numerator, double denominator) {
    return denominator > 0 && numerator > 0 ? numerator / denominator : null;
  }

  /**
   * The task's time outside its executor run time, {@code duration_ms − executor_run_time_ms} in ns (0 when the run
   * time rounds above the duration); null unless both are known.
   */
  private static Double overhead(Row r) {
    Object duration = r.getAs("duration_ms");
    Object run = r.getAs("executor_run_time_ms");
    if (duration == null || run == null) {
      return null;
    }
    return 1e6 * Math.max(0, ((Number) duration).doubleValue() - ((Number) run).doubleValue());
  }

  /**
   * The tasks' volumes (input bytes + shuffle bytes read) at {@link #SIZE_QUANTILES} (linear interpolation between
   * order statistics), each ÷ the mean of those quantiles, so that they average 1; null with fewer than 2 tasks or
   * no volume.
   */
  static Double[] sizeRatios(List<TaskSample> tasks) {
    double[] volumes = tasks.stream()
        .mapToDouble(t -> t.inputBytes() + t.shuffleLocalBytes() + t.shuffleRemoteBytes()).sorted().toArray();
    if (volumes.length < 2 || volumes[volumes.length - 1] <= 0) {
      return null;
    }
    double[] q = Arrays.stream(SIZE_QUANTILES).map(level -> Percentiles.ofSorted(volumes, level)).toArray();
    double mean = Arrays.stream(q).average().orElse(0);
    if (mean <= 0) {
      return null;
    }
    return Arrays.stream(q).mapToObj(x -> x / mean).toArray(Double[]::new);
  }

  private static TaskSample sample(Row r) {
    return new TaskSample(1e6 * num(r, "executor_run_time_ms"), num(r, "input_bytes"), num(r, "input_records"),
        num(r, "shuffle_local_read_bytes"), num(r, "shuffle_remote_read_bytes"), num(r, "shuffle_read_records"),
        num(r, "shuffle_write_bytes"), num(r, "shuffle_write_records"), num(r, "shuffle_write_time_ns"),
        num(r, "memory_spilled_bytes"), num(r, "disk_spilled_bytes"), 1e6 * num(r, "jvm_gc_time_ms"));
  }

  private static double num(Row r, String column) {
    Object v = r.getAs(column);
    return v == null ? 0 : ((Number) v).doubleValue();
  }
}
