package org.perflab.spark.sweep;

import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.perflab.spark.storage.TableStore;
import org.perflab.sweep.BestPoint;
import org.perflab.sweep.PointResult;

/**
 * The tables {@code sweep_results} and {@code sweep_best} under one output root, written at the edge of a sweep: each
 * sweep replaces, in one commit per table, its log's rows under its rule; other logs' and other rules' rows stay.
 * Several sweeps written through one instance check the tables' schemas once.
 */
public final class SweepOutput {
  private final SparkSession spark;
  private final TableStore out;
  private boolean ensured;

  /** The sweep tables under {@code root}; nothing is read or written until {@link #write}. */
  public SweepOutput(SparkSession spark, String root) {
    this.spark = spark;
    this.out = new TableStore(spark, root);
  }

  /**
   * Replaces {@code swept}'s rows under {@code rule} in both tables with {@code results} and {@code best}. The first
   * write through this instance first gives the tables the columns they lack, so that the predicate can name
   * {@code rule} in a table written before it.
   */
  public void write(SweepTables.Swept swept, String rule, List<PointResult> results, List<BestPoint> best) {
    if (!ensured) {
      out.ensure(SweepTables.RESULTS_TABLE, SweepTables.RESULTS);
      out.ensure(SweepTables.BEST_TABLE, SweepTables.BEST);
      ensured = true;
    }
    String sweptBy = SweepRows.sweptBy(swept.logId(), rule);
    out.replaceWhere(SweepTables.RESULTS_TABLE,
        spark.createDataFrame(SweepTables.resultRows(results, swept), SweepTables.RESULTS).coalesce(1), sweptBy);
    out.replaceWhere(SweepTables.BEST_TABLE,
        spark.createDataFrame(SweepTables.bestRows(best, swept), SweepTables.BEST).coalesce(1), sweptBy);
  }
}
