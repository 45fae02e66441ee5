package org.perflab.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perflab.costmodel.Codec;
import org.perflab.costmodel.PhaseCostInputs;
import org.perflab.errors.BadInputException;
import org.perflab.jobs.cli.RunSummary;
import org.perflab.sim.Distribution;
import org.perflab.sim.Model;
import org.perflab.sim.ModelWriter;
import org.perflab.sim.Stage;
import org.perflab.sim.TaskChoice;
import org.perflab.spark.costmodel.PhaseCostSource;
import org.perflab.spark.costmodel.StageCosts;
import org.perflab.spark.ingest.SparkTestSession;
import org.perflab.spark.sweep.SweepOptions;
import org.perflab.spark.sweep.SweepRows;
import org.perflab.spark.sweep.SweepRun;
import org.perflab.sweep.GridPoint;
import org.perflab.sweep.Statistic;
import org.perflab.sweep.Sweep;
import org.perflab.table.Table;
import org.perflab.table.TableRow;

/**
 * {@code sweep --rule phase-cost} on a test-built root: a local[2] run with 1g executors whose map stage S0 (20 tasks,
 * about 150 MB written each, combining map-side) feeds a 10-task reduce stage S1; S2 has no tasks and so no
 * {@code stage_costs} row; a delay stage sched-S1 sits between S0 and S1, as the model job builds them. The real stage-costs job estimates the costs, sweep builds the rule from the properties and
 * stage_costs: the source point keeps every duration, less memory or more cores per executor make S0 spill and take
 * longer, more memory makes S1 stop spilling, and S2 keeps its duration.
 */
class PhaseCostSweepTest {
  private static final String APP = "local-1";
  private static final long MB = 1_000_000L;

  @TempDir
  Path dir;

  private static Row task(int stage, long id, long in, long inRecs, long readBytes, long readRecs, long written,
      long writtenRecs, double runMs) {
    TableRow r = Table.TASKS.newRow().set("log_id", "log1").set("app_id", APP).set("app_attempt_id", "")
        .set("stage_id", stage).set("stage_attempt_id", 0).set("task_id", id).set("status", "SUCCESS")
        .set("executor_run_time_ms", Math.round(runMs)).set("input_bytes", in).set("input_records", inRecs)
        .set("shuffle_local_read_bytes", readBytes).set("shuffle_read_records", readRecs)
        .set("shuffle_write_bytes", written).set("shuffle_write_records", writtenRecs).set("jvm_gc_time_ms", 1L);
    return RowFactory.create(r.values());
  }

  /** Run times follow 10 ns per input byte, 200 ns per record read and 15 ns per shuffle byte written or read. */
  private void writeRoot(SparkSession spark) {
    List<Row> tasks = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      long in = 200 * MB + 4 * MB * i;
      long recs = in / 100 + 30_000L * (i * 7 % 11);
      long written = 140 * MB + 3 * MB * (i * 5 % 7);
      tasks.add(task(0, i, in, recs, 0, 0, written, written / 150, 50 + (in * 10 + recs * 200 + written * 15) / 1e6));
    }
    for (int i = 0; i < 10; i++) {
      long read = 300 * MB + 7 * MB * (i * 3 % 5);
      long recs = read / 150 + 20_000L * (i * 3 % 7);
      tasks.add(task(1, 100 + i, 0, 0, read, recs, 0, 0, 40 + (read * 15 + recs * 200) / 1e6));
    }
    spark.createDataFrame(tasks, Table.TASKS.schema()).coalesce(1).write().format("delta")
        .save(dir.resolve("tables/tasks").toString());
    spark.createDataFrame(List.of(RowFactory.create(Table.INGEST_STATUS.newRow().set("log_id", "log1")
            .set("run_id", "20261126T000000000Z-aaaaaa").values())), Table.INGEST_STATUS.schema()).write()
        .format("delta").save(dir.resolve("tables/ingest_status").toString());
    List<Row> props = new ArrayList<>();
    for (String[] kv : new String[][] {{"spark.master", "local[2]"}, {"spark.executor.memory", "1g"}}) {
      props.add(RowFactory.create(Table.PROPERTIES.newRow().set("log_id", "log1").set("app_id", APP)
          .set("app_attempt_id", "").set("category", "SPARK").set("key", kv[0]).set("value", kv[1]).values()));
    }
    spark.createDataFrame(props, Table.PROPERTIES.schema()).write().format("delta")
        .save(dir.resolve("tables/properties").toString());
    String root = dir.resolve("tables").toString();
    StageCosts.run(spark, new StageCosts.Options(root, root, false), Clock.systemUTC());
    Row model = RowFactory.create("log1", APP, "", "wl", 1, 20 * 200 * MB, 2, 60.0, 3, 31L, 0.0, 0.0, "replay",
        ModelWriter.toJson(model()), "OK", null, null);
    spark.createDataFrame(List.of(model), ModelJob.MODELS).write().format("delta")
        .save(dir.resolve("out/dag_models").toString());
  }

  private static Model model() {
    return new Model(List.of(
        new Stage("S0", 20, List.of(), List.of("sched-S1"), new Distribution.Deterministic(5), 20 * 238 * MB, 0),
        new Stage("sched-S1", 1, List.of("S0"), List.of("S1"), new Distribution.Deterministic(0.1)),
        new Stage("S1", 10, List.of("sched-S1"), List.of("S2"), new Distribution.Deterministic(3), 0, 3000 * MB),
        new Stage("S2", 1, List.of("S1"), List.of(), new Distribution.Deterministic(1))),
        2, 1, new Distribution.Deterministic(0), 1, 1.96, 1L, TaskChoice.FIFO);
  }

  private SweepOptions options(String costs) {
    return new SweepOptions(null, null, List.of(1), List.of(2, 4), List.of(0.5, 1.0, 4.0), List.of(), 1, 1, 0,
        1L, 1, "phase-cost", null, Statistic.MEAN, 1, dir.resolve("sweep").toString(),
        dir.resolve("out/dag_models").toString(), APP, costs);
  }

  private static double duration(Model m, String stage) {
    return ((Distribution.Deterministic) m.stages().stream().filter(s -> s.name().equals(stage)).findFirst()
        .orElseThrow().distribution()).val();
  }

  @Test
  void memoryAndCoresChangeThePredictedDurationsOfTheEstimatedStages() {
    SparkSession spark = SparkTestSession.get();
    writeRoot(spark);
    SweepOptions options = options(dir.resolve("tables").toString());
    PhaseCostInputs.Built built = PhaseCostSource.build(spark, options.costs(), model(), "log1", APP);
    assertThat(built.modelled()).containsExactly("S0", "S1");
    assertThat(built.kept()).containsOnlyKeys("S2");
    assertThat(built.rule().source().coresPerExecutor()).isEqualTo(2);
    assertThat(built.rule().source().executors()).isEqualTo(1);

    Sweep sweep = SweepJob.plan(spark, options);
    List<GridPoint> points = sweep.grid().points();
    Model same = sweep.plans().get(points.indexOf(new GridPoint(1, 2, 1.0)));
    Model small = sweep.plans().get(points.indexOf(new GridPoint(1, 2, 0.5)));
    Model large = sweep.plans().get(points.indexOf(new GridPoint(1, 2, 4.0)));
    Model moreCores = sweep.plans().get(points.indexOf(new GridPoint(1, 4, 1.0)));
    assertThat(duration(same, "S0")).isEqualTo(5);
    assertThat(duration(same, "S1")).isEqualTo(3);
    // 0.5g: (512 − 300) MiB × 0.6 ÷ 2 tasks ≈ 67 MB per task, below the ~150 MB a map task buffers.
    assertThat(duration(small, "S0")).isGreaterThan(5);
    assertThat(duration(small, "S1")).isGreaterThan(3);
    // 4g: no reduce task spills any more; 4 cores at 1g: ≈ 114 MB per task, so the map side spills.
    assertThat(duration(large, "S1")).isLessThan(3);
    assertThat(duration(moreCores, "S0")).isGreaterThan(5);
    assertThat(List.of(same, small, large, moreCores)).allSatisfy(m -> {
      assertThat(duration(m, "S2")).isEqualTo(1);
      assertThat(duration(m, "sched-S1")).isEqualTo(0.1);
    });
    assertThat(sweep.rule().name()).isEqualTo("phase-cost");
  }

  /** A run of Spark 1.5 is modelled with its static memory manager: its shuffle region, not today's unified pool. */
  @Test
  void aSpark15RunIsModelledWithTheStaticManager() {
    SparkSession spark = SparkTestSession.get();
    writeRoot(spark);
    String root = dir.resolve("tables").toString();
    PhaseCostInputs.Built today = PhaseCostSource.build(spark, root, model(), "log1", APP);
    assertThat(today.rule().source().memory()).isInstanceOf(org.perflab.costmodel.MemoryModel.Unified.class);
    spark.createDataFrame(List.of(RowFactory.create(Table.APPLICATIONS.newRow().set("log_id", "log1")
            .set("app_id", APP).set("app_attempt_id", "").set("spark_version", "1.5.1").values())),
        Table.APPLICATIONS.schema()).write().format("delta").mode("overwrite")
        .save(dir.resolve("tables/applications").toString());

    PhaseCostInputs.Built built = PhaseCostSource.build(spark, root, model(), "log1", APP);

    assertThat(PhaseCostSource.properties(spark, root, "log1", APP))
        .containsEntry(org.perflab.eventlog.SparkVersion.PROPERTY, "1.5.1");
    assertThat(built.rule().source().memory()).isEqualTo(org.perflab.costmodel.MemoryModel.Legacy.DEFAULT);
    // 1g × 0.2 × 0.8 ÷ 2 tasks ≈ 82 MiB per task, against (1024 − 300) MiB × 0.6 ÷ 2 ≈ 217 MiB unified.
    assertThat(built.rule().source().spillBufferBytes()).isLessThan(today.rule().source().spillBufferBytes());
  }

  @Test
  void aCodecAxisRescalesTheShuffleStagesAndIsWrittenWithEachPoint() {
    SparkSession spark = SparkTestSession.get();
    writeRoot(spark);
    String root = dir.resolve("tables").toString();
    SweepOptions options = new SweepOptions(null, null, List.of(1), List.of(2), List.of(), List.of(), 1, 1,
        0, 1L, 1, "phase-cost", null, Statistic.MEAN, 1, dir.resolve("sweep").toString(),
        dir.resolve("out/dag_models").toString(), APP, root, List.of(Codec.LZ4, Codec.ZSTD), List.of());

    Sweep sweep = SweepJob.plan(spark, options);
    SweepJob.run(spark, sweep, options);

    Model lz4 = sweep.plans().get(0);
    Model zstd = sweep.plans().get(1);
    assertThat(sweep.grid().points()).extracting(GridPoint::codec).containsExactly(Codec.LZ4, Codec.ZSTD);
    // The run's own codec (Spark's default, lz4) keeps every duration; zstd moves the shuffle's two sides only.
    assertThat(duration(lz4, "S0")).isEqualTo(5);
    assertThat(duration(lz4, "S1")).isEqualTo(3);
    assertThat(duration(zstd, "S0")).isNotEqualTo(5);
    assertThat(duration(zstd, "S1")).isNotEqualTo(3);
    assertThat(duration(zstd, "S2")).isEqualTo(1);
    List<Row> rows = spark.read().format("delta").load(dir.resolve("sweep/sweep_results").toString())
        .orderBy("codec").select("codec", "serializer", "rule", "mean_s").collectAsList();
    assertThat(rows).extracting(r -> r.getString(0)).containsExactly("lz4", "zstd");
    assertThat(rows).allSatisfy(r -> {
      assertThat(r.isNullAt(1)).as("serializer not in the grid").isTrue();
      assertThat(r.getString(2)).isEqualTo("phase-cost");
    });
    assertThat(rows.get(1).getDouble(3)).isNotEqualTo(rows.get(0).getDouble(3));
  }

  @Test
  void aSweepReplacesOnlyTheRowsOfItsLogAndRuleReadersSeeEachPointOnceAndPerWorkloadSkipsBadRuns() {
    SparkSession spark = SparkTestSession.get();
    writeRoot(spark);
    String root = dir.resolve("tables").toString();
    String models = dir.resolve("out/dag_models").toString();
    String out = dir.resolve("sweep").toString();
    SweepOptions baseline = new SweepOptions(null, null, List.of(1, 2), List.of(2), List.of(), List.of(), 1,
        1, 0, 1L, 1, "baseline", null, Statistic.MEAN, 1, out, models, APP, null);
    SweepOptions phaseCost = new SweepOptions(null, null, List.of(1, 2), List.of(2), List.of(), List.of(), 1,
        1, 0, 1L, 1, "phase-cost", null, Statistic.MEAN, 1, out, models, APP, root);
    SweepOptions codecs = new SweepOptions(null, null, List.of(1), List.of(2), List.of(), List.of(), 1, 1,
        0, 1L, 1, "phase-cost", null, Statistic.MEAN, 1, out, models, APP, root, List.of(Codec.LZ4, Codec.ZSTD),
        List.of());

    SweepJob.run(spark, SweepJob.plan(spark, codecs), codecs);
    SweepJob.run(spark, SweepJob.plan(spark, baseline), baseline);
    // the baseline sweep of the same log left the phase-cost rows
    assertThat(rulesAndCodecs(spark, out)).containsExactly("baseline/null=2", "phase-cost/lz4=1",
        "phase-cost/zstd=1");

    SweepJob.run(spark, SweepJob.plan(spark, phaseCost), phaseCost);
    // a phase-cost sweep replaced the phase-cost rows of its log (the codec grid's) and left the baseline rows
    assertThat(rulesAndCodecs(spark, out)).containsExactly("baseline/null=2", "phase-cost/null=2");
    Dataset<Row> results = spark.read().format("delta").load(out + "/sweep_results");
    assertThat(spark.read().format("delta").load(out + "/sweep_best").select("rule").distinct().orderBy("rule")
        .collectAsList()).extracting(r -> r.getString(0)).containsExactly("baseline", "phase-cost");

    // each point once: the phase-cost rows win where both rules swept it
    List<Row> points = SweepRows.onePerPoint(results)
        .orderBy("executors").select("executors", "rule").collectAsList();
    assertThat(points).extracting(r -> r.get(0) + "/" + r.get(1)).containsExactly("1/phase-cost", "2/phase-cost");
    assertThat(SweepRows.preferredRulePerLog(spark.read().format("delta")
        .load(out + "/sweep_best")).select("rule").distinct().collectAsList())
        .extracting(r -> r.getString(0)).containsExactly("phase-cost");

    // --per-workload: a run that cannot be swept is skipped with its reason, and the next one is still swept
    Function<String, SweepOptions> optionsOf = app -> new SweepOptions(null, null, List.of(1), List.of(2), List.of(),
        List.of(), 1, 1, 0, 1L, 1, "phase-cost", null, Statistic.MEAN, 1, out, models, app, root,
        List.of(Codec.LZ4, Codec.ZSTD), List.of());
    SweepRun.PerWorkload done = SweepRun.runPerWorkload(spark, List.of("local-9", APP), optionsOf,
        optionsOf.apply(APP).listedGrid(), RunSummary::print);
    assertThat(done.swept()).isEqualTo(1);
    assertThat(done.skipped()).containsOnlyKeys("local-9");
    assertThat(done.skipped().get("local-9")).isEqualTo("Cannot sweep: " + models
        + " has no model of application local-9 (status OK)");
    assertThat(done.skippedLines()).contains("skipped local-9: Cannot sweep: ");
    assertThat(rulesAndCodecs(spark, out)).containsExactly("baseline/null=2", "phase-cost/lz4=1",
        "phase-cost/zstd=1");
  }

  /** {@code rule/codec=rows} of {@code sweep_results}, sorted. */
  private static List<String> rulesAndCodecs(SparkSession spark, String out) {
    return spark.read().format("delta").load(out + "/sweep_results").groupBy("rule", "codec").count()
        .orderBy("rule", "codec").collectAsList().stream()
        .map(r -> r.getString(0) + "/" + r.getString(1) + "=" + r.getLong(2)).toList();
  }

  @Test
  void aCodecAxisNeedsThePhaseCostRule() {
    assertThatThrownBy(() -> new SweepOptions(null, null, List.of(1), List.of(2), List.of(), List.of(), 1, 1, 0,
        1L, 1, "baseline", null, Statistic.MEAN, 1, dir.resolve("sweep").toString(),
        dir.resolve("out/dag_models").toString(), APP, null, List.of(Codec.ZSTD), List.of()))
        .isInstanceOf(BadInputException.class)
        .hasMessage("Cannot sweep: --codecs and --serializers need --rule phase-cost (--codecs [zstd]; rule baseline"
            + " ignores them)");
  }

  @Test
  void phaseCostNeedsTheCostsRoot() {
    assertThatThrownBy(() -> options(null)).isInstanceOf(BadInputException.class)
        .hasMessageContaining("--rule phase-cost needs --dag-models DIR and --costs ROOT");
  }
}
