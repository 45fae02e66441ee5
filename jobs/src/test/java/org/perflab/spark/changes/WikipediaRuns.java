package org.perflab.spark.changes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.perflab.eventlog.fixture.LogFixtures;
import org.perflab.jobs.PerfLab;
import org.perflab.jobs.RegressionsJob;
import org.perflab.spark.ingest.SparkTestSession;

/**
 * Real runs of the cems Wikipedia "top contributors" job ({@code ../shared/data/scaling/cems/wikipedia_target}),
 * judged in the nightly's order, for the tests of what the attribution reads from {@code diagnose}'s stragglers.
 */
final class WikipediaRuns {
  private WikipediaRuns() {}

  /**
   * Links the logs of {@code apps} under {@code dir/logs}, runs ingest, features, diagnose and regressions (at least 5
   * earlier runs) into {@code dir/out}, and returns the {@code regressions} rows by application id; skips the calling
   * test (an assumption) when the runs are absent.
   */
  static Map<String, Row> judge(Path dir, List<String> apps) throws IOException {
    Path runs = LogFixtures.sharedDir().resolve("data/scaling/cems/wikipedia_target");
    assumeTrue(Files.isDirectory(runs), "Skipped: no cems Wikipedia runs at " + runs + " (set PERFLAB_SHARED)");
    Path logs = Files.createDirectories(dir.resolve("logs"));
    for (String app : apps) {
      Files.createSymbolicLink(logs.resolve(app + ".zstd"), runs.resolve(app + ".zstd"));
    }
    String root = dir.resolve("out").toString();
    SparkSession spark = SparkTestSession.get();
    assertThat(PerfLab.run("ingest", "--input", logs.toString(), "--output", root)).isZero();
    assertThat(PerfLab.run("features", "--input", root)).isZero();
    assertThat(PerfLab.run("diagnose", "--input", root)).isZero();
    RegressionsJob.run(spark, Clock.fixed(Instant.parse("2026-12-02T06:00:00Z"), ZoneOffset.UTC),
        new RegressionsJob.Options(root, null, 5, false));
    return spark.read().format("delta").load(dir.resolve("out").resolve(ChangeTables.REGRESSIONS_TABLE).toString())
        .collectAsList().stream().collect(Collectors.toMap(r -> r.<String>getAs("app_id"), r -> r));
  }

  /** Asserts that no run of {@code steady} got a verdict other than too little history or within its noise. */
  static void assertNotRegressions(Map<String, Row> rows, List<String> steady) {
    for (String app : steady) {
      assertThat(rows.get(app).<String>getAs("verdict")).as(app).isIn("INSUFFICIENT_HISTORY", "WITHIN_NOISE");
    }
  }
}
