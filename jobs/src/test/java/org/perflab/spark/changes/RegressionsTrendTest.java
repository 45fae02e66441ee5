package org.perflab.spark.changes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.perflab.changes.DetectorOptions;
import org.perflab.changes.Judgement;
import org.perflab.changes.Verdict;

/**
 * {@link Regressions#judge} on series of run costs, no Spark: how a trend, a pair, a triple and a step reach the
 * {@code regressions} rows ({@code change_kind}, the note, the nightly headline). No profiles are given, so no causes
 * are attributed.
 */
class RegressionsTrendTest {
  private static final long HOUR_MS = 3_600_000L;

  /** Run {@code i} of workload {@code w}: {@code wallS} seconds on 8 cores, 4 GB each of 2 executors. */
  private static RunPoint run(String w, int i, double wallS) {
    String app = String.format(Locale.ROOT, "app-%s-%04d", w, i);
    return new RunPoint(w, "log-" + app, app, "", 1_796_000_000_000L + i * 24 * HOUR_MS, wallS, 8 * wallS / 3600,
        8 * wallS / 3600);
  }

  private static Map<String, Row> judge(List<RunPoint> runs) {
    Set<String> all = runs.stream().map(RunPoint::logId).collect(Collectors.toSet());
    return Regressions.judge(runs, all, DetectorOptions.withMinHistory(5), ids -> Map.of(), ids -> Map.of(), 0L).stream()
        .collect(Collectors.toMap(r -> r.<String>getAs("app_id"), r -> r));
  }

  /** 20 steady runs at 100 s (± 1 % log-normal), then {@code drifting} runs each 0.5 % slower than the last. */
  private static List<RunPoint> drifting(String w, int drifting) {
    return drifting(w, drifting, 1.005);
  }

  /** 20 steady runs at 100 s (± 1 % log-normal), then {@code drifting} runs each {@code perRun} times the last. */
  private static List<RunPoint> drifting(String w, int drifting, double perRun) {
    Random random = new Random(61);
    List<RunPoint> runs = new ArrayList<>();
    for (int i = 0; i < 20 + drifting; i++) {
      runs.add(run(w, i, 100 * Math.pow(perRun, Math.max(0, i - 19)) * Math.exp(0.01 * random.nextGaussian())));
    }
    return runs;
  }

  @Test
  void aSlowDriftIsARegressionRowOfKindTrendThatSaysHowItRose() {
    List<RunPoint> runs = drifting("etl", 16); // up to 1.005^16 = 1.083: no run alone 4 noise units (8 %) above
    Map<String, Row> rows = judge(runs);
    List<Row> regressions = runs.stream().map(r -> rows.get(r.appId()))
        .filter(r -> r.<String>getAs("verdict").equals("REGRESSION")).toList();
    assertThat(regressions).isNotEmpty();
    Row first = regressions.get(0);
    assertThat(first.<Integer>getAs("history_runs")).isGreaterThanOrEqualTo(20);
    assertThat(first.<String>getAs("change_kind")).isEqualTo("TREND");
    assertThat(first.<String>getAs("wall_time_verdict")).isEqualTo("REGRESSION");
    assertThat(first.<Integer>getAs("baseline_runs")).isEqualTo(5);
    assertThat(first.<Double>getAs("wall_time_ratio")).isGreaterThan(1.02);
    assertThat(first.<String>getAs("note")).startsWith("a gradual change: wall time +0.")
        .containsPattern("a run over its latest [0-9]+ runs \\(Mann–Kendall z [0-9.]+\\), 1\\.[0-9]+× the first 5");
    assertThat(LatestRegressions.headline(first)).startsWith(String.format(Locale.ROOT,
        "etl (%s) wall time %.2fx gradually (+", first.<String>getAs("app_id"),
        first.<Double>getAs("wall_time_ratio")));
    assertThat(rows.values()).filteredOn(r -> r.<String>getAs("verdict").equals("WITHIN_NOISE"))
        .allMatch(r -> r.getAs("change_kind") == null);
  }

  @Test
  void aStepIsARegressionRowOfKindStep() {
    List<RunPoint> runs = new ArrayList<>(drifting("etl", 0));
    runs.add(run("etl", 20, 130));
    Row step = judge(runs).get(runs.get(20).appId());
    assertThat(step.<String>getAs("verdict")).isEqualTo("REGRESSION");
    assertThat(step.<String>getAs("change_kind")).isEqualTo("STEP");
    assertThat(LatestRegressions.headline(step)).doesNotContain("gradually");
  }

  @Test
  void aFallingTrendIsAnImprovementRowThatSaysHowItFell() {
    List<RunPoint> runs = drifting("etl", 16, 0.995);
    Map<String, Row> rows = judge(runs);
    Row first = runs.stream().map(r -> rows.get(r.appId()))
        .filter(r -> r.<String>getAs("verdict").equals("IMPROVEMENT")).findFirst().orElseThrow();
    assertThat(first.<String>getAs("change_kind")).isEqualTo("TREND");
    assertThat(first.<String>getAs("note")).startsWith("a gradual change: wall time -0.");
    assertThat(first.<Double>getAs("wall_time_ratio")).isLessThan(0.98);
  }

  @Test
  void twoRunsInARowOffTheLevelAreARegressionRowOfKindPairThatNamesTheFirst() {
    // 20 steady runs (noise: the 2 % floor), then two runs about 3 noise units slower: neither alone beyond 4
    List<RunPoint> runs = new ArrayList<>(drifting("etl", 0));
    runs.add(run("etl", 20, 106));
    runs.add(run("etl", 21, 106.5));
    Map<String, Row> rows = judge(runs);
    assertThat(rows.get(runs.get(20).appId()).<String>getAs("verdict")).isEqualTo("WITHIN_NOISE");
    Row pair = rows.get(runs.get(21).appId());
    assertThat(pair.<String>getAs("verdict")).isEqualTo("REGRESSION");
    assertThat(pair.<String>getAs("change_kind")).isEqualTo("PAIR");
    assertThat(pair.<Integer>getAs("baseline_runs")).isEqualTo(20);
    assertThat(pair.<Double>getAs("wall_time_ratio")).isBetween(1.05, 1.08);
    assertThat(pair.<String>getAs("note")).matches("the second run in a row off the level: wall time 1\\.0[5-7]× \\(z"
        + " [23]\\.[0-9]\\) in app-etl-0020, then 1\\.0[5-8]× \\(z [23]\\.[0-9]\\), against the same 20 runs.*");
    assertThat(LatestRegressions.headline(pair)).startsWith(String.format(Locale.ROOT,
        "etl (app-etl-0021) wall time %.2fx twice in a row (+", pair.<Double>getAs("wall_time_ratio")));
  }

  @Test
  void threeRunsInARowOffTheLevelAreARegressionRowOfKindTripleThatNamesTheFirstTwo() {
    // 20 steady runs (noise: the 2 % floor), then three runs about 2.2 noise units slower: no two make a pair
    List<RunPoint> runs = new ArrayList<>(drifting("etl", 0));
    runs.add(run("etl", 20, 104.5));
    runs.add(run("etl", 21, 104.6));
    runs.add(run("etl", 22, 104.5));
    Map<String, Row> rows = judge(runs);
    assertThat(List.of(20, 21)).allMatch(i -> rows.get(runs.get(i).appId()).<String>getAs("verdict")
        .equals("WITHIN_NOISE"));
    Row triple = rows.get(runs.get(22).appId());
    assertThat(triple.<String>getAs("verdict")).isEqualTo("REGRESSION");
    assertThat(triple.<String>getAs("change_kind")).isEqualTo("TRIPLE");
    assertThat(triple.<Integer>getAs("baseline_runs")).isEqualTo(20);
    assertThat(triple.<String>getAs("note")).matches("the third run in a row off the level: wall time 1\\.0[3-6]× \\(z"
        + " [12]\\.[0-9]\\) in app-etl-0020, 1\\.0[3-6]× \\(z [12]\\.[0-9]\\) in app-etl-0021, then 1\\.0[3-6]× \\(z"
        + " [12]\\.[0-9]\\), against the same 20 runs.*");
    assertThat(LatestRegressions.headline(triple)).startsWith(String.format(Locale.ROOT,
        "etl (app-etl-0022) wall time %.2fx three times in a row (+", triple.<Double>getAs("wall_time_ratio")));
  }

  @Test
  void aCostChangeThatTheWallTimeAndTheCostPerSecondDoNotShareIsWithinNoise() {
    // 20 steady runs whose wall time varies by 7 % (the driver's share) while their executors' time varies by 0.5 %;
    // then a run 10 % longer on the same 8 cores: its core-hours alone are beyond their noise, but its wall time
    // is not 1.86 of its noise units off (the open-run threshold) and the cores held per second are unchanged.
    List<RunPoint> runs = costSeries();
    runs.add(cost("etl", 20, 110, 8 * 110.0 / 3600));
    Row row = judge(runs).get("app-etl-0020");
    assertThat(row.<Double>getAs("core_hours_z")).isGreaterThan(4);
    assertThat(row.<Double>getAs("wall_time_z")).isBetween(0.5, 1.86);
    assertThat(row.<String>getAs("core_hours_verdict")).isEqualTo("WITHIN_NOISE");
    assertThat(row.<String>getAs("gb_hours_verdict")).isEqualTo("WITHIN_NOISE");
    assertThat(row.<String>getAs("verdict")).isEqualTo("WITHIN_NOISE");
    assertThat(row.<String>getAs("change_kind")).isNull();
  }

  @Test
  void aCostChangeWhoseWallTimeMovedTheSameWayIsARegressionOfCost() {
    // The same runs, then one 20 % longer: its wall time is off by more than 1.86 noise units, within its threshold,
    // and its core-hours beyond theirs: the cost regression stands.
    List<RunPoint> runs = costSeries();
    runs.add(cost("etl", 20, 120, 8 * 120.0 / 3600));
    Row row = judge(runs).get("app-etl-0020");
    assertThat(row.<Double>getAs("wall_time_z")).isBetween(1.86, 4.0);
    assertThat(row.<String>getAs("wall_time_verdict")).isEqualTo("WITHIN_NOISE");
    assertThat(row.<String>getAs("core_hours_verdict")).isEqualTo("REGRESSION");
    assertThat(row.<String>getAs("verdict")).isEqualTo("REGRESSION");
  }

  /** 20 runs of 100 s ± 7 % whose 8 cores are held for 100 s ± 0.5 %. */
  private static List<RunPoint> costSeries() {
    Random random = new Random(7);
    List<RunPoint> runs = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      double executorS = 100 * Math.exp(0.005 * random.nextGaussian());
      runs.add(cost("etl", i, 100 * Math.exp(0.07 * random.nextGaussian()), 8 * executorS / 3600));
    }
    return runs;
  }

  @Test
  void aCostHeldForTheWholeRunEchoesTheWallTimeAndOneHeldApartDoesNot() {
    List<RunPoint> runs = costSeries(); // executors held 100 s ± 0.5 % whatever the wall time (± 7 %)
    List<Integer> all = java.util.stream.IntStream.range(0, runs.size()).boxed().toList();
    assertThat(Regressions.correlation(wallS(runs), coreHours(runs), all)).isLessThan(Regressions.ECHO);
    List<RunPoint> held = runs.stream().map(r -> cost("etl", Integer.parseInt(r.appId().substring(8)), r.wallS(),
        8 * r.wallS() / 3600)).toList();
    assertThat(Regressions.correlation(wallS(held), coreHours(held), all)).isCloseTo(1.0, within(1e-9));
    assertThat(Regressions.correlation(wallS(held), coreHours(held), List.of(0, 1))).isNaN();
  }

  private static double[] wallS(List<RunPoint> runs) {
    return runs.stream().mapToDouble(RunPoint::wallS).toArray();
  }

  private static double[] coreHours(List<RunPoint> runs) {
    return runs.stream().mapToDouble(RunPoint::coreHours).toArray();
  }

  private static final double OWN = 0.3;
  private static final double ECHO = 0.95;

  @Test
  void aCostChangeCountsWhenTheWallTimeOrTheCostPerSecondBacksIt() {
    Judgement up = new Judgement(Verdict.REGRESSION, 1.2, 5, 10, 0.04, List.of(0, 1, 2), false, null, List.of());
    Judgement down = new Judgement(Verdict.IMPROVEMENT, 0.8, -5, 10, 0.04, List.of(0, 1, 2), false, null, List.of());
    Judgement same = new Judgement(Verdict.WITHIN_NOISE, 1.0, 0.1, 10, 0.04, List.of(0, 1, 2), false, null,
        List.of());

    assertThat(Regressions.corroborated(up, up, same, 1.86, OWN)).isSameAs(up);
    assertThat(Regressions.corroborated(up, same, up, 1.86, OWN)).isSameAs(up);
    assertThat(Regressions.corroborated(down, up, down, 1.86, OWN)).isSameAs(down);
    assertThat(Regressions.corroborated(same, up, up, 1.86, OWN)).isSameAs(same);
    Judgement withdrawn = Regressions.corroborated(up, same, same, 1.86, OWN);
    assertThat(withdrawn.verdict()).isEqualTo(Verdict.WITHIN_NOISE);
    assertThat(withdrawn.ratio()).isEqualTo(1.2);
    assertThat(withdrawn.z()).isEqualTo(5);
    assertThat(withdrawn.baseline()).containsExactly(0, 1, 2);
    assertThat(Regressions.corroborated(down, up, same, 1.86, OWN).verdict()).isEqualTo(Verdict.WITHIN_NOISE);
    Judgement wallOff = new Judgement(Verdict.WITHIN_NOISE, 1.08, 2.0, 10, 0.04, List.of(0, 1, 2), false, null,
        List.of());
    Judgement rateSteady = new Judgement(Verdict.WITHIN_NOISE, 1.0, 0.5, 0.1, 0.02, List.of(0, 1, 2), false, null,
        List.of());
    Judgement rateOff = new Judgement(Verdict.WITHIN_NOISE, 1.04, 2.0, 0.1, 0.02, List.of(0, 1, 2), false, null,
        List.of());
    // a cost of its own (little correlated with the wall time: executors that come and go): the wall time part of
    // the way backs its change
    assertThat(Regressions.corroborated(up, wallOff, rateSteady, 1.86, OWN)).isSameAs(up);
    assertThat(Regressions.corroborated(up, wallOff, rateSteady, 1.86, Double.NaN)).isSameAs(up);
    assertThat(Regressions.corroborated(up, wallOff, rateSteady, 2.54, OWN).verdict()).isEqualTo(Verdict.WITHIN_NOISE);
    assertThat(Regressions.corroborated(down, wallOff, rateSteady, 1.86, OWN).verdict())
        .isEqualTo(Verdict.WITHIN_NOISE);
    // the wall time measured again (correlated at 0.95): its change counts when the cost per second moved too
    assertThat(Regressions.corroborated(up, wallOff, rateSteady, 1.86, ECHO).verdict())
        .isEqualTo(Verdict.WITHIN_NOISE);
    assertThat(Regressions.corroborated(up, wallOff, rateOff, 1.86, ECHO)).isSameAs(up);
    assertThat(Regressions.corroborated(up, same, rateOff, 1.86, ECHO).verdict()).isEqualTo(Verdict.WITHIN_NOISE);
    assertThat(Regressions.corroborated(up, wallOff, rateOff, 2.54, ECHO).verdict()).isEqualTo(Verdict.WITHIN_NOISE);
  }

  /** Run {@code i} of workload {@code w}: {@code wallS} seconds, {@code coreHours} core-hours and as many GB-hours. */
  private static RunPoint cost(String w, int i, double wallS, double coreHours) {
    String app = String.format(Locale.ROOT, "app-%s-%04d", w, i);
    return new RunPoint(w, "log-" + app, app, "", 1_796_000_000_000L + i * 24 * HOUR_MS, wallS, coreHours, coreHours);
  }

  @Test
  void aRegressionOfCoreHoursAloneSaysSoInItsHeadlineNotAWallTimeRatioBelowOne() {
    // 20 steady runs of 100 s on 8 cores, then one of 60 s on 32 cores: faster, but 2.4x the core-hours. The nightly
    // summary printed it as "wall time 0.60x", a regression that read like an improvement.
    List<RunPoint> runs = new ArrayList<>(drifting("etl", 0));
    String app = "app-etl-0020";
    runs.add(new RunPoint("etl", "log-" + app, app, "", 1_796_000_000_000L + 20 * 24 * HOUR_MS, 60, 32 * 60.0 / 3600,
        32 * 60.0 / 3600));
    Row row = judge(runs).get(app);
    assertThat(row.<String>getAs("verdict")).isEqualTo("REGRESSION");
    assertThat(row.<String>getAs("wall_time_verdict")).isEqualTo("IMPROVEMENT");
    assertThat(row.<String>getAs("core_hours_verdict")).isEqualTo("REGRESSION");
    double coreRatio = row.<Double>getAs("core_hours_ratio");
    double wallRatio = row.<Double>getAs("wall_time_ratio");
    assertThat(coreRatio).isBetween(2.3, 2.5);
    assertThat(LatestRegressions.whatRegressed(row)).isEqualTo(String.format(Locale.ROOT,
        "core-hours %.2fx, wall time %.2fx", coreRatio, wallRatio));
    assertThat(LatestRegressions.metric(row)).isEqualTo("core_hours");
    double extraCoreHours = 32 * 60.0 / 3600 - 32 * 60.0 / 3600 / coreRatio;
    assertThat(LatestRegressions.headline(row)).startsWith(String.format(Locale.ROOT,
        "etl (app-etl-0020) core-hours %.2fx, wall time 0.60x (+%.3f core·h): ", coreRatio, extraCoreHours));
  }

  @Test
  void aRegressionOfGbHoursAloneIsJudgedAndPricedByItsGbHours() {
    // 20 steady runs, then one as long on as many cores with executors of twice the memory: GB-hours 2x, nothing else.
    List<RunPoint> runs = new ArrayList<>(drifting("etl", 0));
    String app = "app-etl-0020";
    double wallS = runs.get(19).wallS();
    runs.add(new RunPoint("etl", "log-" + app, app, "", 1_796_000_000_000L + 20 * 24 * HOUR_MS, wallS,
        8 * wallS / 3600, 2 * 8 * wallS / 3600));
    Row row = judge(runs).get(app);
    assertThat(row.<String>getAs("verdict")).isEqualTo("REGRESSION");
    assertThat(row.<String>getAs("wall_time_verdict")).isEqualTo("WITHIN_NOISE");
    assertThat(row.<String>getAs("core_hours_verdict")).isEqualTo("WITHIN_NOISE");
    assertThat(LatestRegressions.metric(row)).isEqualTo("gb_hours");
    double gbRatio = row.<Double>getAs("gb_hours_ratio");
    assertThat(gbRatio).isBetween(1.9, 2.1);
    // Its extra: the GB-hours excess as a share of the baseline's wall time, not the core-hours' (about 0).
    assertThat(row.<Double>getAs("extra_s")).isCloseTo((gbRatio - 1) * row.<Double>getAs("baseline_wall_time_s"),
        org.assertj.core.data.Offset.offset(1e-9));
    assertThat(LatestRegressions.headline(row)).startsWith(String.format(Locale.ROOT, "etl (app-etl-0020) GB-hours"
        + " %.2fx, wall time %.2fx (+", gbRatio, row.<Double>getAs("wall_time_ratio"))).contains(" GB·h): ");
  }
}
