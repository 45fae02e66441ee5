package org.perflab.spark.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import io.delta.tables.DeltaTable;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perflab.spark.ingest.SparkTestSession;
import org.perflab.sweep.BestPoint;
import org.perflab.sweep.GridPoint;
import org.perflab.sweep.PointResult;
import org.perflab.sweep.Statistic;

/**
 * Several sweeps written at once, as a per-workload sweep writes them: each log's rows under its rule are replaced as
 * one write after the other would replace them, other logs' rows stay, and each table takes one commit.
 */
class SweepOutputTest {
  @TempDir Path dir;

  /** A sweep of one point whose mean time tells the sweeps apart. */
  private static SweepOutput.Result sweep(String log, String rule, double meanS) {
    GridPoint point = new GridPoint(2, 1, 0, 0);
    PointResult result = new PointResult(point, false, 1, 2, rule, 1, 1, 10, meanS, 0, meanS, meanS, meanS, meanS,
        meanS, point.coreHours(meanS), Double.NaN, 1L, List.of(1L));
    return new SweepOutput.Result(new SweepTables.Swept(log, "w-" + log), rule, List.of(result),
        List.of(new BestPoint(BestPoint.Kind.PARETO, Statistic.MEAN, 0, result)));
  }

  /** {@code log/rule=mean} of every row of {@code table}, sorted. */
  private static List<String> rows(SparkSession spark, String table) {
    return spark.read().format("delta").load(table).orderBy("log_id", "rule", "mean_s").collectAsList().stream()
        .map(r -> r.getAs("log_id") + "/" + r.getAs("rule") + "=" + r.getAs("mean_s")).toList();
  }

  @Test
  void severalSweepsReplaceTheirLogsRowsInOneCommitPerTable() {
    SparkSession spark = SparkTestSession.get();
    String root = dir.toString();
    new SweepOutput(spark, root).writeAll(List.of(sweep("a", "baseline", 1), sweep("b", "baseline", 2),
        sweep("a", "phase-cost", 3)));
    long resultsVersion = DeltaTable.forPath(spark, root + "/sweep_results").history(1).first().getAs("version");
    long bestVersion = DeltaTable.forPath(spark, root + "/sweep_best").history(1).first().getAs("version");

    // a again under baseline twice (the later wins), c new; b and a's phase-cost rows are not in this write
    new SweepOutput(spark, root).writeAll(List.of(sweep("a", "baseline", 10), sweep("c", "baseline", 30),
        sweep("a", "baseline", 11)));
    new SweepOutput(spark, root).writeAll(List.of());

    for (String table : List.of("sweep_results", "sweep_best")) {
      assertThat(rows(spark, root + "/" + table)).as(table)
          .containsExactly("a/baseline=11.0", "a/phase-cost=3.0", "b/baseline=2.0", "c/baseline=30.0");
    }
    assertThat(DeltaTable.forPath(spark, root + "/sweep_results").history(1).first().<Long>getAs("version"))
        .as("one commit for three sweeps, none for no sweep").isEqualTo(resultsVersion + 1);
    assertThat(DeltaTable.forPath(spark, root + "/sweep_best").history(1).first().<Long>getAs("version"))
        .isEqualTo(bestVersion + 1);
  }
}
