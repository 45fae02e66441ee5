package org.perflab.memory;

import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/** The rows of {@code memory_recommendations}: one per application attempt, and one per workload when known. */
public final class MemoryRecommendations {
  private MemoryRecommendations() {}

  /**
   * Application rows from the ingest tables and, with a {@code workloads} table, workload rows.
   *
   * @param workloads the features job's {@code workloads} table, when there is one
   */
  public static Dataset<Row> of(Dataset<Row> applications, Dataset<Row> stages, Dataset<Row> tasks,
      Dataset<Row> executors, Optional<Dataset<Row>> workloads, MemoryParams params) {
    Dataset<Row> apps = ApplicationMemory.of(applications, stages, tasks, executors, params);
    return workloads.map(w -> apps.unionByName(WorkloadMemory.of(apps, w))).orElse(apps);
  }
}
