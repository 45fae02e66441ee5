package org.perflab.spark.sweep;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.perflab.sweep.PointResult;
import org.perflab.sweep.Sweep;
import org.perflab.sweep.TrialOutcome;
import scala.Tuple2;

/** Runs a sweep's trials on Spark: the fan-out over partitions and the per-point reduction; no table I/O. */
public final class SweepTrials {
  private SweepTrials() {}

  /**
   * Fans the trials out over {@code points × partitionsPerPoint} partitions and reduces each point's outcomes on the
   * executors, under the Spark job group {@code perflab-sweep}; returns the point results in grid order. The results
   * do not depend on {@code partitionsPerPoint} (each trial has its own seed).
   */
  public static List<PointResult> run(SparkSession spark, Sweep sweep, int partitionsPerPoint) {
    JavaSparkContext context = JavaSparkContext.fromSparkContext(spark.sparkContext());
    int points = sweep.plans().size();
    context.setJobDescription("Simulate " + sweep.trials().size() + " trials over " + points
        + " grid points");
    List<PointResult> results = new ArrayList<>(context.parallelize(sweep.trials(), points * partitionsPerPoint)
        .map(sweep::runTrial)
        .mapToPair(outcome -> new Tuple2<>(outcome.pointIndex(), outcome))
        .groupByKey(Math.max(1, Math.min(points, context.defaultParallelism())))
        .mapValues(outcomes -> sweep.summarize(toList(outcomes)))
        .values()
        .collect());
    results.sort(Comparator.comparingInt(r -> sweep.grid().points().indexOf(r.point())));
    return results;
  }

  private static List<TrialOutcome> toList(Iterable<TrialOutcome> outcomes) {
    List<TrialOutcome> list = new ArrayList<>();
    outcomes.forEach(list::add);
    return list;
  }
}
