package org.perflab.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perflab.jobs.cli.JobSession;
import org.perflab.jobs.nightly.NightOptions;
import org.perflab.jobs.nightly.Pipeline;
import org.perflab.spark.ingest.SparkTestSession;
import org.perflab.spark.nightly.NightlyRuns;
import picocli.CommandLine;

/** {@code perflab nightly} in the tests' session: its own bad options, and a failed step's isolation. */
class NightlyJobTest {
  private static final Path SAMPLES = Scripts.repository().resolve("samples/spark-events");

  @TempDir
  Path temp;

  @Test
  void everyStepIsARegisteredJobThatRunsInASession() {
    CommandLine perflab = PerfLab.commandLine();
    for (String job : Pipeline.jobs()) {
      assertThat(perflab.getSubcommands()).as(job).containsKey(job);
      assertThat(perflab.getSubcommands().get(job).getCommandSpec().userObject())
          .as(job).isInstanceOf(org.perflab.jobs.cli.SessionCommand.class);
    }
  }

  /**
   * Over an archive of at most 64 MiB (the ten samples), the night turns adaptive execution off and shuffles in two
   * partitions per core; over a larger one (a 65 MiB file), adaptive execution stays as the session has it.
   */
  @Test
  void aSmallArchivesNightRunsWithoutAdaptiveExecution() throws Exception {
    SparkSession spark = SparkTestSession.get();
    String partitions = Integer.toString(2 * spark.sparkContext().defaultParallelism());
    Map<String, String> small = NightlyJob.nightSettings(spark, new NightOptions(
        List.of(SAMPLES.toString()), temp.resolve("out").toString(), false, Set.of()));
    assertThat(small).containsEntry("spark.sql.adaptive.enabled", "false")
        .containsEntry("spark.sql.shuffle.partitions", partitions)
        .containsAllEntriesOf(JobSession.INTERPRETED_SQL);

    Path large = Files.createDirectories(temp.resolve("large"));
    try (RandomAccessFile file = new RandomAccessFile(large.resolve("log").toFile(), "rw")) {
      file.setLength(NightlyJob.SMALL_ARCHIVE_BYTES + 1);
    }
    Map<String, String> notSmall = NightlyJob.nightSettings(spark,
        new NightOptions(List.of(large.toString()), temp.resolve("out").toString(), false,
            Set.of()));
    assertThat(notSmall).doesNotContainKey("spark.sql.adaptive.enabled")
        .containsAllEntriesOf(JobSession.INTERPRETED_SQL);
  }

  /**
   * A night that runs maintain turns Delta's auto compaction off (maintain bounds the files instead); a night without
   * it leaves auto compaction as the session has it.
   */
  @Test
  void aNightThatMaintainsTurnsAutoCompactionOff() {
    SparkSession spark = SparkTestSession.get();
    String out = temp.resolve("out").toString();
    Map<String, String> whole = NightlyJob.nightSettings(spark,
        new NightOptions(List.of(SAMPLES.toString()), out, false, Set.of()));
    Map<String, String> withoutMaintain = NightlyJob.nightSettings(spark,
        new NightOptions(List.of(SAMPLES.toString()), out, false, Set.of("features", "diagnose")));

    assertThat(whole).containsEntry("spark.databricks.delta.autoCompact.enabled", "false");
    assertThat(withoutMaintain).doesNotContainKey("spark.databricks.delta.autoCompact.enabled");
  }

  @Test
  void theNightsOwnBadOptionsExitTwoBeforeAnyStep() {
    Path out = temp.resolve("out");
    assertThat(PerfLab.run("nightly", "--output", out.toString())).isEqualTo(2);
    assertThat(PerfLab.run("nightly", "--archive", SAMPLES.toString())).isEqualTo(2);
    assertThat(PerfLab.run("nightly", "--archive", SAMPLES.toString(), "--output", out.toString(), "--jobs",
        "ingest,doctor")).isEqualTo(2);
    assertThat(PerfLab.run("nightly", "--archive", SAMPLES.toString(), "--output", out.toString(),
        "--concurrent-steps", "0")).isEqualTo(2);
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream stderr = System.err;
    try {
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      assertThat(PerfLab.run("nightly", "--archive", SAMPLES.toString(), "--output", out.toString(),
          "--concurrent-steps", "2", "--separate")).isEqualTo(2);
    } finally {
      System.setErr(stderr);
    }
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("Cannot use --concurrent-steps with --separate: ");
    assertThat(out).doesNotExist();
    // An archive that does not exist: before 2026-12-01 every step ran (ingest exit 2, the others on no tables) and
    // the night exited 1.
    String missing = temp.resolve("no-such-archive").toString();
    err.reset();
    try {
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      assertThat(PerfLab.run("nightly", "--archive", SAMPLES.toString(), "--archive", missing, "--output",
          out.toString())).isEqualTo(2);
    } finally {
      System.setErr(stderr);
    }
    assertThat(err.toString(StandardCharsets.UTF_8))
        .contains("Cannot run the nightly pipeline: nothing matches --archive (" + missing + ")");
    assertThat(out).doesNotExist();
  }

  /**
   * features cannot write (a plain file stands where its table goes): it fails, diagnose (which reads it) is skipped,
   * report (which does not) runs, the night exits 1, the session is left usable, with no job group and nothing
   * cached, and nightly_runs has one row per step, with the rows ingest wrote. Every Spark job of the night ran
   * under its step's job group.
   */
  @Test
  void aFailedStepSkipsItsDependentsOnlyAndLeavesTheSessionUsable() throws Exception {
    SparkSession spark = SparkTestSession.get();
    Path out = temp.resolve("out");
    Files.createDirectories(out);
    Files.writeString(out.resolve("app_features"), "not a table");
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream stderr = System.err;
    java.util.Set<String> groups = java.util.concurrent.ConcurrentHashMap.newKeySet();
    org.apache.spark.scheduler.SparkListener listener = new org.apache.spark.scheduler.SparkListener() {
      @Override
      public void onJobStart(org.apache.spark.scheduler.SparkListenerJobStart job) {
        groups.add(String.valueOf(job.properties().getProperty("spark.jobGroup.id")));
      }
    };
    spark.sparkContext().addSparkListener(listener);
    int code;
    try {
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      code = PerfLab.run("nightly", "--archive", SAMPLES.resolve("local-1795305472854").toString(), "--output",
          out.toString(), "--jobs", "ingest,features,diagnose,report");
      spark.sparkContext().listenerBus().waitUntilEmpty();
    } finally {
      System.setErr(stderr);
      spark.sparkContext().removeSparkListener(listener);
    }
    String progress = err.toString(StandardCharsets.UTF_8);

    assertThat(code).as(progress).isEqualTo(1);
    assertThat(progress).contains("step 1 of 4: ingest ended: exit 0")
        .containsPattern("step 2 of 4: features ended: exit 1 after \\d+s; Cannot run features: ")
        .contains("step 3 of 4: diagnose skipped: it reads what features writes, and features failed")
        .contains("step 4 of 4: report ended: exit 0");
    assertThat(SparkSession.getActiveSession().get()).isSameAs(spark);
    assertThat(spark.sparkContext().getLocalProperty("spark.jobGroup.id")).isNull();
    assertThat(spark.sparkContext().getPersistentRDDs().isEmpty()).isTrue();
    assertThat(spark.range(3).count()).isEqualTo(3);
    assertThat(out.resolve("_perflab_nightly_lock")).doesNotExist();
    List<Row> runs = spark.read().format("delta").load(out.resolve(NightlyRuns.TABLE).toString())
        .orderBy("started_at").collectAsList();
    assertThat(runs).extracting(r -> r.getAs("step")).containsExactly("ingest", "features", "diagnose", "report");
    assertThat(runs).extracting(r -> r.getAs("exit_code")).containsExactly(0, 1, null, 0);
    assertThat(runs.get(2).<String>getAs("skipped_reason")).isEqualTo("it reads what features writes, and features"
        + " failed");
    assertThat(runs.get(0).getJavaMap(runs.get(0).fieldIndex("rows_written"))).containsEntry("applications", 1L);
    assertThat(runs.stream().map(r -> r.<String>getAs("run_id")).distinct()).hasSize(1);
    // The report's overview lists the night's steps before its own: exit codes, and the reason a step was skipped.
    String overview = Files.readString(out.resolve("report/index.html"), StandardCharsets.UTF_8);
    String steps = overview.substring(overview.indexOf("<table id=\"nightly-steps\">"));
    steps = steps.substring(0, steps.indexOf("</table>"));
    assertThat(steps).contains("<tr><td class=\"text\">ingest</td><td class=\"num\">0</td>")
        .containsPattern("<tr><td class=\"text\">features</td><td class=\"num\">1</td><td class=\"num\">\\d+</td>"
            + "<td class=\"text\">Cannot run features: ")
        .containsPattern("<tr><td class=\"text\">diagnose</td><td class=\"num\">skipped</td><td class=\"num\">\\d+</td>"
            + "<td class=\"text\">it reads what features writes, and features failed</td>")
        .doesNotContain("<td class=\"text\">report</td>");
    assertThat(overview).contains("Night " + runs.get(0).<String>getAs("run_id") + " (nightly_runs)");
    // Every Spark job of the night ran under its step's group, set once by the step runner (no step sets its own),
    // or, for the night's own records, perflab-nightly.
    assertThat(groups).contains("perflab-nightly-ingest", "perflab-nightly-report")
        .allMatch(group -> group.equals("perflab-nightly") || group.startsWith("perflab-nightly-"), "a night's group");
  }

  /**
   * nightly_runs cannot be written (a plain file stands where the table goes; on HDFS, a lost DataNode): each step's
   * row only warns, every step still runs, and the night exits 0. Delta and Hadoop throw checked exceptions there
   * (AnalysisException, IOException) that Java does not see declared.
   */
  @Test
  void aNightlyRunsTableThatCannotBeWrittenOnlyWarns() throws Exception {
    SparkTestSession.get();
    Path out = temp.resolve("unrecorded");
    Files.createDirectories(out);
    Files.writeString(out.resolve(NightlyRuns.TABLE), "not a table");
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream stderr = System.err;
    int code;
    try {
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      code = PerfLab.run("nightly", "--archive", SAMPLES.resolve("local-1795305472854").toString(), "--output",
          out.toString(), "--jobs", "ingest,features");
    } finally {
      System.setErr(stderr);
    }
    String progress = err.toString(StandardCharsets.UTF_8);

    assertThat(code).as(progress).isZero();
    assertThat(progress).contains("step 1 of 2: ingest ended: exit 0").contains("step 2 of 2: features ended: exit 0")
        .contains("nightly: warning: cannot append ingest's row to nightly_runs: ")
        .contains("nightly: warning: cannot append features's row to nightly_runs: ");
    assertThat(out.resolve("app_features").resolve("_delta_log")).isDirectory();
  }
}
