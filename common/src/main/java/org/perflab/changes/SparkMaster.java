package org.perflab.changes;

import java.util.Locale;

/**
 * What a {@code spark.master} URL configures, without the address that names one cluster: the cluster manager, and
 * for local mode its threads. A standalone master's host and port differ from one cluster to the next (a test
 * cluster's port on every start) and say nothing about the run; moving from local mode to a cluster, or from YARN to
 * Kubernetes, changes where every task runs.
 */
public final class SparkMaster {
  /** The property. */
  public static final String KEY = "spark.master";

  private SparkMaster() {}

  /**
   * The part of {@code master} that is configuration: {@code local[N]}, {@code local[N,F]} and
   * {@code local-cluster[...]} as written (their threads and executors are the run's slots; {@code local} is
   * {@code local[1]}); {@code standalone},
   * {@code yarn} (also Spark 1's {@code yarn-client} and {@code yarn-cluster}), {@code kubernetes} or {@code mesos}
   * for a cluster manager's URL; any other value as written, lower case; null for null.
   */
  public static String configured(String master) {
    if (master == null) {
      return null;
    }
    String m = master.trim().toLowerCase(Locale.ROOT);
    if (m.startsWith("spark://")) {
      return "standalone";
    }
    if (m.equals("yarn") || m.startsWith("yarn-")) {
      return "yarn";
    }
    if (m.startsWith("k8s://")) {
      return "kubernetes";
    }
    if (m.startsWith("mesos://")) {
      return "mesos";
    }
    m = m.replace(" ", "");
    // "local" is one thread, as local[1] is
    return m.equals("local") ? "local[1]" : m;
  }
}
