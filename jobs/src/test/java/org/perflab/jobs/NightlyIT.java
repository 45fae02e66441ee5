package org.perflab.jobs;

import org.perflab.jobs.cli.NightlyLock;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code submit/nightly} as cron runs it: a thin wrapper over {@code submit/perflab nightly}, one Spark application
 * for the whole night, or one submission per step with {@code --separate}. Its options and its lock; the whole
 * pipeline, on a standalone cluster over HDFS, is {@link NightlyClusterIT}.
 */
class NightlyIT {
  private static final Path REPOSITORY = Scripts.repository();
  private static final String NIGHTLY = REPOSITORY.resolve("submit/nightly").toString();
  private static final Duration TIMEOUT = Duration.ofMinutes(5);

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
    assertThat(noArchive.stderr()).contains("Cannot run the nightly pipeline: no --archive given");
    assertThat(noOutput.exitCode()).isEqualTo(2);
    assertThat(noOutput.stderr()).contains("Cannot run the nightly pipeline: no --output given");
  }

  /**
   * The wrapper takes every option of the nightly job (its usage names each, as `submit/perflab nightly --help` does)
   * and passes it on: a value the job refuses comes back as the job's own message and exit code, not as the wrapper's
   * "unknown option".
   */
  @Test
  void takesEveryOptionOfTheNightlyJobAndPassesItOn(@TempDir Path temp) throws Exception {
    Scripts.Result unknown = Scripts.run(temp, Map.of(), TIMEOUT, NIGHTLY, "--no-such-option");
    assertThat(unknown.exitCode()).isEqualTo(2);
    assertThat(unknown.stderr()).contains("Cannot parse options: unknown option (--no-such-option)");
    for (picocli.CommandLine.Model.OptionSpec option
        : new picocli.CommandLine(new NightlyJob()).getCommandSpec().options()) {
      if (!option.usageHelp() && !option.versionHelp()) {
        assertThat(unknown.stderr()).as("submit/nightly's usage").contains(option.longestName());
      }
    }

    Scripts.Result refused = Scripts.run(temp, Map.of(), TIMEOUT, NIGHTLY, "--archive", temp.toString(), "--output",
        temp.resolve("out").toString(), "--concurrent-steps", "0");
    assertThat(refused.exitCode()).as(refused.stderr()).isEqualTo(2);
    assertThat(refused.stderr()).contains("Cannot use --concurrent-steps: not between 1 and 16 (0)")
        .doesNotContain("unknown option");
  }

  /** --separate: each step its own submission; the driver reads each step's exit code and summary line. */
  @Test
  void separateRunsEachStepAsASubmissionOfItsOwn(@TempDir Path temp) throws Exception {
    // Three driver JVMs (the night's and one per step): more than the other cases' five minutes on a loaded machine.
    Scripts.Result night = Scripts.run(temp, Map.of(), TIMEOUT.multipliedBy(2), NIGHTLY, "--archive", temp.toString(),
        "--output", temp.resolve("out").toString(), "--jobs", "maintain,report", "--separate", "--master", "local[1]");

    assertThat(night.exitCode()).as(night.output()).isZero();
    assertThat(night.stderr())
        .containsPattern("step 1 of 2: maintain ended: exit 2 after \\d+s; Cannot maintain: no tables under ")
        .containsPattern("step 2 of 2: report ended: exit 0 after \\d+s; report: ");
    assertThat(night.stdout()).containsPattern("(?m)^maintain +exit +2 ").containsPattern("(?m)^report +exit +0 ")
        .endsWith("report: " + temp.resolve("out") + "/report/index.html\n");
  }

  /**
   * A running nightly holds {@code <root>/_perflab_nightly_lock} through {@link NightlyLock}; here a holder process
   * started by the test stands in for it. A second nightly exits 1 naming it; once the holder is SIGKILLed (a nightly
   * killed outright), its lock names a dead process of this host and the next nightly takes it over at once.
   */
  @Test
  void aSecondNightlyOnTheSameRootExitsOneNamingTheHolderAndALockLeftByAKilledOneIsTakenOver(@TempDir Path temp)
      throws Exception {
    Path output = temp.resolve("out");
    Process holder = new ProcessBuilder("java", "-cp", REPOSITORY.resolve("jobs/target/perflab.jar") + ":"
        + REPOSITORY.resolve("jobs/target/spark-runtime/jars") + "/*", NightlyLock.class.getName(), "--root",
        output.toString()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    try {
      String line = new java.io.BufferedReader(new java.io.InputStreamReader(holder.getInputStream(),
          java.nio.charset.StandardCharsets.UTF_8)).readLine();
      assertThat(line).startsWith("locked ").endsWith("_perflab_nightly_lock");

      Scripts.Result second = Scripts.run(temp, Map.of(), TIMEOUT, NIGHTLY, "--archive", temp.toString(), "--output",
          output.toString(), "--jobs", "maintain");
      assertThat(second.exitCode()).as(second.stderr()).isEqualTo(1);
      assertThat(second.stderr())
          .contains("Cannot run the nightly pipeline: another PerfLab run holds the output root (nightly, pid "
              + holder.pid() + " on ")
          .containsPattern(", since \\d{4}-\\d\\d-\\d\\dT");
      assertThat(second.stdout()).doesNotContain("maintain ");
    } finally {
      holder.destroyForcibly().waitFor();
    }
    assertThat(output.resolve("_perflab_nightly_lock")).exists();

    Scripts.Result next = Scripts.run(temp, Map.of(), TIMEOUT, NIGHTLY, "--archive", temp.toString(), "--output",
        output.toString(), "--jobs", "maintain");
    assertThat(next.stderr()).contains("holding the nightly lock").contains("step 1 of 1: maintain started");
    assertThat(output.resolve("_perflab_nightly_lock")).doesNotExist();
  }
}
