package org.perflab.jobs;

import org.perflab.jobs.cli.BuildInfo;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The dispatcher in this JVM: --version, --help, usage errors, --verbose, and a failing preflight. */
class PerfLabTest {
  /** What one dispatcher run returned and printed. */
  record Run(int exitCode, String stdout, String stderr) {
    String firstErrorLine() {
      return stderr.lines().findFirst().orElse("");
    }
  }

  static Run perflab(String... args) {
    CommandLine commandLine = PerfLab.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));
    int code = commandLine.execute(args);
    return new Run(code, out.toString(), err.toString());
  }

  @Test
  void versionNamesPerfLabItsCommitSparkAndDeltaForTheDispatcherAndEveryJob() {
    BuildInfo build = BuildInfo.current();
    Run top = perflab("--version");

    assertThat(top.exitCode()).isZero();
    assertThat(top.stdout().lines()).containsExactly(
        "PerfLab " + build.version() + " (git commit " + build.gitCommit() + ")",
        "Spark " + build.sparkVersion(), "Delta Lake " + build.deltaVersion());
    for (String job : PerfLab.commandLine().getSubcommands().keySet()) {
      if (!job.equals("help")) {
        assertThat(perflab(job, "--version")).as(job).isEqualTo(top);
      }
    }
  }

  /** spark-submit's --master reaches the driver as spark.master: a local master Spark cannot run is exit 2. */
  @Test
  void aLocalMasterSparkCannotRunExitsTwoBeforeSparkStarts(@TempDir Path temp) {
    for (String master : new String[] {"local[0]", "local[-1]", "local[x]", "local[2,0]"}) {
      System.setProperty("spark.master", master);
      try {
        Run run = perflab("report", "--input", temp.toString());

        assertThat(run.exitCode()).as(master).isEqualTo(2);
        assertThat(run.firstErrorLine()).isEqualTo("Cannot start Spark for report: --master " + master
            + " is not a local master Spark can run (local, local[N] or local[N,F] with N and F >= 1, local[*])");
      } finally {
        System.clearProperty("spark.master");
      }
    }
    for (String master : new String[] {"local", "local[2]", "local[*]", "local[2,3]", "local-cluster[2,1,1024]",
        "yarn"}) {
      assertThat(new org.perflab.jobs.cli.Preflight("run report", new org.apache.hadoop.conf.Configuration())
          .master(master)).as(master).isNotNull();
    }
  }

  @Test
  void aWrongOptionPrintsOneHouseFormLineThenTheUsageAndExitsTwo() {
    Run run = perflab("model", "--input", "in", "--output", "out", "--bogus");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.firstErrorLine()).isEqualTo("Cannot run model: unknown option: '--bogus' (see the usage below)");
    assertThat(run.stderr()).contains("Usage: perflab model").doesNotContain("\tat ");
    assertThat(perflab("model", "--input").firstErrorLine())
        .startsWith("Cannot run model: missing required parameter for option '--input'");
  }

  @Test
  void helpPrintsTheUsageAlone() {
    Run run = perflab("sweep", "--help");

    assertThat(run.exitCode()).isZero();
    assertThat(run.stdout()).startsWith("Usage: perflab sweep").contains("--verbose");
    assertThat(run.stderr()).isEmpty();
  }

  @Test
  void modelWithoutIngestTablesExitsTwoWithOneLine(@TempDir Path dir) {
    String missing = dir.resolve("nonexistent").toString();

    Run run = perflab("model", "--input", missing, "--output", dir.resolve("out").toString());

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.stderr()).isEqualTo("Cannot model: no ingest tables under " + missing
        + " (run perflab ingest --output " + missing + " first)\n");
  }

  @Test
  void everyJobsPathOptionsMustHaveAFileSystemBeforeTheJobRuns() {
    Run ingest = perflab("ingest", "--input", "/local/logs", "s3a://bucket/logs", "--output", "/tmp/out");
    Run sweep = perflab("sweep", "--model", "gs://bucket/m.json", "--executors", "1", "--cores", "1", "--output",
        "/tmp/out");

    assertThat(ingest.exitCode()).isEqualTo(2);
    assertThat(ingest.stderr()).isEqualTo("Cannot ingest: no Hadoop FileSystem for scheme s3a on the classpath"
        + " (--input s3a://bucket/logs; add it with --packages org.apache.hadoop:hadoop-aws:"
        + org.apache.hadoop.util.VersionInfo.getVersion() + " before the job name)\n");
    assertThat(sweep.exitCode()).isEqualTo(2);
    assertThat(sweep.firstErrorLine()).startsWith("Cannot sweep: no Hadoop FileSystem for scheme gs on the classpath");
  }

  @Test
  void verboseIsAcceptedBeforeAndAfterTheJobName() {
    String[] job = {"model", "--input", "a", "--output", "b"};

    assertThat(PerfLab.verbose(PerfLab.commandLine().parseArgs(job))).isFalse();
    assertThat(PerfLab.verbose(PerfLab.commandLine().parseArgs(prepend("--verbose", job)))).isTrue();
    assertThat(PerfLab.verbose(PerfLab.commandLine().parseArgs("model", "--verbose", "--input", "a", "--output",
        "b"))).isTrue();
  }

  @Test
  void verbosePrintsTheStackTraceOfABadInput(@TempDir Path dir) {
    String missing = dir.resolve("nonexistent").toString();

    Run run = perflab("model", "--verbose", "--input", missing, "--output", dir.resolve("out").toString());

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.firstErrorLine()).startsWith("Cannot model: no ingest tables under ");
    assertThat(run.stderr()).contains("\tat org.perflab.jobs.cli.Preflight");
  }

  private static String[] prepend(String first, String... rest) {
    String[] all = new String[rest.length + 1];
    all[0] = first;
    System.arraycopy(rest, 0, all, 1, rest.length);
    return all;
  }
}
