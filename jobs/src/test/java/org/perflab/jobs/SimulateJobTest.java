package org.perflab.jobs;

import org.perflab.jobs.cli.TextFiles;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SimulateJobTest {
  static final String WAVES_MODEL = """
      {"Stages": [
         {"name": "map", "tasks": 100, "pre": [], "post": ["reduce"], "distr": {"type": "det", "params": {"val": 10}}},
         {"name": "reduce", "tasks": 7, "pre": ["map"], "post": [], "distr": {"type": "det", "params": {"val": 3}}}],
       "Nodes": 16, "Users": 1, "UThinkTimeDistr": {"type": "exp", "params": {"rate": 0.01}}, "maxJobs": 50,
       "seed": 5}
      """;

  static final String EXP_MODEL = """
      {"Stages": [{"name": "S", "tasks": 10, "distr": {"type": "exp", "params": {"rate": 0.002}}}],
       "Nodes": 64, "maxJobs": 2000, "seed": 1}
      """;

  private static final ObjectMapper JSON = new ObjectMapper();

  /** Runs the dispatcher; returns the exit code and what it printed on stderr. */
  static Run perflab(String... args) {
    PrintStream original = System.err;
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    try {
      int code = PerfLab.run(args);
      return new Run(code, err.toString(StandardCharsets.UTF_8));
    } finally {
      System.setErr(original);
    }
  }

  record Run(int exitCode, String stderr) {}

  @Test
  void writesDagSimMeasuresAsJson(@TempDir Path dir) throws Exception {
    Path model = Files.writeString(dir.resolve("m.json"), WAVES_MODEL);
    Path out = dir.resolve("result.json");

    Run run = perflab("simulate", "--model", model.toString(), "--output", out.toString());

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    JsonNode result = JSON.readTree(out.toFile());
    for (String measure : new String[] {"total", "wait", "execution"}) {
      assertThat(result.get(measure).fieldNames()).toIterable().containsExactly("mean", "std", "ci_low", "ci_high");
    }
    // Applications start after an exponential think time, so times are exact only up to rounding.
    assertThat(result.at("/execution/mean").asDouble()).isCloseTo(73.0, within(1e-6));
    assertThat(result.at("/execution/ci_low").asDouble()).isCloseTo(73.0, within(1e-6));
    assertThat(result.at("/wait/mean").asDouble()).isZero();
    assertThat(result.at("/stages/reduce/start_offset/mean").asDouble()).isCloseTo(70.0, within(1e-6));
    assertThat(result.at("/stages/map/task_time/mean").asDouble()).isEqualTo(10.0);
    assertThat(result.get("percentiles").fieldNames()).toIterable()
        .containsExactly("p10", "p25", "p50", "p75", "p90", "p95", "p99");
    assertThat(result.at("/percentiles/p99").asDouble()).isCloseTo(73.0, within(1e-6));
    assertThat(result.get("applications").asLong()).isEqualTo(50);
  }

  @Test
  void seedOptionOverridesTheModelSeedAndReproducesRuns(@TempDir Path dir) throws Exception {
    Path model = Files.writeString(dir.resolve("m.json"), EXP_MODEL);
    Path a = dir.resolve("a.json");
    Path b = dir.resolve("b.json");
    Path c = dir.resolve("c.json");
    assertThat(perflab("simulate", "--model", model.toString(), "--output", a.toString()).exitCode()).isZero();
    assertThat(perflab("simulate", "--model", model.toString(), "--output", b.toString(), "--seed", "1")
        .exitCode()).isZero();
    assertThat(perflab("simulate", "--model", model.toString(), "--output", c.toString(), "--seed", "2",
        "--task-choice", "RANDOM").exitCode()).isZero();

    assertThat(Files.readString(b)).isEqualTo(Files.readString(a));
    assertThat(Files.readString(c)).isNotEqualTo(Files.readString(a));
    JsonNode result = JSON.readTree(a.toFile());
    assertThat(result.get("seed").asLong()).isEqualTo(1);
    assertThat(result.at("/execution/mean").asDouble()).isCloseTo(500 * 2.9289683, within(60.0));
  }

  @Test
  void badModelExitsTwoNamingTheFieldAndWritesNothing(@TempDir Path dir) throws Exception {
    Path model = Files.writeString(dir.resolve("m.json"), WAVES_MODEL.replace("\"val\": 3", "\"val\": -3"));
    Path out = dir.resolve("result.json");

    Run run = perflab("simulate", "--model", model.toString(), "--output", out.toString());

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.stderr()).contains("Cannot read model").contains("Stages[1].distr.params.val must be >= 0 (-3)");
    assertThat(out).doesNotExist();
  }

  @Test
  void missingModelFileAndBadOptionsExitTwo(@TempDir Path dir) throws Exception {
    Path out = dir.resolve("result.json");
    Run missing = perflab("simulate", "--model", dir.resolve("nope.json").toString(), "--output", out.toString());
    assertThat(missing.exitCode()).isEqualTo(2);
    assertThat(missing.stderr()).contains("Cannot read model").contains("no such file").contains("nope.json");

    Path model = Files.writeString(dir.resolve("m.json"), EXP_MODEL);
    Run badChoice = perflab("simulate", "--model", model.toString(), "--output", out.toString(),
        "--task-choice", "lifo");
    assertThat(badChoice.exitCode()).isEqualTo(2);
    assertThat(badChoice.stderr()).contains("--task-choice must be fifo or random (lifo)");
    assertThat(perflab("simulate", "--model", model.toString()).exitCode()).isEqualTo(2);
  }

  @Test
  void writesTheResultFileAndNothingElse(@TempDir Path dir) throws Exception {
    Path model = Files.writeString(dir.resolve("m.json"), WAVES_MODEL);
    Path out = dir.resolve("result.json");
    Files.writeString(dir.resolve(".result.json.crc"), "a stale checksum of an older result");

    assertThat(perflab("simulate", "--model", model.toString(), "--output", out.toString()).exitCode()).isZero();
    assertThat(perflab("simulate", "--model", model.toString(), "--output", out.toString()).exitCode()).isZero();

    assertThat(listing(dir)).containsExactly("m.json", "result.json");
    assertThat(TextFiles.read(out.toString(), "result")).as("readable through the checksummed file system")
        .contains("\"execution\"");
  }

  @Test
  void aDirectoryAsOutputIsBadInputAndIsLeftAsItWas(@TempDir Path dir) throws Exception {
    Path model = Files.writeString(dir.resolve("m.json"), WAVES_MODEL);
    Path empty = Files.createDirectory(dir.resolve("empty"));
    Path full = Files.createDirectory(dir.resolve("full"));
    Files.writeString(full.resolve("keep.txt"), "x");

    Run intoEmpty = perflab("simulate", "--model", model.toString(), "--output", empty.toString());
    Run intoFull = perflab("simulate", "--model", model.toString(), "--output", full.toString());

    assertThat(intoEmpty.exitCode()).isEqualTo(2);
    assertThat(intoEmpty.stderr()).startsWith("Cannot simulate: --output is a directory, not a file (" + empty);
    assertThat(intoFull.exitCode()).isEqualTo(2);
    assertThat(empty).isEmptyDirectory();
    assertThat(listing(dir)).containsExactly("empty", "full", "m.json");
    assertThat(listing(full)).containsExactly("keep.txt");
    assertThatThrownBy(() -> TextFiles.writeAtomically(full.toString(), "{}"))
        .isInstanceOf(org.perflab.errors.BadInputException.class);
    assertThat(listing(dir)).containsExactly("empty", "full", "m.json");
  }

  private static java.util.List<String> listing(Path dir) throws java.io.IOException {
    try (var files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }
}
