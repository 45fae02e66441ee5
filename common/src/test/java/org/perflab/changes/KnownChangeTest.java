package org.perflab.changes;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KnownChangeTest {
  private static final long GB = 1L << 30;
  private static final DetectorOptions OPTIONS = DetectorOptions.withMinHistory(5);
  private static final Map<String, String> CONF = Map.of("spark.executor.instances", "4", "spark.executor.cores", "2",
      "spark.sql.shuffle.partitions", "200", "spark.app.name", "etl");

  private static List<StageStats> stages(int count) {
    List<StageStats> out = new ArrayList<>();
    String[] names = {"scan", "join", "aggregate", "save", "collect"};
    for (int id = 0; id < count; id++) {
      out.add(new StageStats(new StageRef(id, id, names[id] + " at W.scala:" + id), 0, 40, 0, 20, 150, 120, 1,
          0.5, 0.2, GB, GB / 2, GB / 2, 0, 1.2));
    }
    return out;
  }

  private static RunProfile run(String id, int cores, long input, Map<String, String> props, int stages,
      String plan) {
    return new RunProfile(id, 100, 600, cores, 4, 4, 2, 0, input, input / 100, GB, GB, 0, 0, 0, plan,
        Map.of("SortMergeJoin", 1L), props, stages(stages), new WallTimeSplit(6, 90, 3, 1));
  }

  private static RunProfile steady(String id) {
    Map<String, String> props = new HashMap<>(CONF);
    props.put("spark.app.id", id); // a property that names one run: no change of set-up
    return run(id, 8, 10 * GB, props, 4, "plan1");
  }

  private static List<RunProfile> baseline(int runs) {
    List<RunProfile> out = new ArrayList<>();
    for (int i = 0; i < runs; i++) {
      out.add(steady("app-" + i));
    }
    return out;
  }

  /** The baseline's properties with {@code key} set to {@code value}. */
  private static Map<String, String> conf(String key, String value) {
    Map<String, String> props = new HashMap<>(CONF);
    props.put(key, value);
    return props;
  }

  /** A wall-time judgement within noise at {@code z} against 10 baseline runs. */
  private static Judgement wall(double z) {
    return new Judgement(Verdict.WITHIN_NOISE, Math.exp(0.05 * z), z, 100, 0.05, List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9),
        false, null, List.of());
  }

  @Test
  void aSlowerRunWhoseSetUpChangedIsARegressionFromThePairThresholdOn() {
    RunProfile now = run("app-now", 4, 10 * GB, conf("spark.executor.instances", "2"), 4, "plan1");
    List<RunProfile> baseline = baseline(10);
    Judgement judged = KnownChange.confirm(wall(3.5), now, baseline.get(4), baseline, OPTIONS);
    assertThat(judged.verdict()).isEqualTo(Verdict.REGRESSION);
    assertThat(judged.kind()).contains(ChangeKind.KNOWN_CHANGE);
    assertThat(judged.z()).isEqualTo(3.5);
    SetUpChanged c = (SetUpChanged) judged.confirmation();
    assertThat(c.what()).isEqualTo("spark.executor.instances 4 -> 2, task slots 8 -> 4");
    assertThat(c.differing()).isEqualTo(10);
    assertThat(c.runs()).isEqualTo(10);
    // under the pair threshold (2.54), or beyond the threshold where the detector already decided: unchanged
    assertThat(KnownChange.confirm(wall(2.4), now, baseline.get(4), baseline, OPTIONS).verdict())
        .isEqualTo(Verdict.WITHIN_NOISE);
    Judgement step = new Judgement(Verdict.REGRESSION, 1.3, 5, 100, 0.05, List.of(0, 1), false, null, List.of());
    assertThat(KnownChange.confirm(step, now, baseline.get(4), baseline, OPTIONS)).isSameAs(step);
  }

  @Test
  void aFasterRunWhoseSetUpChangedIsAnImprovement() {
    RunProfile now = run("app-now", 16, 10 * GB, conf("spark.executor.instances", "8"), 4, "plan1");
    List<RunProfile> baseline = baseline(10);
    Judgement judged = KnownChange.confirm(wall(-3), now, baseline.get(0), baseline, OPTIONS);
    assertThat(judged.verdict()).isEqualTo(Verdict.IMPROVEMENT);
    assertThat(judged.kind()).contains(ChangeKind.KNOWN_CHANGE);
  }

  @Test
  void aSteadyRunOrOneThatDiffersOnlyInWhatNamesItOrInItsMachineIsNoKnownChange() {
    List<RunProfile> baseline = baseline(10);
    Judgement within = wall(3.9);
    assertThat(KnownChange.confirm(within, steady("app-now"), baseline.get(0), baseline, OPTIONS)).isSameAs(within);
    // input a few percent larger (a table that grows a little each night): the same set-up
    RunProfile grown = run("app-now", 8, 11 * GB, CONF, 4, "plan1");
    assertThat(KnownChange.confirm(within, grown, baseline.get(0), baseline, OPTIONS)).isSameAs(within);
  }

  @Test
  void inputOfAnotherSizeAndAChangedPlanAreKnownChanges() {
    List<RunProfile> baseline = baseline(10);
    RunProfile twice = run("app-now", 8, 20 * GB, CONF, 4, "plan1");
    assertThat(((SetUpChanged) KnownChange.confirm(wall(3), twice, baseline.get(0), baseline, OPTIONS).confirmation())
        .what()).isEqualTo("data 2.00x the baseline's");
    RunProfile replanned = run("app-now", 8, 10 * GB, CONF, 4, "plan2");
    assertThat(((SetUpChanged) KnownChange.confirm(wall(3), replanned, baseline.get(0), baseline, OPTIONS)
        .confirmation()).what()).isEqualTo("physical plan changed");
    RunProfile moreStages = run("app-now", 8, 10 * GB, CONF, 5, "plan1");
    assertThat(((SetUpChanged) KnownChange.confirm(wall(3), moreStages, baseline.get(0), baseline, OPTIONS)
        .confirmation()).what()).isEqualTo("1 stages added, 0 removed");
  }

  @Test
  void aSetUpThatHalfTheBaselineSharesIsNoKnownChange() {
    Map<String, String> other = conf("spark.sql.shuffle.partitions", "400");
    List<RunProfile> baseline = new ArrayList<>(baseline(5));
    for (int i = 0; i < 5; i++) {
      baseline.add(run("app-other-" + i, 8, 10 * GB, other, 4, "plan1"));
    }
    RunProfile now = run("app-now", 8, 10 * GB, other, 4, "plan1");
    // the median run has the other partitions, but 5 of the 10 runs share the run's: interleaved set-ups
    Judgement within = wall(3);
    assertThat(KnownChange.confirm(within, now, baseline.get(0), baseline, OPTIONS)).isSameAs(within);
    baseline.remove(9);
    assertThat(KnownChange.confirm(within, now, baseline.get(0), baseline, OPTIONS).kind())
        .contains(ChangeKind.KNOWN_CHANGE);
  }
}
