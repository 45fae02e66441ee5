package org.perflab.spark.sweep;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.perflab.spark.storage.TableStore;
import org.perflab.sweep.BestPoint;
import org.perflab.sweep.PointResult;

/**
 * The tables {@code sweep_results} and {@code sweep_best} under one output root, written at the edge of a sweep: each
 * sweep replaces, in one commit per table, its log's rows under its rule (several sweeps at once: one commit per table
 * for all of them); other logs' and other rules' rows stay.
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

  /** One sweep's rows to write: what was swept, under which rule, its points and its best points. */
  public record Result(SweepTables.Swept swept, String rule, List<PointResult> results, List<BestPoint> best) {}

  /**
   * Replaces, in both tables, each sweep's rows (its log's under its rule) with its results and best points: one
   * commit per table for all of {@code sweeps} (a per-workload sweep of N runs makes 2 commits, not 2N). Of two sweeps
   * of the same log under the same rule, the later one's rows are written, as two writes one after the other would
   * leave. Nothing is written when {@code sweeps} is empty. The first write through this instance first gives the
   * tables the columns they lack, so that the predicate can name {@code rule} in a table written before it.
   */
  public void writeAll(List<Result> sweeps) {
    Map<String, Result> byPredicate = new LinkedHashMap<>();
    for (Result s : sweeps) {
      String predicate = SweepRows.sweptBy(s.swept().logId(), s.rule());
      byPredicate.remove(predicate);
      byPredicate.put(predicate, s);
    }
    if (byPredicate.isEmpty()) {
      return;
    }
    if (!ensured) {
      out.ensure(SweepTables.RESULTS_TABLE, SweepTables.RESULTS);
      out.ensure(SweepTables.BEST_TABLE, SweepTables.BEST);
      ensured = true;
    }
    String predicate = byPredicate.size() == 1 ? byPredicate.keySet().iterator().next()
        : byPredicate.keySet().stream().map(p -> "(" + p + ")").collect(Collectors.joining(" OR "));
    List<Row> results = new ArrayList<>();
    List<Row> best = new ArrayList<>();
    for (Result s : byPredicate.values()) {
      results.addAll(SweepTables.resultRows(s.results(), s.swept()));
      best.addAll(SweepTables.bestRows(s.best(), s.swept()));
    }
    out.replaceWhere(SweepTables.RESULTS_TABLE,
        spark.createDataFrame(results, SweepTables.RESULTS).coalesce(1), predicate);
    out.replaceWhere(SweepTables.BEST_TABLE, spark.createDataFrame(best, SweepTables.BEST).coalesce(1), predicate);
  }
}
