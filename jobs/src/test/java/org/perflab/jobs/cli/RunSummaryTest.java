package org.perflab.jobs.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunSummaryTest {
  @Test
  void theTablesLineNamesTheRootAndEveryTable() {
    assertThat(RunSummary.tables("hdfs://nn:8020/perflab", List.of("sweep_results", "sweep_best")))
        .isEqualTo("  tables: hdfs://nn:8020/perflab/{sweep_results,sweep_best} (Delta Lake)");
  }

  @Test
  void theOutputLineQualifiesAPathWithItsFileSystem(@TempDir Path dir) {
    assertThat(RunSummary.output(dir.resolve("result.json").toString()))
        .isEqualTo("  output: file:" + dir.resolve("result.json"));
  }
}
