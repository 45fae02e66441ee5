package org.perflab.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.hadoop.util.VersionInfo;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command-line contract of {@code submit/perflab}, run as a process the way a user runs it: for each mistake, the
 * exit code (2 for bad input or usage), the first line of stderr (one line in the house form
 * {@code Cannot <do X>: <reason> (<value>)}), and no stack trace unless {@code --verbose} asks for one. Every case
 * here fails before any Spark work, so each takes the few seconds of a JVM start.
 */
class CommandLineContractIT {
  private static final Duration TIMEOUT = Duration.ofMinutes(2);
  private static final String PERFLAB = Scripts.repository().resolve("submit/perflab").toString();
  private static final Pattern STACK_TRACE = Pattern.compile("(?m)^\\s*at [\\w.$]+\\(|Exception in thread");

  @TempDir static Path temp;
  /** An ingest output root with every table (empty Delta tables, as far as a preflight looks). */
  private static Path tables;
  private static Path model;
  private static Path regularFile;

  @BeforeAll
  static void inputs() throws IOException {
    tables = temp.resolve("tables");
    for (String table : List.of("applications", "executors", "jobs", "stages", "tasks")) {
      Files.createDirectories(tables.resolve(table).resolve("_delta_log"));
    }
    model = Files.writeString(temp.resolve("model.json"), SimulateJobTest.WAVES_MODEL);
    regularFile = Files.writeString(temp.resolve("a-regular-file"), "not a directory");
  }

  /** Runs the launcher with the run's log files in {@code logs}. */
  private static Scripts.Result perflab(Path logs, String... args) throws IOException, InterruptedException {
    String[] command = Stream.concat(Stream.of(PERFLAB), Stream.of(args)).toArray(String[]::new);
    return Scripts.run(temp, Map.of("PERFLAB_LOG_DIR", logs.toString()), TIMEOUT, command);
  }

  private static Scripts.Result perflab(String... args) throws IOException, InterruptedException {
    return perflab(Files.createTempDirectory(temp, "logs"), args);
  }

  /** Exit code 2, {@code firstLine} first on stderr, and no stack trace anywhere. */
  private static void assertBadInput(Scripts.Result result, String firstLine) {
    assertThat(result.exitCode()).as(result.output()).isEqualTo(2);
    assertThat(firstLine(result)).isEqualTo(firstLine);
    assertNoStackTrace(result);
  }

  private static String firstLine(Scripts.Result result) {
    return result.stderr().lines().findFirst().orElse("");
  }

  private static void assertNoStackTrace(Scripts.Result result) {
    assertThat(result.stderr()).as("stderr").doesNotContainPattern(STACK_TRACE);
    assertThat(result.stdout()).as("stdout").doesNotContainPattern(STACK_TRACE);
  }

  private static List<String> listing(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).toList();
    }
  }

  // ---- --version, --help, a wrong option ---------------------------------------------------------------------------

  @Test
  void versionNamesPerfLabItsCommitSparkAndDeltaWithoutStartingSpark() throws Exception {
    Path logs = Files.createTempDirectory(temp, "logs");
    Scripts.Result top = perflab(logs, "--version");
    Scripts.Result job = perflab(logs, "ingest", "--version");

    assertThat(top.exitCode()).as(top.output()).isZero();
    assertThat(top.stdout().lines().toList()).hasSize(3).satisfiesExactly(
        line -> assertThat(line).matches("PerfLab \\S+ \\(git commit \\S+\\)"),
        line -> assertThat(line).matches("Spark 4\\.\\d+\\.\\d+.*"),
        line -> assertThat(line).startsWith("Delta Lake 4."));
    assertThat(top.stderr()).isEmpty();
    assertThat(job.exitCode()).isZero();
    assertThat(job.stdout()).isEqualTo(top.stdout());
    assertThat(job.stderr()).as("no Spark line, no JVM notice").isEmpty();
    assertThat(listing(logs)).as("no spark-submit ran, so no log file").isEmpty();
  }

  @Test
  void helpPrintsTheUsageAloneWithoutStartingSpark() throws Exception {
    Path logs = Files.createTempDirectory(temp, "logs");
    Scripts.Result top = perflab(logs, "--help");
    Scripts.Result job = perflab(logs, "model", "--help");

    assertThat(top.exitCode()).isZero();
    assertThat(top.stdout()).startsWith("Usage: submit/perflab").contains("Usage: perflab");
    assertThat(top.stderr()).isEmpty();
    assertThat(job.exitCode()).isZero();
    assertThat(job.stdout()).startsWith("Usage: perflab model").contains("--verbose");
    assertThat(job.stderr()).isEmpty();
    assertThat(listing(logs)).isEmpty();
  }

  @Test
  void aWrongOptionPrintsOneLineAndTheUsage() throws Exception {
    Scripts.Result result = perflab("ingest", "--bogus");

    assertBadInput(result, "Cannot run ingest: unknown option: '--bogus' (see the usage below)");
    assertThat(result.stderr().lines().skip(1).findFirst()).hasValueSatisfying(
        line -> assertThat(line).startsWith("Usage: perflab ingest"));
  }

  // ---- the rows of issue 9 ------------------------------------------------------------------------------------------

  @Test
  void modelOnARootWithoutIngestTables() throws Exception {
    assertBadInput(perflab("model", "--input", "/nonexistent", "--output", temp.resolve("model-out").toString()),
        "Cannot model: no ingest tables under /nonexistent (run perflab ingest --output /nonexistent first)");
  }

  @Test
  void anObjectStoreSchemeWithoutItsConnectorNamesThePackage() throws Exception {
    String hadoopAws = "org.apache.hadoop:hadoop-aws:" + VersionInfo.getVersion();

    assertBadInput(perflab("ingest", "--input", "s3a://bucket/logs", "--output", temp.resolve("out").toString()),
        "Cannot ingest: no Hadoop FileSystem for scheme s3a on the classpath (--input s3a://bucket/logs; add it"
            + " with --packages " + hadoopAws + " before the job name)");
    assertBadInput(perflab("doctor", "--path", "gs://bucket/logs"), "Cannot run doctor: no Hadoop FileSystem for"
        + " scheme gs on the classpath (--path gs://bucket/logs; add it with --packages"
        + " com.google.cloud.bigdataoss:gcs-connector:hadoop3-2.2.21 before the job name)");
  }

  @Test
  void anOutputRootThatIsARegularFileStopsTheJobBeforeAnyWork() throws Exception {
    assertBadInput(perflab("model", "--input", tables.toString(), "--output", regularFile.toString()),
        "Cannot model: the output root is a regular file, not a directory (--output " + regularFile + ")");
    assertBadInput(perflab("sweep", "--model", model.toString(), "--executors", "1", "--cores", "1", "--output",
        regularFile.toString()),
        "Cannot sweep: the output root is a regular file, not a directory (--output " + regularFile + ")");
    assertThat(Files.readString(regularFile)).isEqualTo("not a directory");
  }

  @Test
  void failTasksOnAMasterThatNeverRetriesIsRejectedAtTheStart() throws Exception {
    assertBadInput(perflab("--master", "local[2]", "workload", "--workload", "sleep", "--fail-tasks", "1",
        "--data-dir", temp.resolve("data").toString()),
        "Cannot run workload: --fail-tasks 1 needs task retries, and master local[2] never retries a task (use"
            + " --master 'local[2,2]' or a cluster)");
  }

  // ---- each job's missing input ----------------------------------------------------------------------------------

  @Test
  void everyJobsMissingInputIsOneLineAndExitTwo() throws Exception {
    Path missing = temp.resolve("missing");
    Path out = temp.resolve("out");

    Scripts.Result ingest = perflab("ingest", "--input", missing.toString(), "--output", out.toString());
    assertThat(ingest.exitCode()).as(ingest.output()).isEqualTo(2);
    assertThat(firstLine(ingest)).startsWith("Cannot ").endsWith("(" + missing + ")");
    assertNoStackTrace(ingest);

    assertBadInput(perflab("workload", "--workload", "sort", "--phase", "run", "--data-dir", missing.toString()),
        "Cannot run workload sort: its data set is not prepared (" + missing
            + "/text/tiny/_perflab_prepared.properties; run with --phase prepare first)");
    assertBadInput(perflab("corpus", "--grid", missing + ".json", "--event-log-dir", out.toString()),
        "Cannot read grid " + missing + ".json: no such file (" + missing + ".json)");
    assertBadInput(perflab("model", "--input", missing.toString(), "--output", out.toString()),
        "Cannot model: no ingest tables under " + missing + " (run perflab ingest --output " + missing + " first)");
    assertBadInput(perflab("simulate", "--model", missing + ".json", "--output", out + ".json"),
        "Cannot read model " + missing + ".json: no such file (" + missing + ".json)");
    assertBadInput(perflab("sweep", "--model", missing + ".json", "--executors", "1", "--cores", "1", "--output",
        out.toString()), "Cannot read model " + missing + ".json: no such file (" + missing + ".json)");
    assertBadInput(perflab("sweep", "--dag-models", missing.toString(), "--app-id", "app-1", "--executors", "1",
        "--cores", "1", "--output", out.toString()), "Cannot sweep: --dag-models does not exist (" + missing
        + "; give the dag_models table that perflab model --output DIR writes as DIR/dag_models)");
    assertBadInput(perflab("doctor", "--path", missing.toString()),
        "Cannot run doctor: nothing matches --path (" + missing + ")");
    assertThat(out).as("nothing written").doesNotExist();
  }

  // ---- --verbose -----------------------------------------------------------------------------------------------

  @Test
  void verboseAfterOrBeforeTheJobNamePrintsTheStackTrace() throws Exception {
    String[] job = {"model", "--input", "/nonexistent", "--output", temp.resolve("out").toString()};

    Scripts.Result after = perflab(Stream.concat(Stream.of(job), Stream.of("--verbose")).toArray(String[]::new));
    Scripts.Result before = perflab(Stream.concat(Stream.of("--verbose"), Stream.of(job)).toArray(String[]::new));

    assertThat(after.exitCode()).isEqualTo(2);
    assertThat(after.stderr()).contains("Cannot model: no ingest tables under /nonexistent")
        .containsPattern(STACK_TRACE);
    assertThat(before.exitCode()).isEqualTo(2);
    assertThat(before.stderr()).contains("Cannot model: no ingest tables under /nonexistent")
        .containsPattern(STACK_TRACE);
  }

  @Test
  void theStackTraceIsInTheRunsLogFile() throws Exception {
    Path logs = Files.createTempDirectory(temp, "logs");

    Scripts.Result result = perflab(logs, "model", "--input", "/nonexistent", "--output", temp.resolve("o").toString());

    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(listing(logs)).singleElement().asString().matches("perflab-model-\\d{8}-\\d{6}-\\d+\\.log");
    String log = Files.readString(logs.resolve(listing(logs).get(0)));
    assertThat(log).contains("Cannot model: no ingest tables under /nonexistent").containsPattern(STACK_TRACE);
  }
}
