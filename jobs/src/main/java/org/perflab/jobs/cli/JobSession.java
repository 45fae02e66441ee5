package org.perflab.jobs.cli;

import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.perflab.spark.storage.DeltaSessions;
import org.perflab.spark.storage.SessionConf;

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

  /**
   * Expressions interpreted, not compiled: PerfLab's tables hold one row per application, stage or task, and a job
   * runs many short Spark jobs over them, whose generated code costs more to compile than it saves (the README's
   * night: 280 s compiled, 173 s interpreted; a cold {@code ingest} of the ten samples: 13.3–14.2 s against
   * 15.1–16.7 s; docs/benchmarks.md). A job in a session of its own, and the nightly, run with these unless the user
   * set either key at submission ({@link SessionConf#unlessSet}); a session the job did not create keeps its own.
   */
  public static final Map<String, String> INTERPRETED_SQL = Map.of("spark.sql.codegen.wholeStage", "false",
      "spark.sql.codegen.factoryMode", "NO_CODEGEN");

  /** Runs {@code work} in the session named {@code appName} and returns its outcome. */
  public static JobOutcome run(String appName, SessionCommand.Work work) throws Exception {
    boolean own = SparkSession.getActiveSession().isEmpty() && SparkSession.getDefaultSession().isEmpty();
    SparkSession spark = DeltaSessions.builder(appName).getOrCreate();
    spark.sparkContext().setJobGroup(appName.replace(' ', '-'), appName, false);
    try {
      return own ? SessionConf.unlessSet(spark, INTERPRETED_SQL, () -> work.run(spark)) : work.run(spark);
    } finally {
      if (own) {
        spark.stop();
      } else {
        spark.sparkContext().clearJobGroup();
      }
    }
  }
}
