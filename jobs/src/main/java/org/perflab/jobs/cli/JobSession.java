package org.perflab.jobs.cli;

import java.util.function.Function;
import org.apache.spark.sql.SparkSession;
import org.perflab.spark.storage.DeltaSessions;

/**
 * The SparkSession a job's {@code call()} runs in: the active or default session when there is one (a test, a
 * notebook, {@code PerfLab.run} in-process), which it leaves running; otherwise its own, with PerfLab's Delta settings,
 * stopped when the job ends.
 */
public final class JobSession {
  private JobSession() {}

  /** Runs {@code body} in the session named {@code appName} and returns what it returns. */
  public static <T> T with(String appName, Function<SparkSession, T> body) {
    boolean own = SparkSession.getActiveSession().isEmpty() && SparkSession.getDefaultSession().isEmpty();
    SparkSession spark = DeltaSessions.builder(appName).getOrCreate();
    try {
      return body.apply(spark);
    } finally {
      if (own) {
        spark.stop();
      }
    }
  }
}
