package org.perflab.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code submit/perflab} as users run it: a process, against the jar and Spark runtime that {@code package} built. */
class SubmitPerflabIT {
  private static final Duration TIMEOUT = Duration.ofMinutes(2);
  private static final Path REPOSITORY = Scripts.repository();
  private static final String PERFLAB = REPOSITORY.resolve("submit/perflab").toString();

  @Test
  void helpListsEveryRegisteredJobAndExitsZero(@TempDir Path elsewhere) throws Exception {
    Scripts.Result result = Scripts.run(elsewhere, Map.of(), TIMEOUT, PERFLAB, "--help");

    assertThat(result.exitCode()).as(result.stderr()).isZero();
    assertThat(result.stdout()).contains("Usage: submit/perflab [spark-submit options] <job> [job options]");
    assertThat(PerfLab.commandLine().getSubcommands().keySet())
        .isNotEmpty()
        .allSatisfy(job -> assertThat(result.stdout()).containsPattern("(?m)^\\s+" + job + "\\b"));
  }

  @Test
  void noJobIsAUsageErrorThatStillListsTheJobs(@TempDir Path elsewhere) throws Exception {
    Scripts.Result result = Scripts.run(elsewhere, Map.of(), TIMEOUT, PERFLAB);

    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.stderr()).contains("no job named").contains("Commands:");
  }

  @Test
  void unknownJobExitsTwo(@TempDir Path elsewhere) throws Exception {
    Scripts.Result result = Scripts.run(elsewhere, Map.of(), TIMEOUT, PERFLAB, "--master", "local[1]", "no-such-job");

    assertThat(result.exitCode()).as(result.output()).isEqualTo(2);
    assertThat(result.stderr()).contains("no-such-job");
  }

  @Test
  void unknownSparkSubmitOptionBeforeTheJobIsAUsageError(@TempDir Path elsewhere) throws Exception {
    Scripts.Result result = Scripts.run(elsewhere, Map.of(), TIMEOUT, PERFLAB, "--no-such-option", "help");

    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.stderr()).contains("Cannot parse spark-submit options").contains("--no-such-option");
  }

  @Test
  void masterAndConfReachSparkSubmitAndJobOptionsReachTheJob(@TempDir Path elsewhere) throws Exception {
    Scripts.Result result = Scripts.run(elsewhere, Map.of(), TIMEOUT, PERFLAB,
        "--verbose", "--master", "local[1]", "--conf", "spark.perflab.probe=passed through", "--driver-memory", "600m",
        "help", "help");

    assertThat(result.exitCode()).as(result.output()).isZero();
    assertThat(result.output())
        .contains("(spark.master,local[1])")
        .contains("(spark.perflab.probe,passed through)")
        .contains("(spark.driver.memory,600m)")
        .contains("Main class:\norg.perflab.jobs.PerfLab");
    // "help help": the job name and its option arrive at the dispatcher, which prints the help command's usage.
    assertThat(result.stdout()).contains("Usage: perflab help");
  }

  /**
   * The driver maps the class-data archive that the build made of the runtime's classes (submit/lib/class-data-archive):
   * Spark's classes come from the archive, not from their jars. With {@code PERFLAB_CLASS_DATA=off} they come from the
   * jars, as before.
   */
  @Test
  void theDriverLoadsSparksClassesFromTheRuntimesClassDataArchiveUnlessTurnedOff(@TempDir Path elsewhere)
      throws Exception {
    Path archive = REPOSITORY.resolve("jobs/target/spark-runtime/cds/perflab.jsa");
    assertThat(archive).as("the archive that mvn package builds (see jobs/target/spark-runtime/cds/dump.log)")
        .isRegularFile();
    Path on = elsewhere.resolve("on.log");
    Path off = elsewhere.resolve("off.log");

    Scripts.Result withArchive = Scripts.run(elsewhere, Map.of(), TIMEOUT, PERFLAB, "--master", "local[1]",
        "--conf", "spark.driver.extraJavaOptions=-Xlog:class+load=info:file=" + on, "help", "help");
    Scripts.Result without = Scripts.run(elsewhere, Map.of("PERFLAB_CLASS_DATA", "off"), TIMEOUT, PERFLAB,
        "--master", "local[1]", "--conf", "spark.driver.extraJavaOptions=-Xlog:class+load=info:file=" + off,
        "help", "help");

    assertThat(withArchive.exitCode()).as(withArchive.output()).isZero();
    assertThat(without.exitCode()).as(without.output()).isZero();
    assertThat(withArchive.stdout()).isEqualTo(without.stdout()).contains("Usage: perflab help");
    String submit = "org.apache.spark.deploy.SparkSubmit source: ";
    assertThat(Files.readString(on)).contains(submit + "shared objects file");
    assertThat(Files.readString(off)).doesNotContain(submit + "shared objects file")
        .containsPattern(java.util.regex.Pattern.quote(submit) + "\\S*spark-core_");
  }

  /**
   * Executors of a standalone master on 127.0.0.1 or localhost run on this machine, beside the driver: the launcher
   * gives them the driver's class-data archive and a JIT of C1 only ({@code spark.executor.defaultJavaOptions}). The
   * executors of any other master get nothing from it, a {@code spark.executor.defaultJavaOptions} of the user's is
   * passed on as given, and {@code PERFLAB_JIT=default} keeps the JVM's JIT. ({@code spark-submit --verbose} prints the
   * properties it passes on; {@code help help} starts no SparkContext, so no master is needed.)
   */
  @Test
  void executorsOnThisMachineStartWithTheArchiveAndC1AndNoOthersDo(@TempDir Path elsewhere) throws Exception {
    String c1 = "-XX:TieredStopAtLevel=1";

    assertThat(executorOptions(elsewhere, Map.of(), "--master", "spark://127.0.0.1:7077"))
        .startsWith("\"-XX:SharedArchiveFile=").endsWith("perflab.jsa\" " + c1);
    assertThat(executorOptions(elsewhere, Map.of("PERFLAB_JIT", "default"), "--master", "spark://localhost:7077"))
        .startsWith("\"-XX:SharedArchiveFile=").doesNotContain("Tiered");
    assertThat(executorOptions(elsewhere, Map.of("PERFLAB_CLASS_DATA", "off"), "--master", "spark://localhost:7077"))
        .isEqualTo(c1);
    assertThat(executorOptions(elsewhere, Map.of(), "--master", "spark://10.0.0.9:7077")).isNull();
    assertThat(executorOptions(elsewhere, Map.of(), "--master", "spark://127.0.0.1:7077",
        "--conf", "spark.executor.defaultJavaOptions=-Xss4m")).isEqualTo("-Xss4m");
  }

  /** The executors' {@code spark.executor.defaultJavaOptions} that spark-submit received, or null. */
  private static String executorOptions(Path elsewhere, Map<String, String> environment, String... options)
      throws Exception {
    List<String> command = new ArrayList<>(List.of(PERFLAB, "--verbose"));
    command.addAll(List.of(options));
    command.addAll(List.of("help", "help"));
    Scripts.Result result = Scripts.run(elsewhere, environment, TIMEOUT, command.toArray(String[]::new));
    assertThat(result.exitCode()).as(result.output()).isZero();
    Matcher property = Pattern.compile("(?m)\\(spark\\.executor\\.defaultJavaOptions,(.*)\\)\\s*$")
        .matcher(result.output());
    return property.find() ? property.group(1) : null;
  }

  /**
   * A driver started with Java Flight Recorder runs without the archive, and says so: OpenJDK 17 with both died in the
   * ingest's first task (SIGSEGV in KlassFactory::check_shared_class_file_load_hook, exit 134). The recording is
   * written, and Spark's classes come from their jars. The driver runs {@code doctor}, whose Spark job runs tasks in
   * the driver's JVM ({@code local[2]}) as the ingest's did, for a third of the ingest's time.
   */
  @Test
  void aDriverThatRecordsWithFlightRecorderRunsWithoutTheArchiveAndSaysSo(@TempDir Path elsewhere) throws Exception {
    Path recording = elsewhere.resolve("driver.jfr");
    Path classes = elsewhere.resolve("classes.log");
    Path present = Files.writeString(elsewhere.resolve("present.txt"), "12345");

    Scripts.Result result = Scripts.run(elsewhere,
        Map.of("SPARK_SUBMIT_OPTS", "-XX:StartFlightRecording=filename=" + recording), TIMEOUT, PERFLAB,
        "--master", "local[2]", "--conf", "spark.driver.extraJavaOptions=-Xlog:class+load=info:file=" + classes,
        "doctor", "--path", present.toString());

    assertThat(result.exitCode()).as(result.output()).isZero();
    assertThat(result.stdout()).contains("master: local[2]", "tasks_ran_on_executors: [driver]", "1 file(s), 5 bytes");
    assertThat(result.stderr()).contains("perflab: class-data sharing is off for this run: its JVM options start Java"
        + " Flight Recorder or an agent");
    assertThat(recording).isNotEmptyFile();
    assertThat(Files.readString(classes)).doesNotContain("SparkSubmit source: shared objects file")
        .containsPattern("org\\.apache\\.spark\\.deploy\\.SparkSubmit source: \\S*spark-core_");
  }

  /**
   * The same when Flight Recorder is asked for where spark-submit reads it and the launcher's command line does not
   * show it: the driver's options in a {@code --properties-file}.
   */
  @Test
  void aRecordingAskedForInAPropertiesFileAlsoTurnsTheArchiveOff(@TempDir Path elsewhere) throws Exception {
    Path recording = elsewhere.resolve("driver.jfr");
    Path classes = elsewhere.resolve("classes.log");
    Path properties = Files.writeString(elsewhere.resolve("night.conf"), "spark.master local[1]\n"
        + "spark.driver.extraJavaOptions  -XX:StartFlightRecording=filename=" + recording
        + " -Xlog:class+load=info:file=" + classes + "\n");
    Path present = Files.writeString(elsewhere.resolve("present.txt"), "12345");

    Scripts.Result result = Scripts.run(elsewhere, Map.of(), TIMEOUT, PERFLAB,
        "--properties-file", properties.toString(), "doctor", "--path", present.toString());

    assertThat(result.exitCode()).as(result.output()).isZero();
    assertThat(result.stdout()).contains("master: local[1]").contains("1 file(s), 5 bytes");
    assertThat(result.stderr()).contains("perflab: class-data sharing is off for this run: its JVM options start Java"
        + " Flight Recorder or an agent");
    assertThat(recording).isNotEmptyFile();
    assertThat(Files.readString(classes)).doesNotContain("SparkSubmit source: shared objects file")
        .containsPattern("org\\.apache\\.spark\\.deploy\\.SparkSubmit source: \\S*spark-core_");
  }

  @Test
  void doctorRunsOnTheDefaultMasterAndRejectsAPathThatMatchesNothing(@TempDir Path elsewhere) throws Exception {
    Path present = Files.writeString(elsewhere.resolve("present.txt"), "12345");
    Path missing = elsewhere.resolve("missing-*.json");

    Scripts.Result good = Scripts.run(elsewhere, Map.of(), TIMEOUT, PERFLAB, "doctor", "--path", present.toString());
    Scripts.Result bad = Scripts.run(elsewhere, Map.of(), TIMEOUT, PERFLAB, "doctor", "--path", missing.toString());

    assertThat(good.exitCode()).as(good.stderr()).isZero();
    assertThat(good.stdout()).contains("master: local[*]").contains("1 file(s), 5 bytes")
        .contains("perflab_submit: " + REPOSITORY.resolve("submit/perflab").toRealPath())
        .contains("perflab_home: " + REPOSITORY.toRealPath());
    assertThat(bad.exitCode()).as(bad.output()).isEqualTo(2);
    assertThat(bad.stderr()).contains("Cannot run doctor: nothing matches --path (" + missing + ")");
  }

  @Test
  void masterDefaultsToLocalStarAndPathsMayHoldSpaces(@TempDir Path temp) throws Exception {
    // A checkout whose path has spaces: the script and the application jar copied in, the Spark runtime linked.
    Path checkout = Files.createDirectories(temp.resolve("a checkout"));
    Files.createDirectories(checkout.resolve("submit/lib"));
    Files.createDirectories(checkout.resolve("jobs/target"));
    Files.copy(REPOSITORY.resolve("submit/perflab"), checkout.resolve("submit/perflab"));
    Files.copy(REPOSITORY.resolve("submit/lib/spark-runtime.sh"), checkout.resolve("submit/lib/spark-runtime.sh"));
    Files.copy(REPOSITORY.resolve("jobs/target/perflab.jar"), checkout.resolve("jobs/target/perflab.jar"));
    Files.createSymbolicLink(
        checkout.resolve("jobs/target/spark-runtime"), REPOSITORY.resolve("jobs/target/spark-runtime"));
    Path cwd = Files.createDirectories(temp.resolve("working dir"));

    Scripts.Result result = Scripts.run(cwd, Map.of(), TIMEOUT,
        checkout.resolve("submit/perflab").toString(), "--verbose", "help");

    assertThat(result.exitCode()).as(result.output()).isZero();
    assertThat(result.output())
        .contains("(spark.master,local[*])")
        .contains("primaryResource         file:" + checkout.toRealPath().toUri().getRawPath() + "jobs/target/perflab.jar");
  }

  /**
   * A job in a session of its own interprets SQL expressions ({@code JobSession.INTERPRETED_SQL}) unless the user sets
   * code generation: an {@code ingest} of one sample whose driver gets the tests' JIT flags but not their SQL settings
   * ({@code Scripts.SMALL_DATA_SQL}) compiles almost no class. Spark logs each class it compiles at INFO ("Code
   * generated in"); the same ingest compiled 72 with code generation on ({@code --conf spark.sql.codegen.wholeStage=true
   * --conf spark.sql.codegen.factoryMode=FALLBACK}), and compiles at most one without it, in Delta's write (2026-12-04).
   */
  @Test
  void aJobAloneInterpretsSqlExpressions(@TempDir Path temp) throws Exception {
    Path archive = Files.createDirectories(temp.resolve("archive"));
    Path sample;
    try (var logs = Files.list(REPOSITORY.resolve("samples/spark-events"))) {
      sample = logs.sorted().findFirst().orElseThrow();
    }
    org.apache.commons.io.FileUtils.copyDirectory(sample.toFile(), archive.resolve(sample.getFileName()).toFile());
    Path runLogs = Files.createDirectories(temp.resolve("run-logs"));

    Scripts.Result ingest = Scripts.run(temp, Map.of("SPARK_SUBMIT_OPTS", Scripts.JIT_FOR_SHORT_JVMS,
        "PERFLAB_LOG_DIR", runLogs.toString()), TIMEOUT, PERFLAB, "--master", "local[1]", "ingest", "--input",
        archive.toString(), "--output", temp.resolve("out").toString());

    assertThat(ingest.exitCode()).as(ingest.output()).isZero();
    String log;
    try (var files = Files.list(runLogs)) {
      log = Files.readString(files.filter(f -> f.getFileName().toString().contains("ingest")).findFirst()
          .orElseThrow());
    }
    assertThat(log).contains("Running Spark version");
    assertThat(log.lines().filter(line -> line.contains("CodeGenerator: Code generated in")).count())
        .as("classes compiled by the driver and its executor").isLessThanOrEqualTo(2);
  }
}
