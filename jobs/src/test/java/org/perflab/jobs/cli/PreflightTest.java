package org.perflab.jobs.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.VersionInfo;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perflab.errors.BadInputException;
import org.perflab.table.Table;

/** Preflight checks against real directories and the Hadoop FileSystems on this classpath. */
class PreflightTest {
  private final Preflight model = new Preflight("model", new Configuration());

  @Test
  void objectStoreSchemesWithoutAConnectorNameThePackagesCoordinate() {
    String hadoop = VersionInfo.getVersion();

    assertThatThrownBy(() -> new Preflight("ingest", new Configuration()).scheme("--input", "s3a://bucket/logs"))
        .isInstanceOf(BadInputException.class)
        .hasMessage("Cannot ingest: no Hadoop FileSystem for scheme s3a on the classpath (--input s3a://bucket/logs;"
            + " add it with --packages org.apache.hadoop:hadoop-aws:" + hadoop + " before the job name)");
    assertThatThrownBy(() -> model.scheme("--input", "abfss://c@acct.dfs.core.windows.net/t"))
        .hasMessageContaining("scheme abfss")
        .hasMessageContaining("--packages org.apache.hadoop:hadoop-azure:" + hadoop);
    assertThatThrownBy(() -> model.scheme("--output", "gs://bucket/out"))
        .hasMessageContaining("scheme gs")
        .hasMessageContaining("--packages com.google.cloud.bigdataoss:gcs-connector:hadoop3-");
    assertThatThrownBy(() -> model.scheme("--input", "s3://bucket/logs"))
        .hasMessageContaining("write s3a:// and add it with --packages org.apache.hadoop:hadoop-aws:" + hadoop);
    assertThatThrownBy(() -> model.scheme("--output", "nosuchfs://x/y"))
        .hasMessageContaining("scheme nosuchfs").hasMessageContaining("--packages or --jars");
    assertThatCode(() -> model.scheme("--input", "/local/path").scheme("--input", "file:///x")
        .scheme("--input", "hdfs://namenode:8020/x")).doesNotThrowAnyException();
  }

  @Test
  void ingestTablesExistAsDeltaTablesOrAsDirectoriesOfTheOlderLayout(@TempDir Path root) throws Exception {
    Files.createDirectories(root.resolve("applications/_delta_log"));
    Files.createDirectories(root.resolve("tasks"));

    assertThatCode(() -> model.ingestTables("--input", root.toString(), Table.APPLICATIONS, Table.TASKS))
        .doesNotThrowAnyException();
    assertThatThrownBy(() -> model.ingestTables("--input", root.toString(), Table.APPLICATIONS, Table.STAGES,
        Table.TASKS))
        .isInstanceOf(BadInputException.class)
        .hasMessage("Cannot model: no ingest table stages under " + root + " (found applications, tasks; run perflab"
            + " ingest --output " + root + " first)");
    assertThatThrownBy(() -> model.ingestTables("--input", "/nonexistent", Table.APPLICATIONS))
        .hasMessage("Cannot model: no ingest tables under /nonexistent (run perflab ingest --output /nonexistent"
            + " first)");
  }

  @Test
  void anOutputRootMustBeAWritableDirectoryOrCreatable(@TempDir Path dir) throws Exception {
    Path file = Files.writeString(dir.resolve("file"), "x");

    assertThatThrownBy(() -> model.outputRoot("--output", file.toString()))
        .isInstanceOf(BadInputException.class)
        .hasMessage("Cannot model: the output root is a regular file, not a directory (--output " + file + ")");
    assertThatThrownBy(() -> model.outputRoot("--output", file.resolve("out/deeper").toString()))
        .hasMessage("Cannot model: --output cannot be created under a regular file (" + file.resolve("out/deeper")
            + "; " + file + " is a file)");
    assertThatCode(() -> model.outputRoot("--output", dir.toString())
        .outputRoot("--output", dir.resolve("new/out").toString())).doesNotThrowAnyException();
    assertThat(dir.resolve("new")).as("a check creates nothing").doesNotExist();
  }

  @Test
  void anOutputRootInAReadOnlyDirectoryIsRejected(@TempDir Path dir) throws Exception {
    Path readOnly = Files.createDirectory(dir.resolve("ro"));
    Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("r-xr-xr-x"));
    try {
      assumeFalse(Files.isWritable(readOnly), "this user writes anywhere (root)");
      assertThatThrownBy(() -> model.outputRoot("--output", readOnly.toString()))
          .hasMessage("Cannot model: the output root is not writable (--output " + readOnly + ")");
      assertThatThrownBy(() -> model.outputRoot("--output", readOnly.resolve("out").toString()))
          .hasMessageContaining("the directory it goes in is not writable");
    } finally {
      Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
  }

  @Test
  void anOutputFileMustNotBeADirectory(@TempDir Path dir) {
    Preflight simulate = new Preflight("simulate", new Configuration());

    assertThatThrownBy(() -> simulate.outputFile("--output", dir.toString()))
        .isInstanceOf(BadInputException.class)
        .hasMessageStartingWith("Cannot simulate: --output is a directory, not a file (" + dir + "; give the file");
    assertThatCode(() -> simulate.outputFile("--output", dir.resolve("a/b/result.json").toString()))
        .doesNotThrowAnyException();
  }

  @Test
  void findsTheOutputRootInsideAnInputDirectoryOrGlob(@TempDir Path dir) {
    String archive = dir.resolve("archive").toString();
    String inside = dir.resolve("archive/perflab-output").toString();

    assertThat(model.outputRootInsideInputs(List.of(archive), inside)).get()
        .hasToString("file:" + inside);
    assertThat(model.outputRootInsideInputs(List.of("/elsewhere", archive + "/*.zstd"), inside)).isPresent();
    assertThat(model.outputRootInsideInputs(List.of(archive), archive)).as("the same directory").isPresent();
    assertThat(model.outputRootInsideInputs(List.of(archive), dir.resolve("archive-out").toString())).isEmpty();
    assertThat(model.outputRootInsideInputs(List.of("hdfs://nn:8020" + archive), inside)).isEmpty();
    assertThat(Preflight.within(new org.apache.hadoop.fs.Path("file:" + inside + "/tasks/part-0.parquet"),
        new org.apache.hadoop.fs.Path("file:" + inside))).isTrue();
  }

  @Test
  void theEventLogDirectoryIsCreatedWhenEventLoggingIsOn(@TempDir Path dir) throws Exception {
    Preflight workload = new Preflight("run workload", new Configuration());
    Path events = dir.resolve("events/nested");
    Path file = Files.writeString(dir.resolve("file"), "x");

    workload.eventLogDirectory(new SparkConf(false).set("spark.eventLog.dir", events.toString()));
    assertThat(events).as("logging off: nothing to do").doesNotExist();
    workload.eventLogDirectory(new SparkConf(false).set("spark.eventLog.enabled", "true")
        .set("spark.eventLog.dir", events.toUri().toString()));
    assertThat(events).isDirectory();
    assertThatThrownBy(() -> workload.eventLogDirectory(new SparkConf(false).set("spark.eventLog.enabled", "true")
        .set("spark.eventLog.dir", file.resolve("events").toString())))
        .isInstanceOf(BadInputException.class)
        .hasMessage("Cannot run workload: the event-log directory does not exist and cannot be created"
            + " (spark.eventLog.dir=" + file.resolve("events") + "; create it, e.g. mkdir -p " + file.resolve("events")
            + ", or set --conf spark.eventLog.dir)");
  }

  @Test
  void optionsThatNeedTaskRetriesAreRejectedOnMastersThatNeverRetry() {
    Preflight workload = new Preflight("run workload", new Configuration());

    assertThatThrownBy(() -> workload.retriesTasks("--fail-tasks", 1, new SparkConf(false).setMaster("local[2]")))
        .isInstanceOf(BadInputException.class)
        .hasMessage("Cannot run workload: --fail-tasks 1 needs task retries, and master local[2] never retries a task"
            + " (use --master 'local[2,2]' or a cluster)");
    assertThatThrownBy(() -> workload.retriesTasks("--fail-tasks", 1, new SparkConf(false)))
        .hasMessageContaining("master local[*] never retries").hasMessageContaining("'local[*,2]'");
    assertThatThrownBy(() -> workload.retriesTasks("--fail-tasks", 1, new SparkConf(false).setMaster("local[4,1]")))
        .hasMessageContaining("'local[4,2]'");
    assertThatThrownBy(() -> workload.retriesTasks("--fail-tasks", 1,
        new SparkConf(false).setMaster("spark://h:7077").set("spark.task.maxFailures", "1")))
        .hasMessageContaining("spark.task.maxFailures=1 never retries a task");
    assertThatCode(() -> workload.retriesTasks("--fail-tasks", 1, new SparkConf(false).setMaster("local[2,2]"))
        .retriesTasks("--fail-tasks", 1, new SparkConf(false).setMaster("spark://h:7077"))
        .retriesTasks("--fail-tasks", 1, new SparkConf(false).setMaster("local-cluster[2,1,1024]")))
        .doesNotThrowAnyException();
  }
}
