package org.perflab.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.hadoop.util.VersionInfo;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command-line contract of {@code submit/perflab}, run as a process the way a user runs it: for each mistake, the
 * exit code (2 for bad input or usage), the first line of stderr (one line in the house form
 * {@code Cannot <do X>: <reason> (<value>)}), and no stack trace unless {@code --verbose} asks for one. Every mistake
 * here fails before any Spark work, so each takes the few seconds of a JVM start; the runs that succeed (a Spark start
 * and a minute each) check how a run ends: with the output root, the tables written and the log file.
 */
class CommandLineContractIT {
  private static final Duration TIMEOUT = Duration.ofMinutes(2);
  /** For a run that starts Spark and writes tables, on a machine shared with other builds. */
  private static final Duration RUN_TIMEOUT = Duration.ofMinutes(6);
  private static final String PERFLAB = Scripts.repository().resolve("submit/perflab").toString();
  private static final Pattern STACK_TRACE = Pattern.compile("(?m)^\\s*at [\\w.$]+\\(|Exception in thread");
  /** A log line on the console, with its logger's simple name as group 1. */
  private static final Pattern LOG_LINE = Pattern.compile("^\\d\\d/\\d\\d/\\d\\d \\S+ [A-Z]+ ([\\w$]+): ");
  /** The bundled sample logs: 10 logs, every one OK. */
  private static final Path SAMPLES = Scripts.repository().resolve("samples/spark-events");

  @TempDir static Path temp;
  /** An ingest output root with every table (empty Delta tables, as far as a preflight looks). */
  private static Path tables;
  private static Path model;
  private static Path regularFile;

  @BeforeAll
  static void inputs() throws IOException {
    tables = temp.resolve("tables");
    for (String table : List.of("applications", "executors", "jobs", "properties", "stages", "tasks")) {
      Files.createDirectories(tables.resolve(table).resolve("_delta_log"));
    }
    model = Files.writeString(temp.resolve("model.json"), SimulateJobTest.WAVES_MODEL);
    regularFile = Files.writeString(temp.resolve("a-regular-file"), "not a directory");
  }

  /** Runs the launcher with the run's log files in {@code logs}. */
  private static Scripts.Result perflab(Path logs, String... args) throws IOException, InterruptedException {
    return perflabIn(temp, logs, TIMEOUT, args);
  }

  /** Runs the launcher in the working directory {@code cwd}, with the run's log files in {@code logs}. */
  private static Scripts.Result perflabIn(Path cwd, Path logs, Duration timeout, String... args)
      throws IOException, InterruptedException {
    String[] command = Stream.concat(Stream.of(PERFLAB), Stream.of(args)).toArray(String[]::new);
    return Scripts.run(cwd, Map.of("PERFLAB_LOG_DIR", logs.toString()), timeout, command);
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

  /**
   * Exit 0, no stack trace, and stdout ends with {@code "  tables: file:<root>/{<tables>} (Delta Lake)"} (or
   * {@code "  output: file:<root>"}) and {@code "  log: <file>"}, the run's log file under {@code logs}.
   */
  private static void assertEndsWithOutputAndLog(Scripts.Result result, String job, String outputLine, Path logs) {
    assertThat(result.exitCode()).as(result.output()).isZero();
    assertNoStackTrace(result);
    List<String> lines = result.stdout().lines().toList();
    assertThat(lines).as(result.stdout()).hasSizeGreaterThanOrEqualTo(3);
    assertThat(lines.get(lines.size() - 2)).isEqualTo(outputLine);
    String logLine = lines.get(lines.size() - 1);
    assertThat(logLine).matches("  log: " + Pattern.quote(logs.toString()) + "/perflab-" + job
        + "-\\d{8}-\\d{6}-\\d+\\.log");
    assertThat(Path.of(logLine.substring("  log: ".length()))).isRegularFile();
  }

  /** Every log line on the console is from one of PerfLab's classes; Spark's, Delta's and Hadoop's go to the file. */
  private static void assertOnlyPerfLabsLogLines(Scripts.Result result) throws IOException {
    Set<String> perflab = new HashSet<>();
    for (String module : List.of("common", "jobs")) {
      try (Stream<Path> files = Files.walk(Scripts.repository().resolve(module + "/src/main/java/org/perflab"))) {
        files.map(f -> f.getFileName().toString()).filter(f -> f.endsWith(".java"))
            .forEach(f -> perflab.add(f.substring(0, f.length() - ".java".length())));
      }
    }
    assertThat(result.stderr().lines().map(LOG_LINE::matcher).filter(Matcher::find).map(m -> m.group(1)))
        .as(result.stderr()).isSubsetOf(perflab);
  }

  private static String tablesLine(Path root, String tables) {
    return "  tables: file:" + root + "/{" + tables + "} (Delta Lake)";
  }

  /** Copies the bundled sample logs to {@code target}. */
  private static Path copySamples(Path target) throws IOException {
    try (Stream<Path> files = Files.walk(SAMPLES)) {
      for (Path file : files.toList()) {
        Files.copy(file, target.resolve(SAMPLES.relativize(file).toString()));
      }
    }
    return target;
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
    Scripts.Result ingest = perflab(logs, "ingest", "--help");

    assertThat(top.exitCode()).isZero();
    assertThat(top.stdout()).startsWith("Usage: submit/perflab").contains("Usage: perflab");
    assertThat(top.stderr()).isEmpty();
    assertThat(job.exitCode()).isZero();
    assertThat(job.stdout()).startsWith("Usage: perflab model").contains("--verbose");
    assertThat(job.stderr()).isEmpty();
    assertThat(ingest.exitCode()).isZero();
    assertThat(ingest.stdout()).startsWith("Usage: perflab ingest").contains("--output");
    assertThat(ingest.stderr()).isEmpty();
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

  // ---- the rows of issue 10 -----------------------------------------------------------------------------------------

  @Test
  void analysisJobsOnARootWithoutIngestTables() throws Exception {
    assertBadInput(perflab("diagnose", "--input", "/nonexistent"),
        "Cannot diagnose: no ingest tables under /nonexistent (run perflab ingest --output /nonexistent first)");
    assertBadInput(perflab("features", "--input", "/nonexistent"),
        "Cannot run features: no ingest tables under /nonexistent (run perflab ingest --output /nonexistent first)");
    assertBadInput(perflab("cluster", "--input", "/nonexistent"),
        "Cannot cluster: no app_features under /nonexistent (run perflab features first)");
    assertBadInput(perflab("scaling", "--input", "/nonexistent"), "Cannot fit scaling laws: no ingest tables under"
        + " /nonexistent (run perflab ingest --output /nonexistent first)");
    assertBadInput(perflab("evaluate", "--input", "/nonexistent"),
        "Cannot evaluate: no ingest tables under /nonexistent (run perflab ingest --output /nonexistent first)");
    assertBadInput(perflab("regress", "--input", "/nonexistent"),
        "Cannot regress: no ingest tables under /nonexistent (run perflab ingest --output /nonexistent first)");
    assertBadInput(perflab("compare", "--input", "/nonexistent", "--workload", "wordcount"),
        "Cannot compare: no ingest tables under /nonexistent (run perflab ingest --output /nonexistent first)");
  }

  @Test
  void anOptionOutOfRangeNamesItsRange() throws Exception {
    assertBadInput(perflab("diagnose", "--input", tables.toString(), "--lambda-p", "5"),
        "Cannot diagnose: --lambda-p must be in [0.0, 4.0] (5.0)");
    assertBadInput(perflab("diagnose", "--input", tables.toString(), "--lambda-q", "0.05"),
        "Cannot diagnose: --lambda-q must be in [0.1, 1.0] (0.05)");
    assertBadInput(perflab("maintain", "--output", tables.toString(), "--compact-min-files", "1"),
        "Cannot maintain: --compact-min-files must be >= 2 (1)");
  }

  @Test
  void aCodecOrSerializerAxisWithoutThePhaseCostRuleIsRefusedBeforeAnyTrial() throws Exception {
    String out = temp.resolve("codec-sweep").toString();
    assertBadInput(perflab("sweep", "--model", model.toString(), "--executors", "1", "--cores", "1", "--codecs",
        "zstd", "--output", out), "Cannot sweep: --codecs and --serializers need --rule phase-cost (--codecs [zstd];"
        + " rule baseline ignores them)");
    assertBadInput(perflab("sweep", "--model", model.toString(), "--executors", "1", "--cores", "1", "--serializers",
        "kryo", "--output", out), "Cannot sweep: --codecs and --serializers need --rule phase-cost (--serializers"
        + " [kryo]; rule baseline ignores them)");
    assertThat(temp.resolve("codec-sweep")).as("nothing written").doesNotExist();
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
    assertBadInput(perflab("ingest", "--input", SAMPLES.toString(), "--output", regularFile.toString()),
        "Cannot ingest: the output root is a regular file, not a directory (--output " + regularFile + ")");
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

  @Test
  void anOutputRootInsideTheInputIsNeverReadAsInputOnASecondRun() throws Exception {
    Path cwd = Files.createTempDirectory(temp, "inside");
    copySamples(cwd.resolve("input"));
    Path logs = Files.createTempDirectory(temp, "logs");
    // The first run only puts tables inside the input; it runs in this JVM, which is cheaper than a spark-submit.
    org.perflab.spark.ingest.SparkTestSession.get();
    assertThat(PerfLab.run("ingest", "--input", cwd.resolve("input").toString(), "--output",
        cwd.resolve("input/tables").toString())).isZero();
    Scripts.Result second = perflabIn(cwd, logs, RUN_TIMEOUT, "ingest", "--input", "input", "--output", "input/tables");

    assertThat(second.exitCode()).as(second.output()).isZero();
    assertThat(second.stdout()).as("every log OK, none of the output's own files read")
        .containsPattern("ingest: 10 logs found, 10 parsed, .*; status \\{OK=10\\}");
    assertThat(second.output()).contains("never read as input (file:" + cwd.resolve("input/tables") + ")");
    assertEndsWithOutputAndLog(second, "ingest", tablesLine(cwd.resolve("input/tables"),
        "applications,jobs,stages,tasks,executors,properties,property_sets,property_set_refs,sql_executions,sql_operators,"
        + "ingest_status"), logs);
  }

  // ---- a run ends with the output root, the tables written and the log file ---------------------------------------

  /**
   * The README's first command, {@code submit/perflab ingest} (the sample logs into {@code perflab-output}, relative to
   * the working directory), then every job that writes tables into that root.
   */
  @Test
  void everyJobThatWritesTablesEndsWithTheOutputRootTheTablesAndTheLog() throws Exception {
    Path cwd = Files.createTempDirectory(temp, "readme");
    Path logs = Files.createTempDirectory(temp, "logs");
    Path root = cwd.resolve("perflab-output");

    Scripts.Result ingest = perflabIn(cwd, logs, RUN_TIMEOUT, "ingest");
    assertEndsWithOutputAndLog(ingest, "ingest", tablesLine(root,
        "applications,jobs,stages,tasks,executors,properties,property_sets,property_set_refs,sql_executions,sql_operators,"
        + "ingest_status"), logs);
    assertThat(ingest.stdout()).contains("status {OK=10}");
    assertOnlyPerfLabsLogLines(ingest);
    assertThat(ingest.output()).as("no ANSI escape codes").doesNotContain("\u001b[");

    Scripts.Result modelled = perflabIn(cwd, logs, RUN_TIMEOUT, "model", "--input", "perflab-output", "--output",
        "perflab-output", "--predict");
    assertEndsWithOutputAndLog(modelled, "model", tablesLine(root, "dag_models,model_predictions"), logs);
    assertThat(modelled.stdout()).containsPattern("(?m)^model: \\d+ models built, \\d+ applications skipped");
    assertOnlyPerfLabsLogLines(modelled);

    // A per-workload phase-cost sweep before stage-costs ran: every run is skipped with its reason, exit 2, and the
    // summary names no table, because none was written.
    Path noCosts = Files.createDirectories(cwd.resolve("no-stage-costs"));
    Scripts.Result skipped = perflabIn(cwd, logs, RUN_TIMEOUT, "sweep", "--dag-models", "perflab-output/dag_models",
        "--per-workload", "--rule", "phase-cost", "--costs", noCosts.toString(), "--executors", "1,2", "--cores", "2",
        "--output", "skipped-sweep");
    assertThat(skipped.exitCode()).as(skipped.output()).isEqualTo(2);
    assertNoStackTrace(skipped);
    assertThat(skipped.stdout()).containsPattern("(?m)^sweep: 0 workload runs swept, [1-9]\\d* skipped, 0 points")
        .containsPattern("(?m)^  skipped \\S+: Cannot use rule phase-cost: no stage_costs table under \\S*"
            + Pattern.quote(noCosts.getFileName().toString()) + " \\(run perflab stage-costs first\\)$");
    List<String> skippedLines = skipped.stdout().lines().toList();
    assertThat(skippedLines.get(skippedLines.size() - 2)).isEqualTo(SweepJob.NOTHING_WRITTEN);
    assertThat(cwd.resolve("skipped-sweep")).as("nothing written").doesNotExist();

    Scripts.Result sweep = perflabIn(cwd, logs, RUN_TIMEOUT, "sweep", "--model", model.toString(), "--executors",
        "1,2", "--cores", "2", "--apps", "10", "--output", "perflab-output");
    assertEndsWithOutputAndLog(sweep, "sweep", tablesLine(root, "sweep_results,sweep_best"), logs);

    Scripts.Result maintain = perflabIn(cwd, logs, RUN_TIMEOUT, "maintain", "--output", "perflab-output",
        "--no-vacuum");
    assertEndsWithOutputAndLog(maintain, "maintain", tablesLine(root, "applications,dag_models,executors,"
        + "ingest_status,jobs,model_predictions,properties,property_set_refs,property_sets,sql_executions,sql_operators,stages,"
        + "sweep_best,sweep_results,tasks"), logs);
    assertThat(maintain.stdout()).contains("maintain: 15 tables maintained");
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
    assertBadInput(perflab("maintain", "--output", missing.toString()),
        "Cannot maintain: --output does not exist (" + missing + "; give the output root of an ingest run)");
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
