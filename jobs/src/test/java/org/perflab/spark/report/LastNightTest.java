package org.perflab.spark.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perflab.spark.ingest.SparkTestSession;
import org.perflab.spark.nightly.NightlyRuns;

/** The overview's "Last night's steps": the latest night of nightly_runs, its steps in order, nothing of older nights. */
class LastNightTest {
  @TempDir
  Path root;

  @Test
  void theOverviewListsTheStepsOfTheLatestNightOnly() throws Exception {
    SparkSession spark = SparkTestSession.get();
    Instant first = Instant.parse("2026-11-26T02:30:00Z");
    Instant second = Instant.parse("2026-11-27T02:30:00Z");
    NightlyRuns.append(spark, root.toString(), List.of(
        NightlyRuns.row("20261126T023000Z", "ingest", first, 12.5, 0, Map.of("tasks", 40L), "ingest: old night", null),
        NightlyRuns.row("20261127T023000Z", "ingest", second, 7.25, 0, Map.of("tasks", 4L), "ingest: 1 logs found",
            null),
        NightlyRuns.row("20261127T023000Z", "features", second.plusSeconds(8), 3.0, 1, Map.of(),
            "Cannot run features: disk full (IOException)", null),
        NightlyRuns.row("20261127T023000Z", "diagnose", second.plusSeconds(11), 0, null, Map.of(), "",
            "it reads what features writes, and features failed")));

    Report.run(spark, new ReportOptions(root.toString(), root.toString(), List.of(), 5),
        Clock.fixed(second.plusSeconds(60), ZoneOffset.UTC));
    String index = Files.readString(root.resolve("report/index.html"));

    assertThat(index).containsPattern("Last night(&#39;|')s steps").contains("Night 20261127T023000Z")
        .doesNotContain("ingest: old night");
    assertThat(index.indexOf("ingest: 1 logs found")).isPositive()
        .isLessThan(index.indexOf("Cannot run features: disk full (IOException)"));
    assertThat(index.indexOf("Cannot run features")).isLessThan(index.indexOf("it reads what features writes"));
    assertThat(index).containsPattern(">skipped<");
  }
}
