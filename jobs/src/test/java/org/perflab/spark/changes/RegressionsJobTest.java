package org.perflab.spark.changes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perflab.eventlog.fixture.LogFixtures;
import org.perflab.eventlog.source.LogCompression;
import org.perflab.jobs.PerfLab;
import org.perflab.jobs.RegressionsJob;
import org.perflab.spark.ingest.SparkTestSession;
import org.perflab.spark.storage.ChangedLogs;
import org.perflab.testing.SampleLogs;

/**
 * {@code regressions} end to end on an archive of one workload: the bundled standalone wordcount log replayed as eight
 * runs an hour apart (new application ids and start times). Runs 0-5 and 7 are steady (task times within ±2 % of the
 * original); run 6's tasks take 1.6× as long. Ingested in two nights, out of start order (runs 0-5 and 7, then the
 * late log of run 6), each followed by features and an incremental {@code regressions}, then a {@code --full} rerun.
 */
class RegressionsJobTest {
  private static final String SAMPLE = "eventlog_v2_app-20261122011932-0001";
  private static final long FIRST_START_MS = 1_796_000_000_000L;
  /** Each run's task-time factor: steady within ±2 %, run 6 1.6× as slow. */
  private static final double[] SLOWDOWN = {1.00, 1.01, 0.99, 1.02, 0.98, 1.00, 1.60, 1.01};
  private static final int SLOW = 6;

  @TempDir static Path dir;

  private static SparkSession spark;
  private static Path logs;
  private static Path root;
  private static RegressionsJob.Summary firstNight;
  private static RegressionsJob.Summary secondNight;
  private static RegressionsJob.Summary full;
  private static Map<String, Row> rows;

  @BeforeAll
  static void twoNightsThenAFullRerun() {
    spark = SparkTestSession.get();
    logs = dir.resolve("logs");
    root = dir.resolve("out");
    List<String> sample = SampleLogs.lines(SampleLogs.directory().resolve(SAMPLE));
    firstNight = night(sample, List.of(0, 1, 2, 3, 4, 5, 7));
    secondNight = night(sample, List.of(SLOW));
    full = regressions(true);
    rows = spark.read().format("delta").load(root.resolve(ChangeTables.REGRESSIONS_TABLE).toString())
        .collectAsList().stream().collect(Collectors.toMap(r -> r.<String>getAs("app_id"), r -> r));
  }

  /** Writes the given runs, ingests what is new, runs features and an incremental regressions. */
  private static RegressionsJob.Summary night(List<String> sample, List<Integer> runs) {
    for (int i : runs) {
      LogFixtures.singleFile(logs, appId(i), RetimedLogs.retimed(sample, appId(i), FIRST_START_MS + i * 3_600_000L,
          SLOWDOWN[i]), LogCompression.NONE, false);
    }
    assertThat(PerfLab.run("ingest", "--input", logs.toString(), "--output", root.toString(), "--incremental"))
        .isZero();
    assertThat(PerfLab.run("features", "--input", root.toString())).isZero();
    return regressions(false);
  }

  private static RegressionsJob.Summary regressions(boolean fullRun) {
    Clock clock = Clock.fixed(Instant.parse("2026-12-01T06:00:00Z"), ZoneOffset.UTC);
    return RegressionsJob.run(spark, clock, new RegressionsJob.Options(root.toString(), null, 5, fullRun));
  }

  private static String appId(int run) {
    return String.format(Locale.ROOT, "app-20261201000000-%04d", run);
  }

  @Test
  void fewerThanFiveEarlierRunsGiveARowThatSaysSoNotAVerdict() {
    for (int i = 0; i < 5; i++) {
      Row r = rows.get(appId(i));
      assertThat(r.<String>getAs("verdict")).as(appId(i)).isEqualTo("INSUFFICIENT_HISTORY");
      assertThat(r.<Integer>getAs("history_runs")).isEqualTo(i);
      assertThat(r.<String>getAs("note")).isEqualTo(i + " earlier runs of this workload; 5 needed for a verdict"
          + " (--min-history)");
      assertThat(r.<Double>getAs("wall_time_ratio")).isNull();
    }
  }

  @Test
  void steadyRunsAreWithinNoise() {
    for (int i : new int[] {5, 7}) {
      Row r = rows.get(appId(i));
      assertThat(r.<String>getAs("verdict")).as(appId(i)).isEqualTo("WITHIN_NOISE");
      assertThat(r.<Double>getAs("wall_time_ratio")).as(appId(i)).isCloseTo(1.0, within(0.03));
      assertThat(r.<String>getAs("first_cause")).isNull();
    }
    // the slow run was a transient outlier: run 7 is judged against runs 0-5, not against it
    Row last = rows.get(appId(7));
    assertThat(last.<String>getList(last.fieldIndex("baseline_app_ids"))).hasSize(6).doesNotContain(appId(SLOW));
  }

  /**
   * Every run names its workload's run just before it by start time (run 7's is run 6, ingested after it) and what
   * changed since: nothing, as every run is the same log under another id and times. The first run has no run before.
   */
  @Test
  void everyRunNamesThePreviousRunAndThatNothingChanged() {
    assertThat(rows.get(appId(0)).<String>getAs("previous_app_id")).isNull();
    assertThat(rows.get(appId(0)).isNullAt(rows.get(appId(0)).fieldIndex("changes"))).isTrue();
    for (int i = 1; i < SLOWDOWN.length; i++) {
      Row r = rows.get(appId(i));
      assertThat(r.<String>getAs("previous_app_id")).as(appId(i)).isEqualTo(appId(i - 1));
      assertThat(r.<String>getList(r.fieldIndex("changes"))).as(appId(i)).isEmpty();
    }
  }

  /**
   * Run 6's tasks took 1.6× as long with its data and configuration unchanged; start-up (12.4 s of its 19.9 s) did
   * not, so its wall time is about 19.9 + 0.6 × 7.4 = 24.3 s, 1.22× the baseline. Every sizeable stage grew by a
   * similar factor (stages 0 and 1: about 1.2× and 1.6×, median 1.39×) with data, slots and configuration unchanged,
   * so the one cause is the environment, explaining nearly all of the extra time (4.3 of 4.4 s when measured).
   */
  @Test
  void theSlowedRunIsARegressionWithItsStagesAsTheFirstCause() {
    Row r = rows.get(appId(SLOW));
    assertThat(r.<String>getAs("verdict")).isEqualTo("REGRESSION");
    assertThat(r.<String>getAs("wall_time_verdict")).isEqualTo("REGRESSION");
    assertThat(r.<Double>getAs("wall_time_ratio")).isCloseTo(1.22, within(0.03));
    assertThat(r.<Integer>getAs("baseline_runs")).isEqualTo(6);
    assertThat(r.<Double>getAs("extra_s")).isCloseTo(4.4, within(0.5));
    List<Row> causes = r.getList(r.fieldIndex("causes"));
    assertThat(causes).hasSize(1);
    Row first = causes.get(0);
    assertThat(first.<String>getAs("kind")).isEqualTo("ENVIRONMENT");
    assertThat(first.<Double>getAs("share")).as("of the extra time").isGreaterThan(0.9);
    assertThat(r.<String>getAs("first_cause")).isEqualTo("ENVIRONMENT: every stage slower by a similar factor");
  }

  /** The nightly summary's first line: what regressed, by how much, and its first cause. */
  @Test
  void theSummaryLinesNameTheRegressionByHowMuchAndItsFirstCause() {
    Row slow = rows.get(appId(SLOW));
    List<String> lines = LatestRegressions.summaryLines(spark.read().format("delta")
        .load(root.resolve(ChangeTables.REGRESSIONS_TABLE).toString()));
    assertThat(lines).containsExactly(String.format(Locale.ROOT, "regressed: %s (%s) wall time %.2fx (+%.1f s): %s",
        slow.<String>getAs("workload_id"), appId(SLOW), slow.<Double>getAs("wall_time_ratio"),
        slow.<Double>getAs("extra_s"), slow.<String>getAs("first_cause")));
    assertThat(lines.get(0)).contains("wall time 1.2");
    assertThat(secondNight.regressions()).containsExactly(lines.get(0).substring("regressed: ".length()));
  }

  @Test
  void eachNightJudgesItsNewRunsAndARerunReplacesRows() {
    assertThat(firstNight.judged()).isEqualTo(7);
    assertThat(firstNight.regressions()).isEmpty();
    assertThat(secondNight.plan().mode()).isEqualTo(ChangedLogs.Mode.INCREMENTAL);
    assertThat(secondNight.judged()).isEqualTo(1);
    assertThat(secondNight.regressions()).singleElement().asString().contains(appId(SLOW));
    assertThat(full.plan().mode()).isEqualTo(ChangedLogs.Mode.FULL);
    assertThat(full.judged()).isEqualTo(SLOWDOWN.length);
    assertThat(full.regressions()).isEqualTo(secondNight.regressions());
    long total = spark.read().format("delta").load(root.resolve(ChangeTables.REGRESSIONS_TABLE).toString()).count();
    assertThat(total).isEqualTo(SLOWDOWN.length);
    assertThat(rows).hasSize(SLOWDOWN.length);
  }
}
