package org.perflab.jobs.cli;

import java.util.concurrent.Callable;
import org.apache.spark.sql.SparkSession;

/**
 * A job that runs in a SparkSession, whoever holds it. picocli parses its options; {@link #prepare()} validates them
 * and its inputs without Spark (so a usage mistake exits 2 before Spark starts) and returns the work, which runs in
 * a session it is given, prints its summary and returns its {@link JobOutcome}. The work never stops that session.
 *
 * <p>Alone ({@code perflab <job>}), {@link #call()} runs the work in {@link JobSession}, which stops the session only
 * when it created it. In the nightly pipeline, {@link #execute(SparkSession)} runs it in the night's session. What
 * either throws reaches {@link Failures}, the one path to an exit code.
 */
public interface SessionCommand extends Callable<Integer> {

  /** The work of a job whose options are valid: runs in {@code spark}, prints its summary, returns its outcome. */
  @FunctionalInterface
  interface Work {
    JobOutcome run(SparkSession spark) throws Exception;
  }

  /** The application name of the session this job creates when none is running, e.g. "perflab features". */
  String appName();

  /** Validates the options and inputs, without Spark; throws {@code BadInputException} for bad ones. */
  Work prepare();

  /** Prepares and runs the job in {@code spark}, which it leaves running. */
  default JobOutcome execute(SparkSession spark) throws Exception {
    return prepare().run(spark);
  }

  /** Prepares the job, then runs it in {@link JobSession}; returns its exit code. */
  @Override
  default Integer call() throws Exception {
    JobOutcome outcome = JobSession.run(appName(), prepare());
    OutcomeFile.write(outcome.code().code(), outcome.message());
    return outcome.code().code();
  }
}
