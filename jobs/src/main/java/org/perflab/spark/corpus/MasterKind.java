package org.perflab.spark.corpus;

/** Where a sweep's runs go. */
public enum MasterKind {
  /** {@code local[cores]} in the driver JVM; executors must be 1. */
  LOCAL,
  /** The loopback standalone cluster of {@code submit/local-cluster}, started (and stopped) by the corpus runner. */
  LOCAL_CLUSTER,
  /** Any other master URL as spark-submit takes it: {@code spark://}, {@code yarn}, {@code k8s://}. */
  URL
}
