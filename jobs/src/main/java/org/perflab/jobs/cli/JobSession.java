package org.perflab.jobs.cli;

import org.apache.spark.sql.SparkSession;
import org.perflab.spark.storage.DeltaSessions;

/**
 * The one way a job holds a SparkSession ({@link SessionCommand#call()} goes through here): the active or default
 * session when there is one (a test, a notebook, the nightly pipeline, {@code PerfLab.run} in-process), which it
 * leaves running; otherwise its own, with PerfLab's Delta settings, stopped when the job ends. No job stops a session
 * it did not create. The job's Spark jobs run under one job group named after it ({@code perflab-features}); in the
 * nightly pipeline the step runner sets the group instead ({@code perflab-nightly-features}), so a job only describes
 * its Spark jobs ({@code setJobDescription}) and never sets a group of its own.
 */
public final class JobSession {
  private JobSession() {}

  /** Runs {@code work} in the session named {@code appName} and returns its outcome. */
  public static JobOutcome run(String appName, SessionCommand.Work work) throws Exception {
    boolean own = SparkSession.getActiveSession().isEmpty() && SparkSession.getDefaultSession().isEmpty();
    SparkSession spark = DeltaSessions.builder(appName).getOrCreate();
    spark.sparkContext().setJobGroup(appName.replace(' ', '-'), appName, false);
    try {
      return work.run(spark);
    } finally {
      if (own) {
        spark.stop();
      } else {
        spark.sparkContext().clearJobGroup();
      }
    }
  }
}
