package org.perflab.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perflab.errors.BadInputException;
import org.perflab.spark.features.Features;
import org.perflab.spark.storage.ChangedLogs;
import picocli.CommandLine;

/** {@code features}' command line: its bad input before Spark starts, and its summary line. */
class FeaturesJobTest {
  @TempDir
  Path temp;

  @Test
  void aRootWithoutIngestTablesIsBadInput() {
    FeaturesJob job = new FeaturesJob();
    new CommandLine(job).parseArgs("--input", temp.toString());

    assertThatThrownBy(job::call).isInstanceOf(BadInputException.class).hasMessage(
        "Cannot run features: no ingest tables under " + temp + " (run perflab ingest --output " + temp + " first)");
  }

  @Test
  void anEmptyWorkloadPropertyIsBadInput() {
    assertThatThrownBy(() -> new Features.Options("in", "out", Optional.of(" "), false))
        .isInstanceOf(BadInputException.class)
        .hasMessage("Cannot run features: --workload-property is empty (give a property key, e.g. hibench.workload)");
  }

  @Test
  void theSummarySaysHowItRanAndWhatItWrote() {
    ChangedLogs.Plan plan = new ChangedLogs.Plan(ChangedLogs.Mode.INCREMENTAL, Optional.of("R1"),
        Optional.of("R2"), Set.of("abc"), "1 logs changed since R1");
    Map<String, Long> rows = new java.util.LinkedHashMap<>();
    rows.put("workloads", 1L);
    rows.put("app_features", 1L);
    rows.put("stage_features", 4L);

    assertThat(FeaturesJob.describe(new Features.Summary(plan, 1, rows))).isEqualTo("features: incremental run from"
        + " ingest run R1 (1 logs changed since R1), 1 applications recomputed; rows written: workloads=1,"
        + " app_features=1, stage_features=4");
  }
}
