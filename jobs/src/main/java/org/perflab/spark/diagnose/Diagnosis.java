package org.perflab.spark.diagnose;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.perflab.stragglers.LambdaGrid;
import org.perflab.stragglers.PccThresholds;
import org.perflab.stragglers.StragglerThresholds;

/**
 * The straggler transforms of {@code diagnose}, chained: task features (with OS metrics when given), evidence,
 * the {@code stragglers} table and its {@code straggler_causes} summary, and the grid search. No I/O.
 */
public final class Diagnosis {
  private Diagnosis() {}

  /** Task features of the {@code tasks} table, with host utilisation from {@code osMetrics} when not null. */
  public static Dataset<Row> features(Dataset<Row> tasks, Dataset<Row> osMetrics, StragglerThresholds thresholds) {
    Dataset<Row> features = TaskFeatures.of(tasks);
    return osMetrics == null ? ResourceFeatures.absent(features)
        : ResourceFeatures.join(features, osMetrics, thresholds.edgeWindowS());
  }

  /** The {@code stragglers} table. */
  public static Dataset<Row> stragglers(Dataset<Row> features, StragglerThresholds thresholds, PccThresholds pcc) {
    Dataset<Row> evidence = StragglerEvidence.of(features, thresholds.stragglerFactor(),
        StragglerTable.levels(thresholds, pcc));
    return StragglerTable.of(evidence, thresholds, pcc);
  }

  /** The {@code straggler_grid} table: every Table 4 cell scored against {@code truth}. */
  public static Dataset<Row> grid(Dataset<Row> features, Dataset<Row> truth, StragglerThresholds thresholds) {
    Dataset<Row> evidence = StragglerEvidence.of(features, thresholds.stragglerFactor(), LambdaGrid.LEVELS);
    return GridSearch.score(features.sparkSession(), evidence, truth, thresholds);
  }
}
