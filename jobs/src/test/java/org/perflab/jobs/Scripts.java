package org.perflab.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs the repository's {@code submit/} scripts as real processes, for the integration tests; and {@code perflab}
 * commands in the test JVM ({@link #inProcess}) where a process of their own adds nothing to what a test checks.
 */
final class Scripts {
  private Scripts() {}

  /** What a finished script run left: its exit code and its two output streams. */
  record Result(int exitCode, String stdout, String stderr) {
    String output() {
      return stdout + stderr;
    }

    /** The last non-empty line of stdout, where the scripts print what callers capture. */
    String lastLine() {
      String[] lines = stdout.strip().split("\n");
      return lines[lines.length - 1].strip();
    }
  }

  /**
   * {@code perflab ARGS} run in this JVM ({@link PerfLab#run}, in the tests' shared session) rather than through
   * {@code submit/perflab}, with what it printed: for checks of a job's behaviour that do not need a process of its
   * own (a spark-submit costs a driver JVM, 5-15 s on the test machine). Not thread-safe: it swaps
   * {@code System.out} and {@code System.err} while the job runs.
   */
  static Result inProcess(String... args) {
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    try {
      System.setOut(new PrintStream(stdout, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
      int code = PerfLab.run(args);
      return new Result(code, stdout.toString(StandardCharsets.UTF_8), stderr.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
  }

  /** The repository root: the failsafe working directory is the {@code jobs} module. */
  static Path repository() {
    Path repository = Path.of(System.getProperty("user.dir")).toAbsolutePath().getParent();
    assertThat(repository.resolve("submit/perflab")).as("submit/perflab in the repository").isExecutable();
    return repository;
  }

  /**
   * JVM flags for drivers and executors that live a minute or less on a few small logs (docs/operations.md, "Small
   * archives"): C1 compilation only, since C2 compiles code these JVMs end before they reuse, and the Parallel
   * collector.
   */
  static final String JIT_FOR_SHORT_JVMS = "-XX:TieredStopAtLevel=1 -XX:+UseParallelGC";

  /**
   * Spark SQL settings for the tests' drivers, as system properties that SparkConf reads: interpreted expressions and
   * no whole-stage code generation. The tests' tables hold a few hundred rows, so compiling generated Java for every
   * query costs more CPU than it saves; on 2 cores it was a quarter of the tests' CPU time. docs/operations.md ("Small
   * archives") gives the same advice to users. Behaviour is the same: every Spark SQL expression has an interpreted
   * implementation.
   */
  static final String SMALL_DATA_SQL = org.perflab.spark.ingest.SparkTestSession.SMALL_DATA_SQL.entrySet().stream()
      .map(setting -> "-D" + setting.getKey() + "=" + setting.getValue())
      .collect(java.util.stream.Collectors.joining(" "));

  /**
   * Gives the drivers that {@code submit/perflab} starts (spark-submit's JVM, {@code SPARK_SUBMIT_OPTS})
   * {@link #JIT_FOR_SHORT_JVMS} and {@link #SMALL_DATA_SQL}, unless {@code environment} sets {@code SPARK_SUBMIT_OPTS}
   * already.
   */
  static void shortLivedDrivers(Map<String, String> environment) {
    environment.putIfAbsent("SPARK_SUBMIT_OPTS", JIT_FOR_SHORT_JVMS + " " + SMALL_DATA_SQL);
  }

  /**
   * Runs {@code command} in {@code workingDirectory} with {@code environment} added to this JVM's environment, less
   * {@code SPARK_HOME} (the scripts then use the runtime the build assembled), and waits up to {@code timeout}.
   * Unless {@code environment} names one, the runs' log files ({@code PERFLAB_LOG_DIR}) go to a temporary directory,
   * deleted afterwards. Drivers get {@link #shortLivedDrivers} settings unless {@code environment} sets
   * {@code SPARK_SUBMIT_OPTS}.
   */
  static Result run(Path workingDirectory, Map<String, String> environment, Duration timeout, String... command)
      throws IOException, InterruptedException {
    Path out = Files.createTempFile("perflab-script", ".out");
    Path err = Files.createTempFile("perflab-script", ".err");
    Path logs = Files.createTempDirectory("perflab-script-logs");
    try {
      ProcessBuilder builder = new ProcessBuilder(new ArrayList<>(List.of(command)))
          .directory(workingDirectory.toFile())
          .redirectOutput(out.toFile())
          .redirectError(err.toFile());
      builder.environment().remove("SPARK_HOME");
      builder.environment().put("PERFLAB_LOG_DIR", logs.toString());
      builder.environment().putAll(environment);
      shortLivedDrivers(builder.environment());
      Process process = builder.start();
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly().waitFor();
        throw new AssertionError("Script did not finish within " + timeout + ": " + String.join(" ", command)
            + "\n" + Files.readString(err, StandardCharsets.UTF_8));
      }
      return new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
          Files.readString(err, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
      deleteTree(logs);
    }
  }

  /** Deletes {@code dir} and everything under it. */
  static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (var paths = Files.walk(dir)) {
      for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}
