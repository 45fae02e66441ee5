package org.perflab.spark.changes;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.perflab.changes.DetectorOptions;
import org.perflab.changes.RunProfile;
import org.perflab.changes.StageRef;
import org.perflab.changes.StageStats;
import org.perflab.changes.WallTimeSplit;

/**
 * {@link Regressions#judge} with the runs' profiles, no Spark: a run whose set-up changed is judged at the pair
 * threshold ({@code KNOWN_CHANGE}), and a change that stays is reported once.
 */
class RegressionsKnownChangeTest {
  private static final long HOUR_MS = 3_600_000L;
  private static final long GB = 1L << 30;

  private static String app(int i) {
    return String.format(Locale.ROOT, "app-etl-%04d", i);
  }

  private static RunPoint run(int i, double wallS) {
    return new RunPoint("etl", "log-" + app(i), app(i), "", 1_796_000_000_000L + i * 24 * HOUR_MS, wallS,
        8 * wallS / 3600, 8 * wallS / 3600);
  }

  private static RunProfile profile(String app, double wallS, String partitions) {
    List<StageStats> stages = List.of(
        new StageStats(new StageRef(0, 0, "scan at Etl.scala:10"), 0, 40, 0, wallS / 2, 4 * wallS, 3 * wallS, 1, 0.5,
            0.2, GB, GB / 2, GB / 2, 0, 1.2),
        new StageStats(new StageRef(1, 0, "save at Etl.scala:20"), 0, 40, 0, wallS / 3, 2 * wallS, 1.5 * wallS, 1,
            0.5, 0.2, GB, GB / 2, GB / 2, 0, 1.2));
    return new RunProfile(app, wallS, 6 * wallS, 8, 4, 4, 2, 0, 10 * GB, GB / 100, GB, GB, 0, 0, 0, "plan1",
        Map.of("SortMergeJoin", 1L), Map.of("spark.sql.shuffle.partitions", partitions, "spark.app.id", app), stages,
        new WallTimeSplit(2, 5 * wallS / 6, 1, 1));
  }

  /** 20 steady runs at 100 s (± 1 % log-normal), then {@code after} at the given wall times. */
  private static List<RunPoint> runs(double... after) {
    return steadyThen(20, after);
  }

  /** {@code steady} runs at 100 s (± 1 % log-normal), then {@code after} at the given wall times. */
  private static List<RunPoint> steadyThen(int steady, double... after) {
    Random random = new Random(61);
    List<RunPoint> runs = new ArrayList<>();
    for (int i = 0; i < steady; i++) {
      runs.add(run(i, 100 * Math.exp(0.01 * random.nextGaussian())));
    }
    for (double wallS : after) {
      runs.add(run(runs.size(), wallS));
    }
    return runs;
  }

  /** The rows of every run, with profiles whose shuffle partitions are 400 from run {@code changedFrom} on. */
  private static Map<String, Row> judge(List<RunPoint> runs, int changedFrom) {
    Map<String, RunProfile> all = new HashMap<>();
    for (int i = 0; i < runs.size(); i++) {
      RunPoint r = runs.get(i);
      all.put(r.logId(), profile(r.appId(), r.wallS(), i >= changedFrom ? "400" : "200"));
    }
    Function<Collection<String>, Map<String, RunProfile>> profiles = ids -> ids.stream()
        .collect(Collectors.toMap(id -> id, all::get));
    Set<String> judged = runs.stream().map(RunPoint::logId).collect(Collectors.toSet());
    return Regressions.judge(runs, judged, DetectorOptions.withMinHistory(5), profiles, ids -> Map.of(), 0L)
        .stream().collect(Collectors.toMap(r -> r.<String>getAs("app_id"), r -> r));
  }

  @Test
  void aRunShortOfTheThresholdWhoseSetUpChangedIsARegressionOfKindKnownChange() {
    List<RunPoint> runs = runs(106.0, 100.0);
    Row changed = judge(runs, 20).get(app(20));
    assertThat(changed.<String>getAs("verdict")).isEqualTo("REGRESSION");
    assertThat(changed.<String>getAs("change_kind")).isEqualTo("KNOWN_CHANGE");
    assertThat(changed.<Double>getAs("wall_time_z")).isBetween(2.54, 4.0);
    assertThat(changed.<String>getAs("note")).startsWith("wall time 1.06× (z ").contains(
        "short of the threshold, with its set-up changed from 20 of its 20 baseline runs':"
            + " spark.sql.shuffle.partitions 200 -> 400");
    assertThat(LatestRegressions.headline(changed)).contains("with its set-up changed");
    // the same run with its set-up unchanged: within noise
    assertThat(judge(runs, 99).get(app(20)).<String>getAs("verdict")).isEqualTo("WITHIN_NOISE");
  }

  @Test
  void aKnownChangeThatStaysIsReportedOnceNotAgainAsAPair() {
    List<RunPoint> runs = runs(106, 106.5, 106.2);
    Map<String, Row> rows = judge(runs, 20);
    assertThat(rows.get(app(20)).<String>getAs("change_kind")).isEqualTo("KNOWN_CHANGE");
    Row second = rows.get(app(21));
    assertThat(second.<String>getAs("verdict")).isEqualTo("WITHIN_NOISE");
    assertThat(second.<String>getAs("note")).startsWith("the change reported with app-etl-0020 (its set-up changed),"
        + " confirmed");
    assertThat(rows.get(app(22)).<String>getAs("verdict")).isEqualTo("WITHIN_NOISE");
    // without the set-up change the two runs are a pair, reported at the second
    Map<String, Row> unchanged = judge(runs, 99);
    assertThat(unchanged.get(app(20)).<String>getAs("verdict")).isEqualTo("WITHIN_NOISE");
    assertThat(unchanged.get(app(21)).<String>getAs("change_kind")).isEqualTo("PAIR");
  }

  /** Against a level too short for the pair test (7 runs), the second run of the new set-up is no second report. */
  @Test
  void aKnownChangeThatStaysOnAShortLevelIsReportedOnce() {
    List<RunPoint> runs = steadyThen(7, 107, 107.5, 107.2);
    Map<String, Row> rows = judge(runs, 7);
    assertThat(rows.get(app(7)).<String>getAs("change_kind")).isEqualTo("KNOWN_CHANGE");
    assertThat(rows.get(app(8)).<Double>getAs("wall_time_z")).isGreaterThan(2.54);
    assertThat(rows.get(app(8)).<String>getAs("verdict")).isEqualTo("WITHIN_NOISE");
    assertThat(rows.get(app(8)).<String>getAs("note")).startsWith("the change reported with app-etl-0007");
    assertThat(rows.get(app(9)).<String>getAs("verdict")).isEqualTo("WITHIN_NOISE");
  }
}
