package org.perflab.costmodel;

/**
 * {@code spark.shuffle.manager}. {@link #HASH} was removed in Spark 2.0; it is kept for the paper's equations (40)–(42)
 * and the reference's worked example. Spark ≥ 2 always sorts.
 */
public enum ShuffleManager {
  SORT, HASH
}
