package org.perflab.changes;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AttributionTest {
  private static final long GB = 1L << 30;

  private static StageStats stage(int id, String name, double durationS, double taskTimeS, long tasks, long spill,
      double skew) {
    return new StageStats(new StageRef(id, id / 2, name), 0, tasks, 0, durationS, taskTimeS, taskTimeS * 0.8, 1, 0.5,
        0.2, GB, GB / 2, GB / 2, spill, skew);
  }

  private static List<StageStats> baseStages() {
    return List.of(stage(0, "scan at W.scala:1", 20, 150, 40, 0, 1.2), stage(1, "join at W.scala:2", 30, 230, 40, 0,
        1.3), stage(2, "agg at W.scala:3", 25, 190, 200, 0, 1.1), stage(3, "save at W.scala:4", 15, 110, 40, 0, 1.2));
  }

  /** A run whose time outside stages is 10 s: 6 s before the first stage, 3 s between stages, 1 s after the last. */
  private static RunProfile run(String id, double wall, int cores, long input, Map<String, String> props,
      List<StageStats> stages) {
    return run(id, wall, cores, input, props, stages, new WallTimeSplit(6, wall - 10, 3, 1));
  }

  private static RunProfile run(String id, double wall, int cores, long input, Map<String, String> props,
      List<StageStats> stages, WallTimeSplit split) {
    double taskTime = stages.stream().mapToDouble(StageStats::taskTimeS).sum();
    return new RunProfile(id, wall, taskTime, cores, cores / 2, cores / 2, 2, 0, input, input / 100, GB, GB, 0, 0, 0,
        "plan1", Map.of("SortMergeJoin", 1L), props, stages, split);
  }

  private static final Map<String, String> CONF = Map.of("spark.executor.instances", "4", "spark.executor.cores", "2",
      "spark.executor.memory", "4g", "spark.sql.shuffle.partitions", "200", "spark.app.id", "app-1");

  private static Map<String, String> conf(String key, String value) {
    java.util.HashMap<String, String> m = new java.util.HashMap<>(CONF);
    m.put(key, value);
    m.put("spark.app.id", "app-2");
    return m;
  }

  private static List<StageStats> scaled(List<StageStats> stages, double factor) {
    List<StageStats> out = new ArrayList<>();
    for (StageStats s : stages) {
      out.add(new StageStats(s.ref(), 0, s.tasks(), 0, s.durationS() * factor, s.taskTimeS() * factor,
          s.cpuS(), s.gcS(), s.fetchWaitS(), s.shuffleWriteS(), s.inputBytes(), s.shuffleReadBytes(),
          s.shuffleWriteBytes(), s.spillBytes(), s.maxOverMedian()));
    }
    return out;
  }

  @Test
  void fewerExecutorsByConfigurationIsTheFirstCauseWithItsConfToRestore() {
    RunProfile base = run("a", 100, 8, 10 * GB, CONF, baseStages());
    List<StageStats> slower = new ArrayList<>();
    for (StageStats s : baseStages()) {
      slower.add(new StageStats(s.ref(), 0, s.tasks(), 0, s.durationS() * 2, s.taskTimeS(), s.cpuS(), s.gcS(),
          s.fetchWaitS(), s.shuffleWriteS(), s.inputBytes(), s.shuffleReadBytes(), s.shuffleWriteBytes(),
          s.spillBytes(), s.maxOverMedian()));
    }
    RunProfile now = run("b", 190, 4, 10 * GB, conf("spark.executor.instances", "2"), slower);
    List<RegressionCause> causes = Attribution.explain(now, base, 90);
    assertThat(causes.get(0).kind()).isEqualTo(CauseKind.CONFIGURATION);
    assertThat(causes.get(0).what()).isEqualTo("spark.executor.instances 4 -> 2");
    assertThat(causes.get(0).action()).isEqualTo("--conf spark.executor.instances=4");
    // 680 s of task time on 4 instead of 8 slots: 85 s.
    assertThat(causes.get(0).seconds()).isCloseTo(85, org.assertj.core.data.Offset.offset(0.5));
    assertThat(causes).noneMatch(c -> c.what().contains("spark.app.id"));
  }

  @Test
  void aCostRegressionOfFourTimesTheExecutorsIsThatConfigurationChangeWithItsConfToRestore() {
    // The same work on 32 slots instead of 8, 60 s instead of 100 s: 2.4x the core-hours. Its extra, as a share of
    // the baseline's wall time, is (2.4 - 1) x 100 s = 140 s; the slots held for 60 s explain 60 x (4 - 1) = 180 s,
    // capped at the 140 s. The stages' own times shrank: none of them is a cause.
    RunProfile base = run("a", 100, 8, 10 * GB, CONF, baseStages());
    RunProfile now = run("b", 60, 32, 10 * GB, conf("spark.executor.instances", "16"), scaled(baseStages(), 0.55));
    List<RegressionCause> causes = Attribution.explain(now, base, List.of(base), 140, Attribution.Extra.CORE_HOURS);
    RegressionCause first = causes.get(0);
    assertThat(first.kind()).isEqualTo(CauseKind.CONFIGURATION);
    assertThat(first.what()).isEqualTo("spark.executor.instances 4 -> 16");
    assertThat(first.action()).isEqualTo("--conf spark.executor.instances=4");
    assertThat(first.seconds()).isEqualTo(140);
    assertThat(first.evidence()).isEqualTo("task slots 8 -> 32 (4.00x) for 0.60x the wall time (60 s against 100 s)");
    assertThat(causes).filteredOn(c -> c.kind() == CauseKind.STAGES).allMatch(c -> c.seconds() == 0);
  }

  @Test
  void aCostRegressionOfMoreSlotsGrantedWithNoPropertyChangedIsResources() {
    // Dynamic allocation granted 16 slots instead of 8, same properties: 1.5x the core-hours for 0.75x the time.
    RunProfile base = run("a", 100, 8, 10 * GB, CONF, baseStages());
    RunProfile now = run("b", 75, 16, 10 * GB, conf("spark.app.id", "x"), scaled(baseStages(), 0.9));
    RegressionCause first = Attribution.explain(now, base, List.of(base), 50, Attribution.Extra.CORE_HOURS).get(0);
    assertThat(first.kind()).isEqualTo(CauseKind.RESOURCES);
    assertThat(first.what()).isEqualTo("more task slots (8 -> 16)");
    assertThat(first.seconds()).isEqualTo(50); // 75 s x (2 - 1) = 75 s, capped at the extra
    assertThat(first.action()).contains("spark.dynamicAllocation.maxExecutors");
    // The same run judged as a wall-time regression is not explained by the slots it gained.
    assertThat(Attribution.explain(now, base, List.of(base), 50, Attribution.Extra.WALL_TIME))
        .noneMatch(c -> c.what().startsWith("more task slots"));
    // Nor is a cost regression by slots it lost: 4 slots instead of 8 hold fewer core-hours.
    RunProfile fewer = run("c", 120, 4, 10 * GB, conf("spark.app.id", "y"), baseStages());
    assertThat(Attribution.explain(fewer, base, List.of(base), 10, Attribution.Extra.CORE_HOURS))
        .noneMatch(c -> c.kind() == CauseKind.RESOURCES);
  }

  @Test
  void aGbHoursRegressionOfTwiceTheExecutorMemoryIsThatChangeWithItsConfToRestore() {
    // The same run in the same time with 8g executors instead of 4g: 2x the GB-hours, (2 - 1) x 100 s = 100 s of
    // extra; the memory held for 100 s explains 100 x (2 - 1) = 100 s. A core-hours regression is not explained by it.
    RunProfile base = run("a", 100, 8, 10 * GB, CONF, baseStages());
    RunProfile now = run("b", 100, 8, 10 * GB, conf("spark.executor.memory", "8g"), baseStages());
    RegressionCause first = Attribution.explain(now, base, List.of(base), 100, Attribution.Extra.GB_HOURS).get(0);
    assertThat(first.kind()).isEqualTo(CauseKind.CONFIGURATION);
    assertThat(first.what()).isEqualTo("spark.executor.memory 4g -> 8g");
    assertThat(first.action()).isEqualTo("--conf spark.executor.memory=4g");
    assertThat(first.seconds()).isEqualTo(100);
    assertThat(first.evidence()).isEqualTo("executor memory 2.00x for 1.00x the wall time (100 s against 100 s)");
    assertThat(Attribution.explain(now, base, List.of(base), 100, Attribution.Extra.CORE_HOURS).get(0).seconds())
        .as("the memory change is listed, with no seconds").isZero();
  }

  @Test
  void twiceTheInputIsData() {
    RunProfile base = run("a", 100, 8, 10 * GB, CONF, baseStages());
    RunProfile now = run("b", 195, 8, 20 * GB, conf("spark.app.id", "x"), scaled(baseStages(), 1.9));
    RegressionCause first = Attribution.explain(now, base, 95).get(0);
    assertThat(first.kind()).isEqualTo(CauseKind.DATA);
    assertThat(first.seconds()).isEqualTo(95);
    assertThat(first.evidence()).contains("2.00x");
    assertThat(first.action()).as("what to do about more data: nothing to restore, or look upstream")
        .isEqualTo(Attribution.MORE_DATA);
  }

  @Test
  void smallerMemoryThatSpillsIsTheMemoryPropertyNamingTheStage() {
    RunProfile base = run("a", 100, 8, 10 * GB, CONF, baseStages());
    List<StageStats> stages = new ArrayList<>(baseStages());
    stages.set(2, stage(2, "agg at W.scala:3", 60, 400, 200, 3 * GB, 1.1));
    RunProfile now = run("b", 135, 8, 10 * GB, conf("spark.executor.memory", "1g"), stages);
    RegressionCause first = Attribution.explain(now, base, 35).get(0);
    assertThat(first.kind()).isEqualTo(CauseKind.CONFIGURATION);
    assertThat(first.what()).isEqualTo("spark.executor.memory 4g -> 1g");
    assertThat(first.seconds()).isEqualTo(35);
    assertThat(first.evidence()).contains("stage 2 'agg at W.scala:3'", "spill");
  }

  /** A stage whose GC grew after the executors' collector changed: that change, its flags to restore. */
  @Test
  void moreGcAfterTheExecutorsCollectorChangedIsThatChange() {
    Map<String, String> before = conf("spark.executor.extraJavaOptions",
        "-XX:+UseParallelGC -Dlog4j.configuration=file:/tmp/a/log4j.properties");
    RunProfile base = run("a", 100, 8, 10 * GB, before, baseStages());
    List<StageStats> stages = new ArrayList<>(baseStages());
    StageStats agg = baseStages().get(2);
    stages.set(2, new StageStats(agg.ref(), 0, agg.tasks(), 0, 55, 400, agg.cpuS(), 180, 0.5, 0.2, GB, GB / 2,
        GB / 2, 0, 1.1));
    Map<String, String> after = conf("spark.executor.extraJavaOptions",
        "-Dlog4j.configuration=file:/tmp/b/log4j.properties -XX:+UseG1GC -XX:MaxGCPauseMillis=50");
    RunProfile now = run("b", 130, 8, 10 * GB, after, stages);

    RegressionCause first = Attribution.explain(now, base, 30).get(0);

    assertThat(first.kind()).isEqualTo(CauseKind.CONFIGURATION);
    assertThat(first.what()).isEqualTo(
        "spark.executor.extraJavaOptions -XX:+UseParallelGC -> -XX:MaxGCPauseMillis=50 -XX:+UseG1GC");
    assertThat(first.action()).isEqualTo(
        "restore the baseline's JVM flags in spark.executor.extraJavaOptions: -XX:+UseParallelGC");
    assertThat(first.evidence()).contains("stage 2 'agg at W.scala:3'", "GC");
  }

  @Test
  void skewWithNothingElseChangedIsAStageCause() {
    RunProfile base = run("a", 100, 8, 10 * GB, CONF, baseStages());
    List<StageStats> stages = new ArrayList<>(baseStages());
    stages.set(1, stage(1, "join at W.scala:2", 70, 300, 40, 0, 9.0));
    RunProfile now = run("b", 140, 8, 10 * GB, conf("spark.app.id", "x"), stages);
    RegressionCause first = Attribution.explain(now, base, 40).get(0);
    assertThat(first.kind()).isEqualTo(CauseKind.STAGES);
    assertThat(first.what()).startsWith("skew");
    assertThat(first.action()).isEqualTo("read finding DATA_SKEW");
  }

  @Test
  void aLongestTaskOnASlowHostIsTheEnvironmentNamingTheHost() {
    RunProfile base = run("a", 100, 8, 10 * GB, CONF, baseStages());
    List<StageStats> stages = new ArrayList<>(baseStages());
    // the join's longest task ran 38 s over its stage's median on hadoop6, whose other tasks ran slow too
    stages.set(1, stage(1, "join at W.scala:2", 70, 300, 40, 0, 9.0).withSlowHost("hadoop6", 38));
    RunProfile now = run("b", 140, 8, 10 * GB, conf("spark.app.id", "x"), stages);
    List<RegressionCause> causes = Attribution.explain(now, base, 40);
    RegressionCause first = causes.get(0);
    assertThat(first.kind()).isEqualTo(CauseKind.ENVIRONMENT);
    assertThat(first.what()).isEqualTo("tasks on a slow host (hadoop6)");
    assertThat(first.seconds()).isEqualTo(40);
    assertThat(first.evidence()).contains("stage 1 'join at W.scala:2' 30.0 s -> 70.0 s", "host hadoop6",
        "38.0 s over the stage's median, against 0.0 s before");
    assertThat(first.action()).contains("check hadoop6", "spark.speculation=true", "read finding SLOW_HOSTS");
    assertThat(causes).noneMatch(c -> c.what().startsWith("skew"));
  }

  @Test
  void aLongestTaskOnAColdExecutorIsResourcesWithWhatKeepsExecutorsWarm() {
    // the join's longest task, among the first of an executor started during the stage, ran 36 s over its median
    List<StageStats> stages = joinGrownOnAColdExecutor(36);
    List<RegressionCause> causes = Attribution.explain(run("b", 140, 8, 10 * GB, conf("spark.app.id", "x"), stages),
        run("a", 100, 8, 10 * GB, CONF, baseStages()), 40);
    RegressionCause first = causes.get(0);
    assertThat(first.kind()).isEqualTo(CauseKind.RESOURCES);
    assertThat(first.what()).isEqualTo("tasks on executors that had not warmed up");
    assertThat(first.seconds()).isEqualTo(40);
    assertThat(first.evidence()).contains("stage 1 'join at W.scala:2' 30.0 s -> 70.0 s",
        "a task among its executor's first ran 36.0 s over the stage's median, against 0.0 s before");
    assertThat(first.action()).contains("fewer, larger executors", "spark.python.worker.reuse",
        "read finding COLD_EXECUTORS").doesNotContain("dynamicAllocation");
    assertThat(causes).noneMatch(c -> c.what().startsWith("skew"));

    // under dynamic allocation, executors released when idle and started again: keep them longer
    Map<String, String> dynamic = new java.util.HashMap<>(CONF);
    dynamic.put("spark.dynamicAllocation.enabled", "true");
    Map<String, String> dynamicNow = new java.util.HashMap<>(dynamic);
    dynamicNow.put("spark.app.id", "x");
    RegressionCause underDynamic = Attribution.explain(run("b", 140, 8, 10 * GB, dynamicNow, stages),
        run("a", 100, 8, 10 * GB, dynamic, baseStages()), 40).get(0);
    assertThat(underDynamic.what()).isEqualTo("tasks on executors that had not warmed up");
    assertThat(underDynamic.action()).contains("spark.dynamicAllocation.executorIdleTimeout",
        "read finding COLD_EXECUTORS");
  }

  @Test
  void aColdExecutorAfterAShorterIdleTimeoutIsThatConfigurationChange() {
    Map<String, String> before = new java.util.HashMap<>(CONF);
    before.put("spark.dynamicAllocation.executorIdleTimeout", "300s");
    RunProfile base = run("a", 100, 8, 10 * GB, before, baseStages());
    RunProfile now = run("b", 140, 8, 10 * GB, conf("spark.dynamicAllocation.executorIdleTimeout", "10s"),
        joinGrownOnAColdExecutor(36));
    RegressionCause first = Attribution.explain(now, base, 40).get(0);
    assertThat(first.kind()).isEqualTo(CauseKind.CONFIGURATION);
    assertThat(first.what()).contains("spark.dynamicAllocation.executorIdleTimeout");
    assertThat(first.seconds()).isEqualTo(40);
    assertThat(first.action()).contains("--conf spark.dynamicAllocation.executorIdleTimeout=300s");
  }

  @Test
  void aColdExecutorAsSlowInTheReferenceIsNotTheCause() {
    RunProfile base = run("a", 100, 8, 10 * GB, CONF, List.of(baseStages().get(0),
        baseStages().get(1).withColdExecutor(20), baseStages().get(2), baseStages().get(3)));
    // 40 s of growth, of which the cold straggler explains 16 s more than in the reference: skew
    RunProfile now = run("b", 140, 8, 10 * GB, conf("spark.app.id", "x"), joinGrownOnAColdExecutor(36));
    RegressionCause first = Attribution.explain(now, base, 40).get(0);
    assertThat(first.kind()).isEqualTo(CauseKind.STAGES);
    assertThat(first.what()).startsWith("skew");
  }

  @Test
  void aSlowHostThatWasAsSlowInTheReferenceOrExplainsLittleOfTheGrowthIsNotTheCause() {
    RunProfile base = run("a", 100, 8, 10 * GB, CONF, List.of(baseStages().get(0),
        baseStages().get(1).withSlowHost("hadoop6", 10), baseStages().get(2), baseStages().get(3)));
    List<StageStats> stages = new ArrayList<>(baseStages());
    // 40 s of growth, of which the straggler on the slow host explains 14 s more than in the reference: skew
    stages.set(1, stage(1, "join at W.scala:2", 70, 300, 40, 0, 9.0).withSlowHost("hadoop6", 24));
    RunProfile now = run("b", 140, 8, 10 * GB, conf("spark.app.id", "x"), stages);
    RegressionCause first = Attribution.explain(now, base, 40).get(0);
    assertThat(first.kind()).isEqualTo(CauseKind.STAGES);
    assertThat(first.what()).startsWith("skew");
  }

  @Test
  void everyStageSlowerBySimilarFactorIsTheEnvironment() {
    RunProfile base = run("a", 100, 8, 10 * GB, CONF, baseStages());
    List<StageStats> stages = scaled(baseStages(), 1.5);
    RunProfile now = run("b", 145, 8, 10 * GB, conf("spark.app.id", "x"), stages);
    RegressionCause first = Attribution.explain(now, base, 45).get(0);
    assertThat(first.kind()).isEqualTo(CauseKind.ENVIRONMENT);
    assertThat(first.seconds()).isEqualTo(45);
  }

  /**
   * Eight steady baseline runs of about 100 s: 90 s inside stages (the union of their spans) and 10 s outside them (6 s
   * before the first stage, 3 s between stages, 1 s after the last), each within ±0.4 s; the noise of each part is
   * then the floor, 2 % of 100 s = 2 s.
   */
  private static List<RunProfile> steadyBaseline() {
    List<RunProfile> out = new ArrayList<>();
    double[] wobble = {0, 0.2, -0.2, 0.4, -0.4, 0.1, -0.1, 0};
    for (int i = 0; i < wobble.length; i++) {
      double w = wobble[i];
      out.add(run("base-" + i, 100 + 2 * w, 8, 10 * GB, CONF, baseStages(),
          new WallTimeSplit(6 + w, 90 + w, 3, 1)));
    }
    return out;
  }

  /** Stage 1 did more work (task time 230 -> 320 s, 30 -> 42 s), stage 2 took 1 s longer, stage 0 2 s less. */
  private static List<StageStats> unevenlySlowerStages() {
    List<StageStats> stages = new ArrayList<>(baseStages());
    stages.set(0, stage(0, "scan at W.scala:1", 18, 150, 40, 0, 1.2));
    stages.set(1, stage(1, "join at W.scala:2", 42, 320, 40, 0, 1.3));
    stages.set(2, stage(2, "agg at W.scala:3", 26, 190, 200, 0, 1.1));
    return stages;
  }

  /** The causes of a run with the baseline's data and configuration against {@link #steadyBaseline()}. */
  private static List<RegressionCause> againstSteadyBaseline(List<StageStats> stages, WallTimeSplit split) {
    return against(steadyBaseline(), stages, split);
  }

  /** The causes of a run with the steady baseline's data and configuration against {@code baseline} (its first run). */
  private static List<RegressionCause> against(List<RunProfile> baseline, List<StageStats> stages,
      WallTimeSplit split) {
    double wall = split.stagesS() + split.outsideS();
    RunProfile now = run("b", wall, 8, 10 * GB, conf("spark.app.id", "x"), stages, split);
    return Attribution.explain(now, baseline.get(0), baseline, wall - 100);
  }

  @Test
  void theSameWorkWithItsStagesAndTheTimeOutsideThemSlowerIsTheEnvironment() {
    // stages unevenly slower (0.9x to 1.4x: not "every stage by a similar factor"), union 90 -> 101 s (z 5.5);
    // outside stages 10 -> 16 s (z 3): 3 s more before the first stage, 3 s more between stages; 17 s extra
    List<RegressionCause> causes = againstSteadyBaseline(unevenlySlowerStages(), new WallTimeSplit(9, 101, 6, 1));
    RegressionCause first = causes.get(0);
    assertThat(first.kind()).isEqualTo(CauseKind.ENVIRONMENT);
    assertThat(first.what()).isEqualTo("stages and the time outside them all slower");
    // 6 s outside stages + 13 s of stage growth without a sign of its own, capped at the 17 s extra
    assertThat(first.seconds()).isEqualTo(17);
    assertThat(first.evidence()).contains("outside stages 16.0 s vs the baseline median 10.0 s (noise 2.0 s, z 3.0)",
        "between stages 6.0 s (3.0 s)", "8 baseline runs compared");
    assertThat(causes).noneMatch(c -> c.kind() == CauseKind.STAGES || c.kind() == CauseKind.OUTSIDE_STAGES);
  }

  @Test
  void baselineRunsOfAnotherConfigurationAreNotComparedWithTheRun() {
    // eight more baseline runs at the same wall time but with 400 shuffle partitions and 16 s outside stages: counted,
    // they would make the run's 16 s the median; they are left out, so the run is compared with the steady 10 s
    List<RunProfile> baseline = new ArrayList<>(steadyBaseline());
    for (int i = 0; i < 8; i++) {
      baseline.add(run("other-" + i, 100, 8, 10 * GB, conf("spark.sql.shuffle.partitions", "400"), baseStages(),
          new WallTimeSplit(12, 84, 3, 1)));
    }
    RegressionCause first = against(baseline, unevenlySlowerStages(), new WallTimeSplit(9, 101, 6, 1)).get(0);
    assertThat(first.kind()).isEqualTo(CauseKind.ENVIRONMENT);
    assertThat(first.evidence()).contains("vs the baseline median 10.0 s", "8 baseline runs compared");
  }

  @Test
  void stagesThatGrewWithTheTimeOutsideThemUnchangedAreNotTheEnvironment() {
    // the same stages; outside stages 10 -> 10.2 s (z 0.1)
    List<RegressionCause> causes = againstSteadyBaseline(unevenlySlowerStages(), new WallTimeSplit(6.2, 101, 3, 1));
    assertThat(causes.get(0).kind()).isEqualTo(CauseKind.STAGES);
    assertThat(causes.get(0).what()).isEqualTo("stages took more task time");
    assertThat(causes.get(0).evidence()).contains("stage 1 'join at W.scala:2' 30.0 s -> 42.0 s");
    assertThat(causes).noneMatch(c -> c.kind() == CauseKind.ENVIRONMENT || c.kind() == CauseKind.OUTSIDE_STAGES);
  }

  /** The baseline's stages with the join grown 30 s -> 70 s, skewed, its longest task among a cold executor's first. */
  private static List<StageStats> joinGrownOnAColdExecutor(double excessS) {
    List<StageStats> stages = new ArrayList<>(baseStages());
    stages.set(1, stage(1, "join at W.scala:2", 70, 300, 40, 0, 9.0).withColdExecutor(excessS));
    return stages;
  }

  /** {@code s} with another duration, task time and CPU time, in seconds. */
  private static StageStats timed(StageStats s, double durationS, double taskS, double cpuS) {
    return new StageStats(s.ref(), 0, s.tasks(), 0, durationS, taskS, cpuS, s.gcS(), s.fetchWaitS(),
        s.shuffleWriteS(), s.inputBytes(), s.shuffleReadBytes(), s.shuffleWriteBytes(), s.spillBytes(),
        s.maxOverMedian());
  }

  /** The baseline's stages with stage 1 ({@code join}) lasting {@code durationS} with {@code taskS} of task time. */
  private static List<StageStats> joinStage(double durationS, double taskS, double cpuS) {
    List<StageStats> stages = new ArrayList<>(baseStages());
    stages.set(1, timed(stages.get(1), durationS, taskS, cpuS));
    return stages;
  }

  /** The first cause, asserted to be of {@code kind} with {@code what}. */
  private static RegressionCause firstIs(List<RegressionCause> causes, CauseKind kind, String what) {
    assertThat(causes).isNotEmpty();
    assertThat(causes.get(0).kind()).isEqualTo(kind);
    assertThat(causes.get(0).what()).isEqualTo(what);
    return causes.get(0);
  }

  @Test
  void tasksThatTookLongerWithTheSameCpuTimeAreTheEnvironment() {
    // the join's task time 230 -> 320 s, its CPU time 184 s in both: the tasks waited for a CPU or a disk;
    // stage 30 -> 42 s, the time outside stages unchanged
    List<RegressionCause> causes = againstSteadyBaseline(joinStage(42, 320, 184), new WallTimeSplit(6, 102, 3, 1));
    RegressionCause first = firstIs(causes, CauseKind.ENVIRONMENT, "tasks waited off CPU with the same work");
    assertThat(first.seconds()).isEqualTo(12);
    assertThat(first.evidence()).contains("task time 680.0 s -> 770.0 s, their CPU time 544.0 s -> 544.0 s");
    assertThat(causes).noneMatch(c -> c.kind() == CauseKind.STAGES);
  }

  @Test
  void theSameGrowthWithTheCpuTimeGrownAlongIsMoreWork() {
    List<RegressionCause> causes = againstSteadyBaseline(joinStage(42, 320, 256), new WallTimeSplit(6, 102, 3, 1));
    assertThat(causes.get(0).kind()).isEqualTo(CauseKind.STAGES);
    assertThat(causes.get(0).what()).isEqualTo("stages took more task time");
    assertThat(causes).noneMatch(c -> c.kind() == CauseKind.ENVIRONMENT);
  }

  @Test
  void withoutCpuTimeInTheLogTasksAreNotJudgedOffCpu() {
    // logs before Spark 2.1 have no executor CPU time: the growth is only more task time
    List<StageStats> base = baseStages().stream().map(s -> timed(s, s.durationS(), s.taskTimeS(), 0)).toList();
    List<StageStats> slower = new ArrayList<>(base);
    slower.set(1, timed(base.get(1), 42, 320, 0));
    RunProfile before = run("a", 100, 8, 10 * GB, CONF, base);
    RunProfile now = run("b", 112, 8, 10 * GB, conf("spark.app.id", "x"), slower);
    List<RegressionCause> causes = Attribution.explain(now, before, 12);
    assertThat(causes.get(0).what()).isEqualTo("stages took more task time");
  }

  @Test
  void theTimeBeforeTheFirstStageGrownWithTasksWaitingOffCpuIsTheEnvironment() {
    // a busy host: 6 s more before the first stage (z 3), the join's tasks 70 s longer with the same CPU time, the
    // stage 1.5 s longer (the union 90 -> 91.5 s, z 0.75: not grown by itself)
    List<RegressionCause> causes = againstSteadyBaseline(joinStage(31.5, 300, 184), new WallTimeSplit(12, 91.5, 3, 1));
    assertThat(firstIs(causes, CauseKind.ENVIRONMENT, "stages and the time outside them all slower").evidence())
        .contains("their CPU time 544.0 s -> 544.0 s");
    assertThat(causes).noneMatch(c -> c.kind() == CauseKind.OUTSIDE_STAGES);
  }

  @Test
  void onlyTheTimeBeforeTheFirstStageGrownIsThatTimeNotTheEnvironment() {
    // the stages as in the baseline; 5 s more before the first stage (z 2.5): the driver, not the machine, is slower
    List<RegressionCause> causes = againstSteadyBaseline(baseStages(), new WallTimeSplit(11, 90, 3, 1));
    RegressionCause first = causes.get(0);
    assertThat(first.kind()).isEqualTo(CauseKind.OUTSIDE_STAGES);
    assertThat(first.what()).isEqualTo("time outside stages grew, most before the first stage");
    assertThat(first.seconds()).isEqualTo(5);
    assertThat(first.action()).startsWith("check the driver's start-up");
    assertThat(causes).noneMatch(c -> c.kind() == CauseKind.ENVIRONMENT);
  }

  @Test
  void addedStagesAfterABroadcastThresholdChangeAreThatConfiguration() {
    RunProfile base = run("a", 100, 8, 10 * GB, CONF, baseStages());
    List<StageStats> stages = new ArrayList<>(baseStages());
    stages.add(2, stage(9, "exchange at W.scala:2", 40, 300, 200, 0, 1.1));
    java.util.HashMap<String, String> props = new java.util.HashMap<>(conf("spark.app.id", "x"));
    props.put("spark.sql.autoBroadcastJoinThreshold", "-1");
    RunProfile now = new RunProfile("b", 140, 980, 8, 4, 4, 2, 0, 10 * GB, 0, GB, GB, 0, 0, 0, "plan2",
        Map.of("SortMergeJoin", 2L), props, stages, new WallTimeSplit(6, 130, 3, 1));
    RegressionCause first = Attribution.explain(now, base, 40).get(0);
    assertThat(first.kind()).isEqualTo(CauseKind.CONFIGURATION);
    assertThat(first.what()).isEqualTo("spark.sql.autoBroadcastJoinThreshold 10MB (default) -> -1");
    assertThat(first.action()).isEqualTo("--conf spark.sql.autoBroadcastJoinThreshold=10MB");
    assertThat(first.evidence()).contains("1 stages added", "fingerprint changed");
  }

  @Test
  void propertiesThatNameOneRunAreNotChanges() {
    List<PropertyChange> changes = PropertyChange.between(
        Map.of("spark.fileserver.uri", "http://10.2.2.71:56518", "spark.externalBlockStore.folderName",
            "spark-7dcea6dd-cb53-4edc-b373-37ce7c55f3d3", "spark.app.id", "app-20151104224434-0000",
            "spark.executor.memory", "4g"),
        Map.of("spark.fileserver.uri", "http://10.2.2.71:33948", "spark.externalBlockStore.folderName",
            "spark-c4321887-f957-403a-985d-112c612a12f4", "spark.app.id", "app-20151104235920-0000",
            "spark.executor.memory", "2g"));
    assertThat(changes).containsExactly(new PropertyChange("spark.executor.memory", "4g", "2g",
        PropertyChange.Mechanism.MEMORY));
  }
}
