package org.perflab.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code submit/nightly} as cron runs it: a process that chains spark-submits through {@code submit/perflab}. */
class NightlyIT {
  private static final Path REPOSITORY = Scripts.repository();
  private static final String NIGHTLY = REPOSITORY.resolve("submit/nightly").toString();
  private static final Duration TIMEOUT = Duration.ofMinutes(5);
  /**
   * The whole pipeline: ingest, maintain, features, diagnose, cluster, scaling, regress, evaluate and model, each its
   * own spark-submit.
   */
  private static final Duration PIPELINE_TIMEOUT = Duration.ofMinutes(15);

  @Test
  void refusesAJobOutsideThePipeline(@TempDir Path temp) throws Exception {
    Scripts.Result result = Scripts.run(temp, Map.of(), TIMEOUT,
        NIGHTLY, "--archive", temp.toString(), "--output", temp.resolve("out").toString(), "--jobs", "ingest,doctor");

    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.stderr()).contains("Cannot use --jobs: not a job of the pipeline (doctor;");
  }

  @Test
  void needsAnArchiveAndAnOutput(@TempDir Path temp) throws Exception {
    Scripts.Result noArchive = Scripts.run(temp, Map.of(), TIMEOUT, NIGHTLY, "--output", temp.toString());
    Scripts.Result noOutput = Scripts.run(temp, Map.of(), TIMEOUT, NIGHTLY, "--archive", temp.toString());

    assertThat(noArchive.exitCode()).isEqualTo(2);
    assertThat(noArchive.stderr()).contains("Cannot run: no --archive given");
    assertThat(noOutput.exitCode()).isEqualTo(2);
    assertThat(noOutput.stderr()).contains("Cannot run: no --output given");
  }

  @Test
  void runsEveryJobWithANightlyEntryOverTheArchiveAndReportsEachStep(@TempDir Path temp) throws Exception {
    assumeTrue(PerfLab.commandLine().getSubcommands().containsKey("ingest"), "the ingest job is not in this build yet");
    Optional<Path> archive = eventLogArchive();
    assumeTrue(archive.isPresent(), "no event logs: neither samples/spark-events nor the shared spark-events exist");
    Path output = temp.resolve("nightly output");

    Scripts.Result result = Scripts.run(temp, Map.of(), PIPELINE_TIMEOUT,
        NIGHTLY, "--archive", archive.get().toString(), "--output", output.toString(),
        "--master", "local[2]", "--conf", "spark.ui.enabled=false");

    assertThat(result.exitCode()).as(result.stderr()).isZero();
    assertThat(result.stdout()).containsPattern("(?m)^ingest +exit +0 ");
    assertThat(result.stderr()).contains("start ingest").contains("end ingest: exit 0");
    assertThat(output.resolve("ingest_status")).isDirectory();
    assertThat(output.resolve("applications/_delta_log")).isDirectory();
    assertThat(result.stdout()).containsPattern("(?m)^maintain +exit +0 ");
    assertThat(output.resolve("_perflab_lock")).doesNotExist();
    for (String job : new String[] {"features", "diagnose", "cluster", "scaling", "regress", "evaluate"}) {
      assertThat(result.stdout()).containsPattern("(?m)^" + job + " +exit +0 ");
    }
    assertThat(output.resolve("app_features/_delta_log")).isDirectory();
    assertThat(output.resolve("stragglers/_delta_log")).isDirectory();
    assertThat(output.resolve("findings/_delta_log")).isDirectory();
    assertThat(output.resolve("app_clusters/_delta_log")).isDirectory();
    assertThat(output.resolve("scaling_fits/_delta_log")).isDirectory();
    assertThat(output.resolve("prediction_eval_summary/_delta_log")).isDirectory();
    if (PerfLab.commandLine().getSubcommands().containsKey("model")) {
      // model reads the ingest tables from the output root and writes its own next to them.
      assertThat(result.stdout()).containsPattern("(?m)^model +exit +0 ");
      assertThat(output.resolve("dag_models")).isDirectory();
    }
  }

  private static Optional<Path> eventLogArchive() {
    String shared = Optional.ofNullable(System.getProperty("perflab.shared")).orElse(System.getenv("PERFLAB_SHARED"));
    return Stream.of(REPOSITORY.resolve("samples/spark-events"),
            shared == null ? null : Path.of(shared, "data", "spark-events"))
        .filter(path -> path != null && Files.isDirectory(path))
        .findFirst();
  }
}
