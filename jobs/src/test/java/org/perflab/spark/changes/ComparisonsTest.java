package org.perflab.spark.changes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.perflab.changes.RunProfile;
import org.perflab.changes.StageRef;
import org.perflab.changes.StageStats;
import org.perflab.changes.WallTimeSplit;

/**
 * The rows of one compared pair from hand-built runs, no Spark: A ran map, reduce, save; B added a broadcast stage
 * before reduce, retried reduce and dropped save, with two properties changed and one run id that must not count.
 */
class ComparisonsTest {
  private static final ComparedPair PAIR = new ComparedPair(
      new RunPoint("etl", "log-a", "app-1", "1", 1_000L, 60, 1, 1),
      new RunPoint("etl", "log-b", "app-2", "1", 2_000L, 75, 1, 1));

  private final Comparisons.Side a = side(run("app-1", 60, Map.of("spark.sql.shuffle.partitions", "200",
          "spark.app.id", "app-1"), List.of(
          stage(0, 0, "map at Etl.scala:10", 0, 4, 20, 5),
          stage(1, 0, "reduce at Etl.scala:20", 0, 8, 10, 2),
          stage(2, 1, "save at Etl.scala:30", 0, 2, 6, 0))),
      Map.of(0, 0.5, 1, 0.25), data(100, 0));
  private final Comparisons.Side b = side(run("app-2", 75, Map.of("spark.sql.shuffle.partitions", "400",
          "spark.app.id", "app-2", "spark.serializer", "org.apache.spark.serializer.KryoSerializer"), List.of(
          stage(0, 0, "map at Etl.scala:11", 0, 4, 21, 5),
          stage(1, 0, "broadcast exchange at Etl.scala:15", 0, 1, 3, 0),
          stage(2, 0, "reduce at Etl.scala:21", 0, 8, 8, 2),
          stage(2, 0, "reduce at Etl.scala:21", 1, 3, 4, 1))),
      Map.of(2, 1.5), data(100, 50));

  private final List<ComparisonRow> rows = Comparisons.rows(PAIR, a, b, 7L);

  @Test
  void alignsTheStagesInBsOrderWithTheRemovedStageWhereItStood() {
    assertThat(of(ComparisonKind.STAGE)).extracting(ComparisonRow::position, ComparisonRow::match, ComparisonRow::item)
        .containsExactly(tuple(0, StageMatch.MATCHED, "map at Etl.scala:11"),
            tuple(1, StageMatch.ADDED, "broadcast exchange at Etl.scala:15"),
            tuple(2, StageMatch.MATCHED, "reduce at Etl.scala:21"),
            tuple(3, StageMatch.REMOVED, "save at Etl.scala:30"));
  }

  @Test
  void aRetriedStageSumsItsAttemptsAndChangesByTheirTotal() {
    ComparisonRow reduce = of(ComparisonKind.STAGE).get(2);
    // A: one attempt of 10 s; B: 8 s, then a retry of 4 s.
    assertThat(reduce.change()).isCloseTo(2.0, within(1e-12));
    assertThat(reduce.ratio()).isCloseTo(1.2, within(1e-12));
    assertThat(reduce.stageB().attempts()).isEqualTo(2);
    assertThat(reduce.stageB().tasks()).isEqualTo(11);
    assertThat(reduce.stageB().spillBytes()).isEqualTo(3);
    assertThat(reduce.stageA().schedulerDelayS()).isEqualTo(0.25);
    assertThat(reduce.stageB().schedulerDelayS()).isEqualTo(1.5);
    Row row = reduce.toRow();
    assertThat(row.<Integer>getAs("stage_id_a")).isEqualTo(1);
    assertThat(row.<Integer>getAs("stage_id_b")).isEqualTo(2);
    assertThat(row.<Integer>getAs("attempts_b")).isEqualTo(2);
    assertThat(row.<Double>getAs("gc_s_b")).isCloseTo(2.4, within(1e-12));
  }

  @Test
  void anAddedOrRemovedStageHasNoChangeAndOnlyItsOwnSide() {
    Row added = of(ComparisonKind.STAGE).get(1).toRow();
    assertThat(added.<Object>getAs("amount_a")).isNull();
    assertThat(added.<Double>getAs("amount_b")).isEqualTo(3.0);
    assertThat(added.<Object>getAs("change")).isNull();
    assertThat(added.<Object>getAs("cpu_s_a")).isNull();
    assertThat(added.<Object>getAs("stage_id_a")).isNull();
    Row removed = of(ComparisonKind.STAGE).get(3).toRow();
    assertThat(removed.<Integer>getAs("job_ordinal")).isEqualTo(1);
    assertThat(removed.<Object>getAs("tasks_b")).isNull();
  }

  @Test
  void listsThePropertiesThatDifferLeavingOutTheRunsOwnId() {
    assertThat(of(ComparisonKind.CONFIGURATION)).extracting(ComparisonRow::item, ComparisonRow::valueA,
        ComparisonRow::valueB).containsExactly(
            tuple("spark.serializer", "org.apache.spark.serializer.JavaSerializer (default)",
                "org.apache.spark.serializer.KryoSerializer"),
            tuple("spark.sql.shuffle.partitions", "200", "400"));
  }

  @Test
  void dataAndRunRowsCarryBothAmountsTheirChangeAndARatioOnlyWhenAIsNotZero() {
    List<ComparisonRow> data = of(ComparisonKind.DATA);
    assertThat(data).hasSize(Comparisons.DATA.size());
    ComparisonRow input = data.get(0);
    assertThat(input.change()).isZero();
    assertThat(input.ratio()).isEqualTo(1.0);
    ComparisonRow shuffleWrite = data.get(Comparisons.DATA.indexOf("shuffle_write_bytes"));
    assertThat(shuffleWrite.change()).isEqualTo(50.0);
    assertThat(shuffleWrite.ratio()).isNull();
    assertThat(shuffleWrite.unit()).isEqualTo("bytes");
    ComparisonRow wall = of(ComparisonKind.RUN).get(0);
    assertThat(wall.item()).isEqualTo("wall_time_s");
    assertThat(wall.ratio()).isCloseTo(1.25, within(1e-12));
    assertThat(wall.toRow().<Long>getAs("compared_at_ms")).isEqualTo(7L);
  }

  @Test
  void runsWithoutSqlHaveNoPlanRow() {
    assertThat(of(ComparisonKind.PLAN)).isEmpty();
  }

  /** One plan row when either run has SQL: its joins and fingerprint on each side, null on a side without SQL. */
  @Test
  void thePlanRowShowsEachSidesJoinsAndFingerprint() {
    Comparisons.Side broadcast = sqlSide("app-1", "00aa", Map.of("BroadcastHashJoin", 1L));
    Comparisons.Side sortMerge = sqlSide("app-2", "11bb", Map.of("SortMergeJoin", 1L));
    Comparisons.Side none = sqlSide("app-2", "", Map.of());

    assertThat(plans(broadcast, sortMerge)).extracting(ComparisonRow::item, ComparisonRow::valueA,
        ComparisonRow::valueB).containsExactly(tuple(Comparisons.PLAN_ITEM, "joins BroadcastHashJoin 1; plan 00aa",
            "joins SortMergeJoin 1; plan 11bb"));
    assertThat(plans(broadcast, broadcast)).extracting(ComparisonRow::valueA, ComparisonRow::valueB)
        .containsExactly(tuple("joins BroadcastHashJoin 1; plan 00aa", "joins BroadcastHashJoin 1; plan 00aa"));
    assertThat(plans(broadcast, none)).extracting(ComparisonRow::valueA, ComparisonRow::valueB)
        .containsExactly(tuple("joins BroadcastHashJoin 1; plan 00aa", null));
    assertThat(plans(broadcast, sortMerge).get(0).toRow().<Object>getAs("change")).isNull();
  }

  private static List<ComparisonRow> plans(Comparisons.Side a, Comparisons.Side b) {
    return Comparisons.rows(PAIR, a, b, 7L).stream().filter(r -> r.kind() == ComparisonKind.PLAN).toList();
  }

  private List<ComparisonRow> of(ComparisonKind kind) {
    return rows.stream().filter(r -> r.kind() == kind).toList();
  }

  private static Comparisons.Side side(RunProfile profile, Map<Integer, Double> delays, Map<String, Long> data) {
    return new Comparisons.Side(profile, StageTimes.byStage(profile.stages(), delays), data);
  }

  private static Map<String, Long> data(long inputBytes, long shuffleWriteBytes) {
    Map<String, Long> out = new HashMap<>();
    Comparisons.DATA.forEach(m -> out.put(m, 0L));
    out.put("input_bytes", inputBytes);
    out.put("shuffle_write_bytes", shuffleWriteBytes);
    return out;
  }

  private static RunProfile run(String app, double wallS, Map<String, String> properties, List<StageStats> stages) {
    return run(app, wallS, properties, stages, "", Map.of());
  }

  private static RunProfile run(String app, double wallS, Map<String, String> properties, List<StageStats> stages,
      String plan, Map<String, Long> joins) {
    return new RunProfile(app, wallS, 100, 8, 2, 2, 0, 0, 100, 10, 0, 0, 0, 0, 0, plan, joins, properties,
        new ArrayList<>(stages), WallTimeSplit.UNKNOWN);
  }

  private static Comparisons.Side sqlSide(String app, String plan, Map<String, Long> joins) {
    return side(run(app, 10, Map.of(), List.of(stage(0, 0, "map at Etl.scala:10", 0, 4, 5, 0)), plan, joins),
        Map.of(), data(100, 0));
  }

  /** A stage attempt whose GC is a tenth of its task time (s); sizes 0 but spill. */
  private static StageStats stage(int id, int job, String name, int attempt, long tasks, double durationS,
      long spillBytes) {
    double taskTimeS = 2 * durationS;
    return new StageStats(new StageRef(id, job, name), attempt, tasks, 0, durationS, taskTimeS, taskTimeS / 2,
        taskTimeS / 10, 0, 0, 0, 0, 0, spillBytes, Double.NaN);
  }
}
