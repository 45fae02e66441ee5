package org.perflab.stragglers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.perflab.errors.BadInputException;

/** The reference's hand-checkable cases (002 §5.7, tests 1–9 and 19). */
class BigRootsTest {
  private static final StragglerThresholds T = StragglerThresholds.defaults(); // λp 1.5, λq 0.9, λT 0.2

  @Test
  void test1StragglerIsStrictlyAboveOneAndAHalfMedians() {
    long[] stage = {10, 10, 10, 10, 16};
    double median = Quantiles.median(stage);
    assertThat(median).isEqualTo(10.0);
    assertThat(Quantiles.isStraggler(16, median, 1.5)).isTrue();
    assertThat(Quantiles.isStraggler(15, median, 1.5)).isFalse();
    assertThat(16 / median).isEqualTo(1.6);
    assertThat(Quantiles.median(new long[] {4, 1, 3, 2})).isEqualTo(2.5);
  }

  @Test
  void test2NormalisationByTheStageMeanAndByTheTaskDuration() {
    List<TaskObservation> tasks = new ArrayList<>();
    long[] bytes = {100, 100, 100, 300};
    for (int i = 0; i < 4; i++) {
      // the 300-byte task also takes 1000 ms with 200 ms of GC; the others 100 ms
      tasks.add(TaskObservation.of(0, i, i == 3 ? 1000 : 100,
          Map.of(Feature.INPUT_BYTES, (double) bytes[i], Feature.GC_TIME, i == 3 ? 200.0 : 0.0)));
    }
    AppDiagnosis.Diagnosed straggler = AppDiagnosis.diagnose(tasks, T, PccThresholds.defaults()).get(0);
    assertThat(straggler.evidence().feature(Feature.INPUT_BYTES).value()).isCloseTo(2.0, within(1e-12));
    assertThat(straggler.evidence().feature(Feature.INPUT_BYTES).peerMean()).isCloseTo(2.0 / 3, within(1e-12));
    assertThat(straggler.evidence().feature(Feature.GC_TIME).value()).isCloseTo(0.2, within(1e-12));
  }

  @Test
  void test3LocalityEncodingWithNoPrefAsLocal() {
    assertThat(LocalityEvidence.code("PROCESS_LOCAL")).isZero();
    assertThat(LocalityEvidence.code("NODE_LOCAL")).isEqualTo(1);
    assertThat(LocalityEvidence.code("RACK_LOCAL")).isEqualTo(2);
    assertThat(LocalityEvidence.code("ANY")).isEqualTo(2);
    assertThat(LocalityEvidence.code("NO_PREF")).isZero();
  }

  @Test
  void test4NumericRuleNeedsBothTheQuantileAndThePeers() {
    // λq = 0.9, λp = 1.5: quantile 2.0 and peer mean 1.0
    assertThat(BigRoots.numeric(FeatureEvidence.of(2.5, 1.0, 2.0), 1.5)).isTrue();
    assertThat(BigRoots.numeric(FeatureEvidence.of(1.9, 1.0, 2.0), 1.5)).as("below the quantile").isFalse();
    assertThat(BigRoots.numeric(FeatureEvidence.of(2.5, 1.0, 2.0), 3.0)).as("below 3 x peers").isFalse();
    assertThat(BigRoots.numeric(FeatureEvidence.of(1.5, 1.0, 1.0), 1.5)).as("strictly above the peers").isFalse();
  }

  @Test
  void test5TimeRuleRejectsASmallShareEvenWhenTheOthersPass() {
    FeatureEvidence gc = FeatureEvidence.of(0.05, 0.01, 0.02);
    assertThat(BigRoots.numeric(gc, 1.5)).isTrue();
    assertThat(BigRoots.time(gc, 1.5, 0.1)).isFalse();
    assertThat(BigRoots.time(FeatureEvidence.of(0.3, 0.01, 0.02), 1.5, 0.1)).isTrue();
  }

  @Test
  void test6EdgeDetectionRejectsSelfCausedLoadAndKeepsPersistentLoad() {
    TreeMap<Long, Double> selfCaused = series(0.10, 0.90, 0.10);
    EdgeDetection.Window own = EdgeDetection.measure(selfCaused, 100, 109, 5);
    assertThat(own).isEqualTo(new EdgeDetection.Window(0.90, 0.10, 0.10));
    assertThat(EdgeDetection.external(own.head(), own.during(), own.tail(), 0.8)).isFalse();

    EdgeDetection.Window external = EdgeDetection.measure(series(0.90, 0.90, 0.90), 100, 109, 5);
    assertThat(EdgeDetection.external(external.head(), external.during(), external.tail(), 0.8)).isTrue();

    // λe honoured: 0.6 before and after 0.9 passes at λe 0.5, not at 0.8
    EdgeDetection.Window partly = EdgeDetection.measure(series(0.60, 0.90, 0.60), 100, 109, 5);
    assertThat(EdgeDetection.external(partly.head(), partly.during(), partly.tail(), 0.5)).isTrue();
    assertThat(EdgeDetection.external(partly.head(), partly.during(), partly.tail(), 0.8)).isFalse();
    // t honoured: a 2 s window sees only the 2 s before the task
    TreeMap<Long, Double> recent = series(0.10, 0.90, 0.90);
    recent.put(98L, 0.9);
    recent.put(99L, 0.9);
    EdgeDetection.Window shortWindow = EdgeDetection.measure(recent, 100, 109, 2);
    assertThat(EdgeDetection.external(shortWindow.head(), shortWindow.during(), shortWindow.tail(), 0.8)).isTrue();
    EdgeDetection.Window longWindow = EdgeDetection.measure(recent, 100, 109, 5);
    assertThat(EdgeDetection.external(longWindow.head(), longWindow.during(), longWindow.tail(), 0.8)).isFalse();
    // no samples before the task: cannot be shown external
    assertThat(EdgeDetection.external(Double.NaN, 0.9, 0.9, 0.8)).isFalse();
  }

  /** 1 Hz samples: {@code before} for seconds 90–99, {@code during} for 100–109, {@code after} for 110–119. */
  private static TreeMap<Long, Double> series(double before, double during, double after) {
    TreeMap<Long, Double> samples = new TreeMap<>();
    for (long s = 90; s < 120; s++) {
      samples.put(s, s < 100 ? before : s < 110 ? during : after);
    }
    return samples;
  }

  @Test
  void test7LocalityRule() {
    assertThat(BigRoots.locality(new LocalityEvidence(2, 0 + 0 + 0 + 1, 4))).isTrue();
    assertThat(BigRoots.locality(new LocalityEvidence(2, 2 + 2 + 0 + 1, 4))).isFalse();
    assertThat(BigRoots.locality(new LocalityEvidence(1, 0, 4))).as("node-local straggler").isFalse();
  }

  @Test
  void test8RatesFromTheThesisTable6() {
    Confusion ours = new Confusion(43, 1, 282, 28);
    assertThat(ours.fpr() * 100).isCloseTo(0.35, within(0.005));
    assertThat(ours.tpr() * 100).isCloseTo(60.56, within(0.005));
    assertThat(ours.accuracy() * 100).isCloseTo(91.81, within(0.005));
    Confusion pcc = new Confusion(47, 46, 237, 24);
    assertThat(pcc.fpr() * 100).isCloseTo(16.25, within(0.005));
    assertThat(pcc.tpr() * 100).isCloseTo(66.20, within(0.005));
    assertThat(pcc.accuracy() * 100).isCloseTo(80.23, within(0.005));
    Confusion mantri = new Confusion(0, 0, 283, 71);
    assertThat(mantri.tpr()).isZero();
    assertThat(mantri.accuracy() * 100).isCloseTo(79.94, within(0.005));
    // the thesis prints Xue's TPR and FPR swapped
    Confusion xue = new Confusion(55, 104, 179, 16);
    assertThat(xue.fpr() * 100).isCloseTo(36.75, within(0.005));
    assertThat(xue.tpr() * 100).isCloseTo(77.46, within(0.005));
    assertThat(xue.accuracy() * 100).isCloseTo(66.10, within(0.005));
  }

  @Test
  void test9GridHasTheTable4CellsAndTheToyOptimumMaximisesTheScore() {
    List<LambdaGrid.Cell> cells = LambdaGrid.cells();
    assertThat(cells.stream().filter(c -> c.model() == LambdaGrid.Model.BIGROOTS)).hasSize(21 * 10);
    assertThat(cells.stream().filter(c -> c.model() == LambdaGrid.Model.PCC)).hasSize(21 * 11);
    assertThat(LambdaGrid.LEVELS).hasSize(11).contains(0.3, 0.7);

    // Toy app: stage of 20 tasks, one with 3x input (skew, expected DATA_SKEW), one with 1.4x input and a long
    // duration that is unexplained by data (expected: nothing).
    List<TaskObservation> tasks = toyStage(0, 3.0, 1.4);
    Map<Integer, Cause> expected = Map.of(0, Cause.DATA_SKEW);
    LambdaGrid.Cell best = cells.stream().filter(c -> c.model() == LambdaGrid.Model.BIGROOTS)
        .max(Comparator.comparingDouble((LambdaGrid.Cell c) -> score(tasks, expected, c).score())
            .thenComparing(c -> -c.threshold()))
        .orElseThrow();
    Confusion bestScore = score(tasks, expected, best);
    assertThat(bestScore.tpr()).isEqualTo(1.0);
    assertThat(bestScore.fpr()).isZero();
    // λp = 0 passes anything above the quantile: the 1.4x task is flagged too, a lower score
    assertThat(score(tasks, expected, new LambdaGrid.Cell(LambdaGrid.Model.BIGROOTS, 0.0, 0.5, 5)).score())
        .isLessThan(bestScore.score());
  }

  private static Confusion score(List<TaskObservation> tasks, Map<Integer, Cause> expected, LambdaGrid.Cell cell) {
    StragglerThresholds t = T.withPeerAndQuantile(cell.threshold(), cell.quantile());
    return AppDiagnosis.diagnose(tasks, t, PccThresholds.defaults()).stream()
        .map(d -> Confusion.of(d.causes(), expected.get(d.task().taskIndex())))
        .reduce(new Confusion(0, 0, 0, 0), Confusion::plus);
  }

  /** 20 tasks of 100 ms and 1000 bytes; task 0 has {@code skew}x bytes, task 1 {@code mild}x; both take 400 ms. */
  private static List<TaskObservation> toyStage(int stageId, double skew, double mild) {
    List<TaskObservation> tasks = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      double bytes = 1000 * (i == 0 ? skew : i == 1 ? mild : 1.0);
      tasks.add(TaskObservation.of(stageId, i, i < 2 ? 400 : 100 + i % 3, Map.of(Feature.INPUT_BYTES, bytes)));
    }
    return tasks;
  }

  @Test
  void test19ClosedLoopRepartitioningRemovesTheDataSkewCauses() {
    List<TaskObservation> before = new ArrayList<>(toyStage(0, 3.0, 1.0));
    before.addAll(toyStage(1, 4.0, 1.0));
    long skewBefore = AppDiagnosis.diagnose(before, T, PccThresholds.defaults()).stream()
        .filter(d -> d.causes().contains(Cause.DATA_SKEW)).count();
    assertThat(skewBefore).isEqualTo(2);

    // "repartitioned": every task gets the stage's mean bytes; the slow tasks remain slow for other reasons
    List<TaskObservation> after = before.stream().map(t -> TaskObservation.of(t.stageId(), t.taskIndex(), t.durationMs(),
        Map.of(Feature.INPUT_BYTES, 1000.0))).toList();
    List<AppDiagnosis.Diagnosed> diagnosed = AppDiagnosis.diagnose(after, T, PccThresholds.defaults());
    assertThat(diagnosed).hasSize(4);
    assertThat(diagnosed).allSatisfy(d -> assertThat(d.causes()).doesNotContain(Cause.DATA_SKEW));
  }

  @Test
  void cpuNeedsLikeDataAndGcIsATimeShare() {
    List<TaskObservation> tasks = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      // with 10 tasks the 0.9-quantile is the 9th smallest: task 1's CPU, just below task 0's
      double cpu = i == 0 ? 400 : i == 1 ? 300 : 90;
      double bytes = i == 1 ? 4000 : 1000; // task 1 burns CPU because it has 4x the data
      double gc = i == 2 ? 300 : 2;
      tasks.add(TaskObservation.of(0, i, i < 3 ? 400 : 100,
          Map.of(Feature.CPU_TIME, cpu, Feature.INPUT_BYTES, bytes, Feature.GC_TIME, gc)));
    }
    Map<Integer, java.util.Set<Cause>> causes = new TreeMap<>();
    AppDiagnosis.diagnose(tasks, T, PccThresholds.defaults())
        .forEach(d -> causes.put(d.task().taskIndex(), d.causes()));
    assertThat(causes).containsOnlyKeys(0, 1, 2);
    assertThat(causes.get(0)).containsExactly(Cause.CPU);
    assertThat(causes.get(1)).containsExactly(Cause.DATA_SKEW);
    assertThat(causes.get(2)).containsExactly(Cause.GC);
  }

  @Test
  void pccFlagsFeaturesCorrelatedWithDuration() {
    double[] x = {1, 2, 3, 4};
    assertThat(Pcc.correlation(x, new double[] {2, 4, 6, 8})).isCloseTo(1.0, within(1e-12));
    assertThat(Pcc.correlation(x, new double[] {8, 6, 4, 2})).isCloseTo(-1.0, within(1e-12));
    assertThat(Pcc.correlation(x, new double[] {5, 5, 5, 5})).isNaN();
    FeatureEvidence e = FeatureEvidence.of(2.0, 1.0, 1.5).withPcc(0.7, 1.5);
    assertThat(Pcc.holds(e, new PccThresholds(0.5, 0.9))).isTrue();
    assertThat(Pcc.holds(e, new PccThresholds(0.8, 0.9))).isFalse();
    assertThat(Pcc.holds(e.withPcc(-0.7, 1.5), new PccThresholds(0.5, 0.9))).as("|rho|").isTrue();
  }

  @Test
  void lambdasOutOfRangeAreBadInputNamingTheRange() {
    assertThatThrownBy(() -> T.withPeerAndQuantile(4.5, 0.9)).isInstanceOf(BadInputException.class)
        .hasMessage("Cannot diagnose: --lambda-p must be in [0.0, 4.0] (4.5)");
    assertThatThrownBy(() -> T.withPeerAndQuantile(1.5, 0.05)).isInstanceOf(BadInputException.class)
        .hasMessage("Cannot diagnose: --lambda-q must be in [0.1, 1.0] (0.05)");
    assertThatThrownBy(() -> new StragglerThresholds(1.5, 1.5, 0.9, 1.2, 0.8, 5)).isInstanceOf(BadInputException.class)
        .hasMessage("Cannot diagnose: --lambda-t must be in [0.0, 1.0] (1.2)");
  }

  @Test
  void singleTaskStagesAndEqualDurationsHaveNoStragglers() {
    List<TaskObservation> tasks = List.of(TaskObservation.of(0, 0, 1000, Map.of()), TaskObservation.of(1, 0, 10, Map.of()),
        TaskObservation.of(1, 1, 10, Map.of()));
    assertThat(AppDiagnosis.diagnose(tasks, T, PccThresholds.defaults())).isEmpty();
    assertThat(AppDiagnosis.diagnose(List.of(), T, PccThresholds.defaults())).isEmpty();
  }
}
