package org.perflab.spark.workload;

import java.util.Collections;
import java.util.Iterator;
import org.apache.spark.HashPartitioner;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.function.PairFlatMapFunction;
import org.apache.spark.sql.SparkSession;
import scala.Tuple2;

/**
 * HiBench Sleep, generalised: {@link SleepSpec#stages()} stages of {@link SleepSpec#tasks()} tasks, chained by
 * shuffles of one record per task, each task calling {@link Thread#sleep} for its drawn duration. It uses no CPU, so
 * the stage time is set by the scheduler: ceil(tasks / slots) waves of the duration for a deterministic spec.
 */
final class SleepWorkload implements WorkloadRunner.WithoutInput {
  /** Tasks per stage by scale. */
  static final ScaleTable TASKS = ScaleTable.of(4, 16, 64, 128, 256, 512);
  /** Stages by scale. */
  static final ScaleTable STAGES = ScaleTable.of(2, 2, 3, 3, 3, 3);
  /** Mean task duration by scale, milliseconds. */
  static final ScaleTable MEAN_MS = ScaleTable.of(500, 2_000, 3_000, 5_000, 10_000, 10_000);

  /** The default spec of a scale: deterministic durations. */
  static SleepSpec defaults(Scale scale) {
    return SleepSpec.deterministic((int) TASKS.at(scale), (int) STAGES.at(scale), MEAN_MS.at(scale));
  }

  @Override
  public WorkloadResult run(SparkSession spark, WorkloadSpec spec) {
    SleepSpec sleep = spec.sleep();
    long seed = spec.seed();
    JavaPairRDD<Integer, Integer> stage = Generators.partitionSeeds(spark, sleep.tasks())
        .mapPartitionsToPair(sleeper(sleep, seed, 0));
    for (int s = 1; s < sleep.stages(); s++) {
      stage = stage.partitionBy(new HashPartitioner(sleep.tasks())).mapPartitionsToPair(sleeper(sleep, seed, s));
    }
    long records = stage.count();
    return new WorkloadResult(HiBenchWorkload.SLEEP, records, "tasks=" + (long) sleep.tasks() * sleep.stages());
  }

  private static <T> PairFlatMapFunction<Iterator<T>, Integer, Integer> sleeper(SleepSpec sleep, long seed, int stage) {
    return records -> {
      while (records.hasNext()) {
        records.next();
      }
      TaskContext task = TaskContext.get();
      int partition = task.partitionId();
      if (stage == 0 && partition < sleep.failTasks() && task.attemptNumber() == 0) {
        throw new IllegalStateException("PerfLab Sleep: injected failure of task " + partition + ", attempt 0");
      }
      Thread.sleep(sleep.durationMs(seed, stage, partition));
      return Collections.singletonList(new Tuple2<>(partition, stage)).iterator();
    };
  }
}
