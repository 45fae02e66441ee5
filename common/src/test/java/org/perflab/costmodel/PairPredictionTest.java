package org.perflab.costmodel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.perflab.errors.BadInputException;
import org.perflab.sim.Distribution;
import org.perflab.sim.Model;
import org.perflab.sim.Stage;
import org.perflab.sim.TaskChoice;

/** Run B of a pair predicted from run A: the model's stage-time ratio on A's durations, next to the baseline's. */
class PairPredictionTest {
  private static final CodecCostTable TABLE = CodecCostTable.shipped();
  private static final Map<String, Double> A_SECONDS = Map.of("S0", 10.0, "S1", 6.0, "S2", 1.0);

  /**
   * A local[2] aggregation-like run: S0 reads 64 MB and combines map-side, S1 reduces it in the configured
   * partitions, S2 (one task) reads S1's single-partition output: a global aggregate, not set by the configuration.
   */
  private static Model model(int partitions) {
    return new Model(List.of(
        new Stage("S0", 8, List.of(), List.of(), new Distribution.Deterministic(2), 64_000_000L, 0L),
        new Stage("S1", partitions, List.of("S0"), List.of(), new Distribution.Deterministic(3), 0L, 30_000_000L),
        new Stage("S2", 1, List.of("S1"), List.of(), new Distribution.Deterministic(1), 0L, 1000L)),
        2, 1, new Distribution.Deterministic(0), 1, 1.96, 1L, TaskChoice.FIFO);
  }

  private static Map<String, String> props(String memory, int partitions) {
    return Map.of("spark.master", "local[2]", "spark.driver.memory", memory, "spark.sql.shuffle.partitions",
        String.valueOf(partitions));
  }

  private static PhaseCostInputs.Built built(String memory, int partitions) {
    return built(memory, partitions, null);
  }

  /** The inputs, with {@code overheadNs} per task outside the run time in every stage's row (null: none measured). */
  private static PhaseCostInputs.Built built(String memory, int partitions, Double overheadNs) {
    PhaseCostInputs.StageCostRow map = new PhaseCostInputs.StageCostRow(0, 8, Map.of("fixed_ns_per_task", 1e6,
        "hdfs_read_ns_per_byte", 2.0, "compute_ns_per_record", 300.0, "shuffle_write_ns_per_byte", 30.0,
        "read_in_pair_width_bytes", 100.0, "shuffle_write_pair_width_bytes", 60.0, "records_selectivity", 0.5));
    PhaseCostInputs.StageCostRow reduce = new PhaseCostInputs.StageCostRow(1, partitions, Map.of(
        "fixed_ns_per_task", 1e7, "local_read_ns_per_byte", 190.0, "compute_ns_per_record", 500.0,
        "shuffle_read_pair_width_bytes", 60.0, "shuffle_write_pair_width_bytes", 20.0, "records_selectivity",
        0.001));
    PhaseCostInputs.StageCostRow global = new PhaseCostInputs.StageCostRow(2, 1, Map.of("fixed_ns_per_task", 1e6,
        "shuffle_read_pair_width_bytes", 20.0));
    List<PhaseCostInputs.StageCostRow> rows = java.util.stream.Stream.of(map, reduce, global).map(r -> {
      Map<String, Double> values = new java.util.HashMap<>(r.values());
      if (overheadNs != null) {
        values.put("overhead_ns_per_task", overheadNs);
      }
      return new PhaseCostInputs.StageCostRow(r.stageId(), r.tasks(), values);
    }).toList();
    return PhaseCostInputs.build(model(partitions), props(memory, partitions), rows);
  }

  private static PairPrediction.Run run(String app, String memory, int partitions, Map<String, Double> seconds) {
    return new PairPrediction.Run(app, props(memory, partitions), seconds, 2);
  }

  @Test
  void theSameConfigurationPredictsRunAsDurationsAsTheBaselineDoes() {
    List<PairPrediction.Row> rows = PairPrediction.predict(PairPrediction.Setting.MEMORY,
        run("a", "2g", 4, A_SECONDS), built("2g", 4), run("b", "2g", 4, Map.of("S0", 12.0, "S1", 3.0, "S2", 1.0)),
        TABLE);
    assertThat(rows).extracting(PairPrediction.Row::stage).containsExactly("S0", "S1", "S2", PairPrediction.JOB);
    for (PairPrediction.Row r : rows) {
      assertThat(r.phaseCostS()).isCloseTo(r.measuredAS(), within(1e-9));
      assertThat(r.baselineS()).isEqualTo(r.measuredAS());
    }
    PairPrediction.Row job = rows.get(3);
    assertThat(job.measuredAS()).isEqualTo(17.0);
    assertThat(job.measuredBS()).isEqualTo(16.0);
    assertThat(job.baselineErrorPct()).isCloseTo(100.0 / 16, within(1e-9));
  }

  @Test
  void morePartitionsRescaleOnlyTheConfiguredReduceStageByTheModelsStageTimes() {
    PhaseCostInputs.Built a = built("2g", 4);
    List<PairPrediction.Row> rows = PairPrediction.predict(PairPrediction.Setting.PARTITIONS,
        run("a", "2g", 4, A_SECONDS), a, run("b", "2g", 32, Map.of("S0", 10.0, "S1", 9.0, "S2", 1.0)), TABLE);
    PhaseCostRule r = a.rule();
    List<StageEstimate> before = CostModel.estimate(r.source(), r.stats(), r.stages());
    List<StageEstimate> after = CostModel.whatIf(r.source(), r.stats(), r.stages(),
        WhatIf.NONE.withShufflePartitions(32), TABLE);
    assertThat(after.get(1).spec().tasks()).isEqualTo(32);
    assertThat(after.get(2).spec().tasks()).isEqualTo(1);
    assertThat(rows.get(1).phaseCostS()).isCloseTo(6.0 * after.get(1).stageNs() / before.get(1).stageNs(),
        within(1e-9));
    // 16 waves of 1/8 the records each, and each task's fixed cost: the stage takes longer.
    assertThat(rows.get(1).phaseCostS()).isGreaterThan(6.0);
    assertThat(rows.get(0).phaseCostS()).isCloseTo(10.0, within(1e-9));
    assertThat(rows.get(3).phaseCostS()).isCloseTo(rows.stream().limit(3)
        .mapToDouble(PairPrediction.Row::phaseCostS).sum(), within(1e-9));
  }

  @Test
  void theMeasuredPerTaskOverheadMakesManySmallTasksSlower() {
    PhaseCostInputs.Built without = built("2g", 4);
    PhaseCostInputs.Built with = built("2g", 4, 50e6);
    assertThat(without.rule().stats().costs().cleanupNs()).isZero();
    assertThat(without.unestimated()).contains("overhead_ns_per_task");
    assertThat(with.rule().stats().costs().cleanupNs()).isCloseTo(50e6, within(1e-6));
    PairPrediction.Run b = run("b", "2g", 32, Map.of("S0", 10.0, "S1", 9.0, "S2", 1.0));
    double s1Without = PairPrediction.predict(PairPrediction.Setting.PARTITIONS, run("a", "2g", 4, A_SECONDS),
        without, b, TABLE).get(1).phaseCostS();
    List<PairPrediction.Row> rows = PairPrediction.predict(PairPrediction.Setting.PARTITIONS,
        run("a", "2g", 4, A_SECONDS), with, b, TABLE);
    PhaseCostRule r = with.rule();
    List<StageEstimate> before = CostModel.estimate(r.source(), r.stats(), r.stages());
    List<StageEstimate> after = CostModel.whatIf(r.source(), r.stats(), r.stages(),
        WhatIf.NONE.withShufflePartitions(32), TABLE);
    // 32 tasks in 16 waves pay the 50 ms 16 times, 4 tasks in 2 waves twice
    assertThat(after.get(1).stageNs() - before.get(1).stageNs() - (16 - 2) * 50e6)
        .isCloseTo(CostModel.whatIf(without.rule().source(), without.rule().stats(), without.rule().stages(),
            WhatIf.NONE.withShufflePartitions(32), TABLE).get(1).stageNs() - CostModel.estimate(
            without.rule().source(), without.rule().stats(), without.rule().stages()).get(1).stageNs(),
            within(1e3));
    assertThat(rows.get(1).phaseCostS()).isGreaterThan(s1Without);
  }

  @Test
  void errorsAreSummarisedPerSetting() {
    List<PairPrediction.Row> rows = new java.util.ArrayList<>(PairPrediction.predict(PairPrediction.Setting.MEMORY,
        run("a", "2g", 4, A_SECONDS), built("2g", 4), run("b", "512m", 4, Map.of("S0", 20.0, "S1", 6.0)), TABLE));
    assertThat(rows).extracting(PairPrediction.Row::stage).containsExactly("S0", "S1", PairPrediction.JOB);
    List<PairPrediction.Summary> s = PairPrediction.summarise(rows);
    assertThat(s).hasSize(1);
    assertThat(s.get(0).pairs()).isEqualTo(1);
    assertThat(s.get(0).stages()).isEqualTo(2);
    assertThat(s.get(0).stageBaselinePct()).isCloseTo((50.0 + 0.0) / 2, within(1e-9));
    assertThat(s.get(0).jobBaselinePct()).isCloseTo(100.0 * 10 / 26, within(1e-9));
    assertThat(PairPrediction.csv(rows.get(2))).startsWith("memory,a,b,job,16.000,26.000,");
  }

  @Test
  void aPairWithoutCommonStagesIsBadInput() {
    assertThatThrownBy(() -> PairPrediction.predict(PairPrediction.Setting.CODEC, run("a", "1g", 4, A_SECONDS),
        built("1g", 4), run("b", "1g", 4, Map.of("S9", 1.0)), TABLE))
        .isInstanceOf(BadInputException.class).hasMessageStartingWith("Cannot predict b from a: no modelled stage");
    assertThatThrownBy(() -> PairPrediction.Setting.parse("cores")).isInstanceOf(BadInputException.class)
        .hasMessageContaining("memory, partitions, codec");
  }
}
