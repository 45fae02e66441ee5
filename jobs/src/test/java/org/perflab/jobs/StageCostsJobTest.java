package org.perflab.jobs;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perflab.errors.BadInputException;
import picocli.CommandLine;

/** {@code stage-costs}' command line: bad input before Spark starts. */
class StageCostsJobTest {
  @TempDir
  Path temp;

  @Test
  void aRootWithoutIngestTablesIsBadInput() {
    StageCostsJob job = new StageCostsJob();
    new CommandLine(job).parseArgs("--input", temp.toString());

    assertThatThrownBy(job::call).isInstanceOf(BadInputException.class).hasMessage("Cannot run stage-costs: no ingest"
        + " tables under " + temp + " (run perflab ingest --output " + temp + " first)");
  }
}
