package org.perflab.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.commons.io.FileUtils;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perflab.spark.ingest.SparkTestSession;
import org.perflab.spark.storage.OutputLock;
import org.perflab.spark.storage.TableStore;
import org.perflab.spark.storage.TestPause;
import org.perflab.table.Table;

/**
 * A real {@code submit/perflab} child process killed with SIGKILL during parsing, between two table commits and
 * during maintenance; and two ingests into one root at once. After a rerun (in this JVM: what it recovers from is
 * the dead process's files), every table equals one clean run: no duplicate row, no missing log, no unreadable table.
 */
class IngestKillIT {
  private static final Duration TIMEOUT = Duration.ofMinutes(8);
  private static final Path REPOSITORY = Scripts.repository();
  private static final String PERFLAB = REPOSITORY.resolve("submit/perflab").toString();

  @TempDir static Path temp;
  private static Path archive;
  private static Path clean;
  private static SparkSession spark;

  @BeforeAll
  static void cleanRun() throws Exception {
    archive = Files.createDirectories(temp.resolve("archive"));
    FileUtils.copyDirectory(REPOSITORY.resolve("samples/spark-events").toFile(), archive.toFile());
    clean = temp.resolve("clean");
    Scripts.Result result = ingest(clean, Map.of("PERFLAB_LOG_DIR", temp.resolve("logs").toString()));
    assertThat(result.exitCode()).as(result.output()).isZero();
    assertSummaryAndQuietConsole(result);
    spark = SparkTestSession.get();
  }

  /**
   * The summary names the statuses, rows per table, phases, output root and log file; Spark's own INFO and WARN
   * lines went to that file, not to the console.
   */
  private static void assertSummaryAndQuietConsole(Scripts.Result result) throws IOException {
    assertThat(result.stdout()).contains("ingest: 10 logs found, 10 parsed").contains("status {OK=10}")
        .contains("rows written: applications 10").contains("time: discover")
        .contains("tables: file:" + clean).contains("(Delta Lake)");
    String logLine = result.stdout().lines().filter(line -> line.startsWith("  log: ")).findFirst().orElseThrow();
    Path logFile = Path.of(logLine.substring("  log: ".length()).strip());
    assertThat(Files.readString(logFile)).contains("INFO SparkContext: Running Spark version");
    assertThat(result.stderr().lines().filter(line -> line.matches(
        ".* (INFO|WARN) (SparkContext|DAGScheduler|BlockManager|Executor|Utils|NativeCodeLoader|DeltaLog|Snapshot"
            + "|CodeGenerator|SparkStringUtils|SparkSession):.*")))
        .as("Spark's lines on the console").isEmpty();
  }

  @AfterAll
  static void stopSpark() {
    if (spark != null) {
      spark.stop();
    }
  }

  @Test
  void killedWhileParsingThenRerunEqualsOneCleanRun() throws Exception {
    Path out = temp.resolve("killed-parse");
    killAt(TestPause.Point.AFTER_PARSE, "ingest", out);

    Scripts.Result rerun = rerunIngest(out);

    assertThat(rerun.exitCode()).as(rerun.output()).isZero();
    assertTablesEqualCleanRun(out);
  }

  @Test
  void killedBetweenTwoTableCommitsThenRerunEqualsOneCleanRun() throws Exception {
    Path out = temp.resolve("killed-commits");
    killAt(TestPause.Point.BETWEEN_COMMITS, "ingest", out);
    assertThat(out.resolve("_perflab_ingest/pending")).isNotEmptyDirectory();

    Scripts.Result rerun = rerunIngest(out);

    assertThat(rerun.exitCode()).as(rerun.output()).isZero();
    assertThat(rerun.stdout()).contains("parsed");
    assertTablesEqualCleanRun(out);
    assertThat(out.resolve("_perflab_ingest/pending")).isEmptyDirectory();
    assertThat(out.resolve(OutputLock.FILE_NAME)).doesNotExist();
  }

  @Test
  void killedDuringMaintenanceThenRerunEqualsOneCleanRun() throws Exception {
    // A root as one clean ingest leaves it: a copy of the clean run's (Delta tables hold paths relative to the table).
    Path out = temp.resolve("killed-maintenance");
    FileUtils.copyDirectory(clean.toFile(), out.toFile());
    killAt(TestPause.Point.DURING_MAINTENANCE, "maintain", out);

    Scripts.Result rerun = Scripts.inProcess("maintain", "--output", out.toString());

    assertThat(rerun.exitCode()).as(rerun.output()).isZero();
    assertThat(rerun.stdout()).contains("maintain: tasks files");
    assertTablesEqualCleanRun(out);
  }

  @Test
  void twoIngestsAtOnceLeaveNoDuplicate() throws Exception {
    Path out = temp.resolve("concurrent");
    Process one = start(out, Map.of(), temp.resolve("one.err"));
    Process two = start(out, Map.of(), temp.resolve("two.err"));
    int first = waitFor(one);
    int second = waitFor(two);
    String errors = Files.readString(temp.resolve("one.err")) + Files.readString(temp.resolve("two.err"));

    // Either both commit, one after the other, or one stops at once with exit 1, naming the holder of the root.
    assertThat(List.of(first, second)).as(errors).contains(0).allMatch(code -> code == 0 || code == 1);
    if (first == 1 || second == 1) {
      assertThat(errors).contains("another PerfLab run holds the output root").contains("rerun");
      Scripts.Result rerun = rerunIngest(out);
      assertThat(rerun.exitCode()).as(rerun.output()).isZero();
    }
    assertTablesEqualCleanRun(out);
  }

  /** Runs {@code job} with the pause hook at {@code point}, waits until it pauses there, and SIGKILLs it. */
  private static void killAt(TestPause.Point point, String job, Path out) throws Exception {
    Path err = temp.resolve(point + ".err");
    Map<String, String> env = Map.of(TestPause.VARIABLE, point.name());
    Process process = "ingest".equals(job) ? start(out, env, err) : startMaintain(out, env, err);
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    while (!Files.readString(err, StandardCharsets.UTF_8).contains("PERFLAB_TEST_PAUSED " + point)) {
      assertThat(process.isAlive()).as("%s ended before pausing at %s: %s", job, point, Files.readString(err))
          .isTrue();
      assertThat(System.nanoTime()).as("pause at " + point).isLessThan(deadline);
      Thread.sleep(200);
    }
    List<ProcessHandle> killed = process.descendants().toList();
    killed.forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    // The driver JVM too (its pid is the lock's holder): a rerun that finds the holder alive is refused, rightly.
    for (ProcessHandle descendant : killed) {
      descendant.onExit().get(30, TimeUnit.SECONDS);
    }
  }

  /**
   * The run after a kill, in this JVM's session: what it recovers is the killed process's files, not anything of a
   * process of its own (the clean run and the killed ones are processes; a rerun as one more costs a driver JVM).
   */
  private static Scripts.Result rerunIngest(Path out) {
    return Scripts.inProcess("ingest", "--incremental", "--input", archive.toString(), "--output", out.toString());
  }

  private static Scripts.Result ingest(Path out, Map<String, String> env) throws Exception {
    return Scripts.run(temp, env, TIMEOUT, PERFLAB, "--master", "local[2]", "ingest", "--incremental",
        "--input", archive.toString(), "--output", out.toString());
  }

  private static Process start(Path out, Map<String, String> env, Path err) throws IOException {
    return launch(env, err, PERFLAB, "--master", "local[2]", "ingest", "--incremental", "--input",
        archive.toString(), "--output", out.toString());
  }

  private static Process startMaintain(Path out, Map<String, String> env, Path err) throws IOException {
    return launch(env, err, PERFLAB, "--master", "local[2]", "maintain", "--output", out.toString());
  }

  private static Process launch(Map<String, String> env, Path err, String... command) throws IOException {
    ProcessBuilder builder = new ProcessBuilder(new ArrayList<>(List.of(command))).directory(temp.toFile())
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(err.toFile());
    builder.environment().remove("SPARK_HOME");
    builder.environment().put("PERFLAB_LOG_DIR", temp.resolve("logs").toString());
    builder.environment().putAll(env);
    Scripts.shortLivedDrivers(builder.environment()); // as the runs through Scripts.run get
    return builder.start();
  }

  private static int waitFor(Process process) throws InterruptedException {
    if (!process.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
      throw new AssertionError("ingest did not finish within " + TIMEOUT);
    }
    return process.exitValue();
  }

  /** Every table under {@code out} holds exactly the clean run's rows, as multisets, less the per-run columns. */
  private static void assertTablesEqualCleanRun(Path out) {
    TableStore expected = new TableStore(spark, clean.toString());
    TableStore actual = new TableStore(spark, out.toString());
    for (Table table : Table.values()) {
      SameRows.assertSame(table.tableName(), expected.read(table).orElseThrow(), actual.read(table).orElseThrow());
    }
    try (Stream<Path> left = Files.list(out.resolve("_perflab_ingest/pending"))) {
      assertThat(left).as("unfinished runs").isEmpty();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }
}
