package org.perflab.jobs.nightly;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The night's printed summary, without Spark. */
class NightTest {
  @Test
  void theSummaryOpensWithWhatRegressedThenOneLinePerStep() {
    Instant at = Instant.parse("2026-12-01T02:00:00Z");
    Night.Summary summary = new Night.Summary("R1", List.of(
        new StepRecord("R1", "features", at, 12, Optional.of(0), Map.of(), "features: full run", Optional.empty()),
        new StepRecord("R1", "regressions", at, 3, Optional.of(0), Map.of("regressions", 8L), "regressed: w (a)",
            Optional.empty())), 15);
    String regressed = "regressed: wordcount (app-6) wall time 1.22x (+4.4 s): ENVIRONMENT: every stage slower";

    List<String> lines = Night.describe(summary, "/out", List.of(regressed)).lines().toList();

    assertThat(lines).hasSize(4);
    assertThat(lines.get(0)).isEqualTo("nightly summary (output /out, run R1, 15s):");
    assertThat(lines.get(1)).isEqualTo(regressed);
    assertThat(lines.get(2)).startsWith("features     exit   0      12s  features: full run");
    assertThat(lines.get(3)).startsWith("regressions  exit   0       3s");
  }
}
