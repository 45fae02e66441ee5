package org.perflab.jobs;

import org.apache.spark.sql.SparkSession;

/** Lets the memory package's tests run {@link MemoryJob} in-process. */
public final class MemoryJobAccess {
  private MemoryJobAccess() {}

  /** Runs {@code memory --input root --safety-factor f} (no Monte Carlo) in {@code spark}. */
  public static MemoryJob.Outcome run(SparkSession spark, String root, double safetyFactor) {
    return MemoryJob.run(spark, new MemoryJob.Options(root, root, safetyFactor, 0, 53));
  }
}
