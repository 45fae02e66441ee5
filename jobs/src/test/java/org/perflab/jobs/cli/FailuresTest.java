package org.perflab.jobs.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import org.apache.spark.SparkException;
import org.junit.jupiter.api.Test;
import org.perflab.errors.BadInputException;

/** How every job's failures become an exit code and one line. */
class FailuresTest {
  @Test
  void badInputExitsTwoWithItsOwnMessageEvenWhenSparkWrapsIt() {
    BadInputException bad = new BadInputException("Cannot model: no ingest tables under /x (run ...)");

    assertThat(Failures.outcome("model", bad))
        .isEqualTo(new Failures.Outcome(ExitCode.BAD_INPUT, "Cannot model: no ingest tables under /x (run ...)"));
    assertThat(Failures.outcome("model", new SparkException("Job aborted due to stage failure", bad)).code())
        .isEqualTo(ExitCode.BAD_INPUT);
  }

  @Test
  void otherFailuresExitOneNamingTheJobTheMessageAndTheExceptionType() {
    assertThat(Failures.outcome("sweep", new IllegalStateException("lost the cluster\n\tat somewhere")))
        .isEqualTo(new Failures.Outcome(ExitCode.FAILURE, "Cannot sweep: lost the cluster (IllegalStateException)"));
    assertThat(Failures.outcome("simulate", new UncheckedIOException("Cannot write /x: disk full",
        new IOException("disk full"))).line())
        .isEqualTo("Cannot simulate: cannot write /x: disk full (UncheckedIOException)");
    assertThat(Failures.outcome("workload", new IllegalStateException("boom")).line())
        .isEqualTo("Cannot run workload: boom (IllegalStateException)");
  }

  @Test
  void wrappersThatOnlyRepeatTheirCauseAreSkipped() {
    // What Hadoop throws for an s3a:// path without hadoop-aws: the message is the cause's toString().
    RuntimeException hadoop = new RuntimeException(new ClassNotFoundException("Class S3AFileSystem not found"));

    assertThat(Failures.outcome("ingest", hadoop).line())
        .isEqualTo("Cannot ingest: Class S3AFileSystem not found (ClassNotFoundException)");
    assertThat(Failures.outcome("model", new NullPointerException()).line())
        .isEqualTo("Cannot model: unexpected error without a message (NullPointerException)")
        .doesNotContain("java.lang");
  }

  @Test
  void theStackTraceReachesStderrOnlyWhenVerbose() {
    IllegalStateException failure = new IllegalStateException("boom");

    StringWriter quiet = new StringWriter();
    int code = Failures.report("model", failure, false, new PrintWriter(quiet));
    StringWriter verbose = new StringWriter();
    Failures.report("model", failure, true, new PrintWriter(verbose));

    assertThat(code).isEqualTo(1);
    assertThat(quiet.toString()).startsWith("Cannot model: boom (IllegalStateException)")
        .doesNotContain("\tat ").doesNotContain("Exception in thread");
    assertThat(verbose.toString()).startsWith("Cannot model: boom (IllegalStateException)\n")
        .contains("java.lang.IllegalStateException: boom").contains("\tat ");
  }

  @Test
  void usageErrorsReadAsTheHouseForm() {
    assertThat(Failures.usageLine("ingest", "Unknown option: '--bogus'"))
        .isEqualTo("Cannot run ingest: unknown option: '--bogus' (see the usage below)");
  }

  @Test
  void hdfsFailuresExitOneNamingHdfsAndWhatToCheck() {
    Throwable lostBlock = new org.apache.spark.SparkException("Job aborted due to stage failure",
        new org.apache.hadoop.hdfs.BlockMissingException("/perflab/tasks/part-0.parquet",
            "Could not obtain block: BP-1:blk_1 file=/perflab/tasks/part-0.parquet", 0L));
    assertThat(Failures.outcome("features", lostBlock)).isEqualTo(new Failures.Outcome(ExitCode.FAILURE,
        "Cannot run features: HDFS failed: Could not obtain block: BP-1:blk_1 file=/perflab/tasks/part-0.parquet"
            + " (BlockMissingException; check that the NameNode and the DataNodes are up, then rerun features)"));
    Throwable refused = new java.io.UncheckedIOException(new java.net.ConnectException(
        "Call From host/127.0.0.1 to 127.0.0.1:9000 failed on connection exception: java.net.ConnectException:"
            + " Connection refused"));
    assertThat(Failures.outcome("ingest", refused).line()).startsWith("Cannot ingest: HDFS failed: Call From");
    // What a write with no DataNode left throws: a plain IOException from HDFS's DataStreamer.
    java.io.IOException noBlock = new java.io.IOException("Unable to create new block.");
    noBlock.setStackTrace(new StackTraceElement[] {
        new StackTraceElement("org.apache.hadoop.hdfs.DataStreamer", "setupPipelineForCreate", "DataStreamer.java", 1864)});
    assertThat(Failures.outcome("features", new IllegalStateException("wrapped", noBlock)).line())
        .isEqualTo("Cannot run features: HDFS failed: Unable to create new block. (IOException; check that the"
            + " NameNode and the DataNodes are up, then rerun features)");
    // A refused connection that is not Hadoop's RPC is not called HDFS.
    assertThat(Failures.outcome("ingest", new java.net.ConnectException("Connection refused")).line())
        .isEqualTo("Cannot ingest: Connection refused (ConnectException)");
  }
}
