package org.perflab.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perflab.spark.ingest.SparkTestSession;
import org.perflab.recommend.Objective;
import org.perflab.recommend.Prices;
import org.perflab.recommend.RecommendCheck;
import org.perflab.testing.SharedData;

/**
 * {@code recommend --check} on real measurements: the C3O runtime tables of {@code $PERFLAB_SHARED/data/scaling/c3o}
 * (grep: 5 workloads at 2 size classes; SGD: 4 workloads at 3), converted by {@code submit/c3o-runs} as
 * docs/prediction.md does. Each class with three or more configurations is checked twice, each time with half its
 * configurations hidden ({@link RecommendCheck}). Both must meet the goal of issue 12: at least 80 % of the
 * recommendations within 20 % of the fastest runtime and of the cheapest core-hours near it. The figures are in
 * docs/recommend.md.
 */
class RecommendCheckIT {
  @TempDir
  static Path dir;

  private static SparkSession spark;
  private static Path c3o;

  @BeforeAll
  static void session() {
    c3o = SharedData.root().resolve("data/scaling/c3o");
    assumeTrue(Files.isRegularFile(c3o.resolve("grep.tsv")), "Skipped: no C3O runtime tables at " + c3o
        + " (set PERFLAB_SHARED)");
    spark = SparkTestSession.get();
  }

  @Test
  void grepRecommendationsMeetTheGoalWithHalfTheirClassHidden() throws Exception {
    RecommendCheck.Report report = check("grep", "p_occurrence");
    // 5 workloads × 2 size classes × 2 folds.
    assertThat(report.outcomes()).hasSize(20);
    assertThat(report.goalShare()).as(String.join("\n", report.lines())).isGreaterThanOrEqualTo(
        RecommendCheck.GOAL_SHARE);
  }

  @Test
  void sgdRecommendationsMeetTheGoalWithHalfTheirClassHidden() throws Exception {
    RecommendCheck.Report report = check("sgd", "iterations");
    // 4 workloads × 3 size classes × 2 folds.
    assertThat(report.outcomes()).as(String.join("\n", report.lines())).hasSize(24);
    assertThat(report.unchecked()).isEmpty();
    assertThat(report.goalShare()).as(String.join("\n", report.lines())).isGreaterThanOrEqualTo(
        RecommendCheck.GOAL_SHARE);
  }

  private static RecommendCheck.Report check(String job, String workloadColumn) throws Exception {
    Scripts.Result csv = Scripts.run(Scripts.repository(), Map.of(), Duration.ofMinutes(2),
        "submit/c3o-runs", "--job", job, "--workload-columns", workloadColumn, c3o.resolve(job + ".tsv").toString());
    assertThat(csv.exitCode()).as(csv.stderr()).isZero();
    Path runs = Files.writeString(dir.resolve(job + ".csv"), csv.stdout());
    String root = dir.resolve(job).toString();
    RecommendJob.Summary summary = RecommendJob.run(spark, new RecommendJob.Options(root, root,
        Optional.of(runs.toString()), Objective.cheapestNearFastest(), Prices.coreHoursOnly(), true));
    RecommendCheck.Report report = summary.check().orElseThrow();
    System.out.println(job + ":\n" + String.join("\n", report.lines()));
    return report;
  }
}
