package org.perflab.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code submit/perflab simulate --model m.json --output result.json}, exactly as the simulator issue writes it. */
class SimulateSubmitIT {
  @Test
  void simulatesThroughSparkSubmitWithRelativePaths(@TempDir Path cwd) throws Exception {
    Files.writeString(cwd.resolve("m.json"), SimulateJobTest.WAVES_MODEL);
    String perflab = Scripts.repository().resolve("submit/perflab").toString();

    Scripts.Result run = Scripts.run(cwd, Map.of(), Duration.ofMinutes(2),
        perflab, "simulate", "--model", "m.json", "--output", "result.json");

    assertThat(run.exitCode()).as(run.output()).isZero();
    JsonNode result = new ObjectMapper().readTree(cwd.resolve("result.json").toFile());
    assertThat(result.at("/execution/mean").asDouble()).isCloseTo(73.0, within(1e-6));
    List<String> summary = run.stdout().lines().toList();
    assertThat(summary).as("the summary ends with the output file and the log file").hasSize(3);
    assertThat(summary.get(0)).startsWith("simulate: ").contains("mean execution time 73.000");
    assertThat(summary.get(1)).isEqualTo("  output: file:" + cwd.resolve("result.json"));
    assertThat(summary.get(2)).startsWith("  log: ").endsWith(".log");
  }

  @Test
  void badModelExitsTwoThroughSparkSubmit(@TempDir Path cwd) throws Exception {
    Files.writeString(cwd.resolve("m.json"), SimulateJobTest.WAVES_MODEL.replace("\"Nodes\": 16", "\"Nodes\": 0"));
    String perflab = Scripts.repository().resolve("submit/perflab").toString();

    Scripts.Result run = Scripts.run(cwd, Map.of(), Duration.ofMinutes(2),
        perflab, "simulate", "--model", "m.json", "--output", "result.json");

    assertThat(run.exitCode()).as(run.output()).isEqualTo(2);
    assertThat(run.stderr()).contains("Nodes must be an integer >= 1 (0)");
    assertThat(cwd.resolve("result.json")).doesNotExist();
  }
}
