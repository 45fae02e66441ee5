package org.perflab.spark.clustering;

import org.perflab.errors.BadInputException;

/**
 * How {@code cluster} clusters: k is chosen by silhouette among {@code kMin..kMax} (capped at the number of distinct
 * applications − 1), and KMeans starts from {@code seed}, so a run is reproducible.
 */
public record ClusterOptions(int kMin, int kMax, long seed) {
  /** The default k range, {@code --k-min 2 --k-max 10}. */
  public static final int DEFAULT_K_MIN = 2;
  public static final int DEFAULT_K_MAX = 10;

  public ClusterOptions {
    BadInputException.require(kMin >= 2, "Cannot cluster: --k-min must be >= 2 (%d)", kMin);
    BadInputException.require(kMax >= kMin, "Cannot cluster: --k-max must be >= --k-min (%d < %d)", kMax, kMin);
  }
}
