package org.perflab.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.perflab.costmodel.Codec;
import org.perflab.costmodel.SerializerKind;
import org.perflab.errors.BadInputException;
import org.perflab.sim.Distribution;
import org.perflab.sim.Model;
import org.perflab.sim.Stage;
import org.perflab.sim.TaskChoice;

class SweepTest {
  static Model waves() {
    return new Model(List.of(
        new Stage("map", 48, List.of(), List.of(), new Distribution.Deterministic(10)),
        new Stage("reduce", 6, List.of("map"), List.of(), new Distribution.Deterministic(4))),
        1, 1, new Distribution.Deterministic(0), 3, 1.96, 1L, TaskChoice.FIFO);
  }

  static Model exponential() {
    return new Model(List.of(new Stage("S", 40, List.of(), List.of(), new Distribution.Exponential(0.1))),
        1, 1, new Distribution.Exponential(0.01), 300, 1.96, 9L, TaskChoice.FIFO);
  }

  @Test
  void baselineRuleChangesOnlyTheSlotsAndCostsFollow() {
    Grid grid = new Grid(List.of(2, 4), List.of(2, 4), List.of(), 1);
    List<PointResult> results =
        Sweep.plan(waves(), grid, new ScalingRule.Baseline(), 1, 1L, 3, 0).runSequentially();
    // 48 × 10 s on S slots, then 6 × 4 s: ceil(48/S)·10 + ceil(6/S)·4.
    assertThat(results).extracting(PointResult::slots).containsExactly(4, 8, 8, 16);
    assertThat(results).extracting(PointResult::meanS).containsExactly(128.0, 64.0, 64.0, 34.0);
    PointResult last = results.get(3);
    assertThat(last.coreHours()).isCloseTo(16 * 34.0 / 3600, within(1e-12));
    assertThat(last.gbHours()).isNaN();
    assertThat(last.p90S()).isEqualTo(34.0);
    assertThat(last.applications()).isEqualTo(3);
    assertThat(last.rule()).isEqualTo("baseline");
    assertThat(last.trialSeeds()).containsExactly(Seeds.trialSeed(1L, new GridPoint(4, 4, 0), 0));
  }

  @Test
  void taskCpusDivideTheSlots() {
    Grid grid = new Grid(List.of(3), List.of(4), List.of(8.0), 1);
    PointResult r = Sweep.plan(waves(), grid, new ScalingRule.Baseline(), 2, 1L, 2, 0).runSequentially().get(0);
    assertThat(r.slots()).isEqualTo(6);
    assertThat(r.meanS()).isEqualTo(8 * 10 + 4.0);
    assertThat(r.gbHours()).isCloseTo(3 * 8.0 * 84 / 3600, within(1e-12));
  }

  @Test
  void resultsDoNotDependOnTrialOrderOrGrouping() {
    Grid grid = new Grid(List.of(1, 2), List.of(4, 8), List.of(), 3);
    Sweep sweep = Sweep.plan(exponential(), grid, new ScalingRule.Baseline(), 1, 77L, 300, 0);
    List<PointResult> sequential = sweep.runSequentially();

    List<Trial> shuffled = new ArrayList<>(sweep.trials());
    Collections.shuffle(shuffled, new java.util.Random(5));
    List<List<TrialOutcome>> byPoint = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      byPoint.add(new ArrayList<>());
    }
    for (Trial t : shuffled) {
      byPoint.get(t.pointIndex()).add(sweep.runTrial(t));
    }
    List<PointResult> reordered = byPoint.stream().map(sweep::summarize).toList();

    assertThat(reordered).isEqualTo(sequential);
    assertThat(sequential.get(0).meanS()).isGreaterThan(sequential.get(3).meanS());
    assertThat(sequential).extracting(PointResult::applications).containsOnly(900L);
  }

  @Test
  void targetCiBoundsTheApplicationsPerPoint() {
    Grid grid = new Grid(List.of(2), List.of(4), List.of(), 4);
    PointResult r =
        Sweep.plan(exponential(), grid, new ScalingRule.Baseline(), 1, 3L, 50_000, 0.02).runSequentially().get(0);
    assertThat(r.applications()).isLessThan(4 * 50_000).isGreaterThanOrEqualTo(4 * 100);
    double relativeHalfWidth = (r.ciHighS() - r.ciLowS()) / 2 / r.meanS();
    assertThat(relativeHalfWidth).isLessThanOrEqualTo(0.02 * 1.1);
  }

  @Test
  void seedsDependOnlyOnBaseSeedPointAndReplication() {
    GridPoint p = new GridPoint(2, 4, 0);
    assertThat(Seeds.trialSeed(1, p, 0)).isEqualTo(Seeds.trialSeed(1, new GridPoint(2, 4, 0), 0));
    assertThat(Seeds.trialSeed(1, p, 0)).isNotEqualTo(Seeds.trialSeed(1, p, 1))
        .isNotEqualTo(Seeds.trialSeed(2, p, 0))
        .isNotEqualTo(Seeds.trialSeed(1, new GridPoint(4, 2, 0), 0));
  }

  @Test
  void paretoFrontAndDeadlinePickTheCheapestSufficientPoints() {
    List<PointResult> results = List.of(
        row(1, 4, 100, 130), // 4 cores: 400 core-seconds
        row(2, 4, 60, 70), // 480
        row(4, 4, 40, 45), // 640
        row(8, 4, 38, 40), // 1216
        row(2, 8, 70, 80)); // 1120, dominated by 2×4
    assertThat(Sweep.paretoFront(results, Statistic.MEAN)).extracting(r -> r.point().executors())
        .containsExactly(1, 2, 4, 8);
    assertThat(Sweep.cheapestMeeting(results, 65, Statistic.MEAN)).get()
        .extracting(r -> r.point().executors()).isEqualTo(2);
    assertThat(Sweep.cheapestMeeting(results, 65, Statistic.P90)).get()
        .extracting(r -> r.point().executors()).isEqualTo(4);
    assertThat(Sweep.cheapestMeeting(results, 10, Statistic.MEAN)).isEmpty();
    List<BestPoint> best = Sweep.best(results, Statistic.P90, 65.0);
    assertThat(best).extracting(BestPoint::kind).containsExactly(BestPoint.Kind.PARETO, BestPoint.Kind.PARETO,
        BestPoint.Kind.PARETO, BestPoint.Kind.PARETO, BestPoint.Kind.DEADLINE);
    assertThat(best.get(4).timeS()).isEqualTo(45.0);
  }

  @Test
  void badGridOrRuleFailsBeforeAnyTrial() {
    assertThatThrownBy(() -> new Grid(List.of(2, 0), List.of(1), List.of(), 1))
        .isInstanceOf(BadInputException.class).hasMessageContaining("executors[1] must be >= 1 (0)");
    assertThatThrownBy(() -> GridReader.parse("{\"executors\":[2],\"coresPerExecutor\":[\"x\"]}", "g.json"))
        .isInstanceOf(BadInputException.class)
        .hasMessage("Cannot read grid g.json: coresPerExecutor[0] must be an integer >= 1 (\"x\")");
    assertThatThrownBy(() -> GridReader.parse("{\"executors\":[2],\"cores\":[1]}", "g.json"))
        .hasMessageContaining("cores is not a grid field");
    Grid grid = new Grid(List.of(1), List.of(1), List.of(), 1);
    assertThatThrownBy(() -> Sweep.plan(waves(), grid, new ScalingRule.Baseline(), 2, 1L, 3, 0))
        .isInstanceOf(BadInputException.class).hasMessageContaining("leave no task slot");
    assertThatThrownBy(() -> ScalingRule.named("memory"))
        .hasMessage("Cannot use rule: unknown rule (memory; one of baseline, input-size, phase-cost)");
    Grid read = GridReader.parse(
        "{\"executors\":[2,4],\"coresPerExecutor\":[1],\"executorMemoryGb\":[4,8.5],\"replications\":3}", "g.json");
    assertThat(read.points()).containsExactly(new GridPoint(2, 1, 4), new GridPoint(2, 1, 8.5),
        new GridPoint(4, 1, 4), new GridPoint(4, 1, 8.5));
    assertThat(read.replications()).isEqualTo(3);
  }

  /** 4 map tasks of 10 s reading 4 × 128 MB, then 2 s on the driver. */
  static Model mapWithInput() {
    return new Model(List.of(
        new Stage("S0", 4, List.of(), List.of(), new Distribution.Deterministic(10), 4L << 27, 0),
        new Stage("driver-end", 1, List.of("S0"), List.of(), new Distribution.Deterministic(2))),
        1, 1, new Distribution.Deterministic(0), 1, 1.96, 1L, TaskChoice.FIFO);
  }

  @Test
  void inputSizeRuleAppliesSlotsAndInputSizeTogether() {
    Grid grid = GridReader.parse("{\"executors\":[2,4],\"coresPerExecutor\":[2],\"inputGb\":[0.5,1]}", "g.json");
    assertThat(grid.points()).containsExactly(new GridPoint(2, 2, 0, 1L << 29), new GridPoint(2, 2, 0, 1L << 30),
        new GridPoint(4, 2, 0, 1L << 29), new GridPoint(4, 2, 0, 1L << 30));
    List<PointResult> results =
        Sweep.plan(mapWithInput(), grid, ScalingRule.named("input-size"), 1, 1L, 1, 0).runSequentially();
    // 0.5 GB: 4 tasks of 10 s; 1 GB: 8. On 4 slots: 1 or 2 waves; on 8: 1 wave; plus 2 s.
    assertThat(results).extracting(PointResult::meanS).containsExactly(12.0, 22.0, 12.0, 12.0);
    assertThat(results).extracting(PointResult::tasks).containsExactly(5L, 9L, 5L, 9L);
    assertThat(results).extracting(PointResult::rule).containsOnly("input-size");
    // The run's own size from dag_models, instead of the model's stage bytes: 1 GB is then the same input.
    List<PointResult> fromTable = Sweep.plan(mapWithInput(), grid, ScalingRule.named("input-size", 1L << 30), 1, 1L,
        1, 0).runSequentially();
    assertThat(fromTable).extracting(PointResult::tasks).containsExactly(3L, 5L, 3L, 5L);
    // Configurations on different inputs do not compete on the front: one front per size.
    assertThat(Sweep.best(results, Statistic.MEAN, null)).extracting(b -> b.result().point().inputBytes())
        .containsExactly(1L << 29, 1L << 30, 1L << 30);
  }

  @Test
  void inputSizesNeedTheInputSizeRuleAndValidSizes() {
    Grid sized = new Grid(List.of(2), List.of(2), List.of(), List.of(1L << 30), 1);
    assertThatThrownBy(() -> Sweep.plan(mapWithInput(), sized, new ScalingRule.Baseline(), 1, 1L, 1, 0))
        .isInstanceOf(BadInputException.class).hasMessage(
            "Cannot plan sweep: the grid has input sizes, which rule baseline ignores (use --rule input-size)");
    assertThatThrownBy(() -> GridReader.parse(
        "{\"executors\":[2],\"coresPerExecutor\":[1],\"inputGb\":[1],\"inputBytes\":[1]}", "g.json"))
        .hasMessage("Cannot read grid g.json: inputGb cannot be given with inputBytes");
    assertThatThrownBy(() -> GridReader.parse(
        "{\"executors\":[2],\"coresPerExecutor\":[1],\"inputBytes\":[0]}", "g.json"))
        .hasMessage("Cannot read grid g.json: inputBytes[0] must be an integer >= 1 (0)");
    assertThatThrownBy(() -> GridReader.parse(
        "{\"executors\":[2],\"coresPerExecutor\":[1],\"inputBytes\":[5,5]}", "g.json"))
        .hasMessageContaining("inputBytes repeats a value");
    assertThat(GridReader.parse("{\"executors\":[2],\"coresPerExecutor\":[1],\"inputBytes\":[1000]}", "g.json")
        .points()).containsExactly(new GridPoint(2, 1, 0, 1000));
    // A grid without sizes keeps its seeds; a size enters the seed.
    assertThat(Seeds.trialSeed(1, new GridPoint(2, 4, 0, 0), 0))
        .isEqualTo(Seeds.trialSeed(1, new GridPoint(2, 4, 0), 0))
        .isNotEqualTo(Seeds.trialSeed(1, new GridPoint(2, 4, 0, 1000), 0));
  }

  @Test
  void codecsAndSerializersAreGridAxesThatOnlyAShuffleCostRuleMayTake() {
    Grid grid = GridReader.parse("{\"executors\":[2],\"coresPerExecutor\":[1,2],\"codecs\":[\"lz4\",\"zstd\"],"
        + "\"serializers\":[\"org.apache.spark.serializer.KryoSerializer\"]}", "g.json");
    assertThat(grid.hasShuffleSettings()).isTrue();
    assertThat(grid.points()).containsExactly(
        new GridPoint(2, 1, 0, 0, Codec.LZ4, SerializerKind.KRYO), new GridPoint(2, 1, 0, 0, Codec.ZSTD,
            SerializerKind.KRYO),
        new GridPoint(2, 2, 0, 0, Codec.LZ4, SerializerKind.KRYO), new GridPoint(2, 2, 0, 0, Codec.ZSTD,
            SerializerKind.KRYO));
    assertThatThrownBy(() -> Sweep.plan(waves(), grid, new ScalingRule.Baseline(), 1, 1L, 1, 0))
        .isInstanceOf(BadInputException.class).hasMessage("Cannot plan sweep: the grid has codecs or serializers,"
            + " which rule baseline ignores (use --rule phase-cost)");
    assertThatThrownBy(() -> GridReader.parse(
        "{\"executors\":[2],\"coresPerExecutor\":[1],\"codecs\":[\"brotli\"]}", "g.json"))
        .isInstanceOf(BadInputException.class).hasMessage("Cannot read grid g.json: codecs[0] is not a value of"
            + " spark.io.compression.codec: unknown codec (brotli; one of lz4, lzf, snappy, zstd)");
    assertThatThrownBy(() -> new Grid(List.of(2), List.of(1), List.of(), List.of(), List.of(Codec.LZ4, Codec.LZ4),
        List.of(), 1)).hasMessage("Cannot use grid: codecs repeats a value ([LZ4, LZ4])");
    // Points that differ only in codec or serializer draw the same numbers (common random numbers).
    assertThat(Seeds.trialSeed(1, grid.points().get(1), 0)).isEqualTo(Seeds.trialSeed(1, new GridPoint(2, 1, 0), 0));
    assertThat(new Grid(List.of(2), List.of(1), List.of(), 1).hasShuffleSettings()).isFalse();
  }

  private static PointResult row(int executors, int cores, double mean, double p90) {
    GridPoint p = new GridPoint(executors, cores, 0);
    return new PointResult(p, false, 1, executors * cores, "baseline", 1, 10, 100, mean, 1, mean - 1, mean + 1, mean,
        p90, p90, p.coreHours(mean), Double.NaN, 1L, List.of(1L));
  }
}
