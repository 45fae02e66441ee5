package org.perflab.spark.changes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perflab.changes.OffCpuWait;
import org.perflab.spark.ingest.SparkTestSession;

/**
 * The larger regressions corpus ({@code samples/regressions-larger}, docs/regressions-corpus.md) judged by
 * {@code regressions}: every changed run at least 20 % slower than its workload's steady repeats is a regression with
 * its injected change as the first cause, the CPU hog beside the noisiest workload ({@code join}, steady runs spread
 * 10.5 %, the hog 1.29×) among them, which only its tasks' waits off the CPU tell from noise
 * (docs/regressions.md#off-cpu), and the run on one executor, which its wall time alone leaves within noise (z 3.5)
 * and its changed configuration makes a change (docs/regressions.md#known-change); and no steady repeat is a regression
 * (two of 29 were before the short first level's noise was widened by its median's error:
 * docs/benchmarks.md#short-first-level-measured).
 */
class LargerRegressionCorpusTest {
  @TempDir static Path root;
  private static List<RegressionCorpus.Judged> judged;

  @BeforeAll
  static void judgeCorpus() {
    Path corpus = RegressionCorpus.directory("samples/regressions-larger");
    assumeTrue(Files.isRegularFile(corpus.resolve("ground-truth.csv")), "no corpus at " + corpus);
    judged = RegressionCorpus.judge(SparkTestSession.get(), corpus, root,
        Clock.fixed(Instant.parse("2026-12-01T06:00:00Z"), ZoneOffset.UTC), false);
  }

  @Test
  void everyChangedRunTwentyPercentSlowerIsARegressionWithItsChangeAsFirstCause() {
    assertThat(judged).filteredOn(RegressionCorpus.Judged::mustRegress).hasSizeGreaterThanOrEqualTo(6);
    assertThat(judged).filteredOn(RegressionCorpus.Judged::mustRegress)
        .filteredOn(j -> !j.flagged() || !j.rightCause())
        .extracting(j -> RegressionCorpus.describe(j) + " expected " + j.expectedCause()).isEmpty();
  }

  @Test
  void noSteadyRepeatIsARegression() {
    assertThat(judged).filteredOn(j -> j.steady() && j.hasVerdict()).hasSizeGreaterThanOrEqualTo(29);
    assertThat(judged).filteredOn(j -> j.steady() && j.flagged()).extracting(RegressionCorpus::describe).isEmpty();
  }

  /** As in the first corpus: a steady repeat's set-up is the one before it, each injected change of set-up is one. */
  @Test
  void steadyRepeatsHaveOneSetUpAndEachInjectedChangeOfSetUpIsOne() {
    RegressionCorpus.assertSetUps(judged, RegressionCorpus.setUpChanges(SparkTestSession.get(), root, judged), 40, 10);
  }

  /** The run on one executor instead of two is a {@code KNOWN_CHANGE} whose note names the property. */
  @Test
  void fewerExecutorsWithinTheWallTimesNoiseIsAKnownChange() {
    assertThat(judged).filteredOn(j -> "FEWER_EXECUTORS".equals(j.change()) && j.mustRegress()
            && "KNOWN_CHANGE".equals(j.changeKind()))
        .isNotEmpty()
        .allSatisfy(j -> assertThat(j.row().<String>getAs("note")).contains("with its set-up changed")
            .contains("spark.cores.max"));
  }

  /**
   * The CPU hog whose wall time alone stays within its workload's noise is a {@code CORROBORATED} regression, the
   * note giving both measurements.
   */
  @Test
  void theCpuHogWithinItsWallTimesNoiseIsConfirmedByItsTasksWaitsOffTheCpu() {
    assertThat(judged).filteredOn(j -> "CPU_HOG".equals(j.change()) && "CORROBORATED".equals(j.changeKind()))
        .isNotEmpty()
        .allSatisfy(j -> assertThat(j.row().<String>getAs("note")).contains(OffCpuWait.METRIC));
  }
}
