package org.perflab.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.perflab.spark.changes.LatestRegressions;
import org.perflab.spark.storage.ChangedLogs;

/**
 * {@code regressions}' summary: its counts first (the line the nightly keeps as the step's message), then what
 * regressed, bounded so that a night that judges a whole archive does not bury the rest of its summary.
 */
class RegressionsJobSummaryTest {
  private static final ChangedLogs.Plan FULL = new ChangedLogs.Plan(ChangedLogs.Mode.FULL, Optional.empty(),
      Optional.of("R2"), Set.of(), "no watermark");

  @Test
  void theCountsComeFirstThenEachRegression() {
    List<String> lines = RegressionsJob.describe(new RegressionsJob.Summary(FULL, 8,
        List.of("etl (app-2) wall time 1.40x (+9.0 s): DATA: data 2.00x the baseline's",
            "wordcount (app-6) wall time 1.22x (+4.4 s): ENVIRONMENT: every stage slower"))).lines().toList();

    assertThat(lines).containsExactly(
        "regressions: full run (no watermark): 8 applications judged, 2 regressions",
        "regressed: etl (app-2) wall time 1.40x (+9.0 s): DATA: data 2.00x the baseline's",
        "regressed: wordcount (app-6) wall time 1.22x (+4.4 s): ENVIRONMENT: every stage slower");
  }

  @Test
  void beyondTenRegressionsTheRestAreCountedOnOneLine() {
    List<String> headlines = IntStream.range(0, 38).mapToObj(i -> "w (app-" + i + ") wall time 1.30x").toList();

    List<String> lines = RegressionsJob.describe(new RegressionsJob.Summary(FULL, 580, headlines)).lines().toList();

    assertThat(lines).hasSize(1 + LatestRegressions.SUMMARY_LINES + 1);
    assertThat(lines.get(0)).isEqualTo("regressions: full run (no watermark): 580 applications judged, 38 regressions");
    assertThat(lines.subList(1, 11)).as("the costliest, in the order given")
        .isEqualTo(headlines.subList(0, 10).stream().map(h -> "regressed: " + h).toList());
    assertThat(lines.get(11)).isEqualTo("regressed: 28 more, 38 in all, costliest first in the regressions table and"
        + " the report (regressions.json)");
  }

  @Test
  void tenRegressionsOrNoneNeedNoCountLine() {
    List<String> ten = IntStream.range(0, 10).mapToObj(i -> "w (app-" + i + ")").toList();

    assertThat(LatestRegressions.bounded(ten)).hasSize(10).allMatch(l -> l.startsWith("regressed: w (app-"));
    assertThat(LatestRegressions.bounded(List.of())).isEmpty();
  }
}
