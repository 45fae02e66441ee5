package org.perflab.spark.clustering;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * An {@code app_features} table of three well-separated workloads, built in the test: sort (shuffle and output as
 * large as its input), kmeans (many stages, GC-heavy, little shuffle) and sleep (no input, few tasks). Each
 * application runs at 1 to 8 executors, so its wall time varies tenfold while its features vary by a few percent.
 */
public final class SyntheticFeatures {
  /** One workload's typical application: task time (s), input bytes, driver-only (s), critical path (s), stages, tasks,
   * shuffle-write and output bytes, GC and serialisation shares, failed tasks. */
  record Profile(String workload, double taskS, long input, double driverS, double criticalS, long stages,
      long tasks, long shuffle, long output, double gc, double serialization, long failed) {}

  static final List<Profile> PROFILES = List.of(
      new Profile("sort", 100, 1_000_000_000L, 2, 20, 3, 200, 1_000_000_000L, 1_000_000_000L, 0.05, 0.01, 0),
      new Profile("kmeans", 500, 100_000_000L, 10, 100, 30, 600, 1_000_000L, 100_000L, 0.20, 0.05, 0),
      new Profile("sleep", 50, 0L, 1, 10, 2, 32, 1_000L, 0L, 0.001, 0.0, 1));

  static final StructType SCHEMA = new StructType()
      .add("log_id", DataTypes.StringType, false)
      .add("app_id", DataTypes.StringType, false)
      .add("app_attempt_id", DataTypes.StringType, false)
      .add("workload_id", DataTypes.StringType, false)
      .add("size_class", DataTypes.IntegerType, false)
      .add("wall_time_s", DataTypes.DoubleType, true)
      .add("driver_only_s", DataTypes.DoubleType, true)
      .add("task_time_s", DataTypes.DoubleType, false)
      .add("gc_share", DataTypes.DoubleType, true)
      .add("serialization_share", DataTypes.DoubleType, true)
      .add("input_bytes", DataTypes.LongType, false)
      .add("output_bytes", DataTypes.LongType, false)
      .add("shuffle_write_bytes", DataTypes.LongType, false)
      .add("stages", DataTypes.LongType, false)
      .add("tasks", DataTypes.LongType, false)
      .add("failed_tasks", DataTypes.LongType, false)
      .add("critical_path_s", DataTypes.DoubleType, true)
      .add("executors", DataTypes.IntegerType, true);

  private SyntheticFeatures() {}

  /**
   * {@code perWorkload} applications of each profile, every feature scaled by 1 + {@code noise}·N(0,1), rows shuffled
   * with {@code seed}. Application {@code app-<workload>-<i>} is the same application in every call.
   */
  public static Dataset<Row> of(SparkSession spark, int perWorkload, double noise, long seed) {
    Random random = new Random(seed);
    List<Row> rows = new ArrayList<>();
    for (Profile p : PROFILES) {
      for (int i = 0; i < perWorkload; i++) {
        int executors = 1 << (i % 4);
        double taskS = p.taskS() * jitter(random, noise);
        double driverS = p.driverS() * jitter(random, noise);
        rows.add(RowFactory.create("log" + p.workload() + i, "app-" + p.workload() + "-" + i, "", p.workload(), 30,
            taskS / executors + driverS, driverS, taskS, p.gc() * jitter(random, noise),
            p.serialization() * jitter(random, noise), scaled(p.input(), random, noise),
            scaled(p.output(), random, noise), scaled(p.shuffle(), random, noise), p.stages(), p.tasks(), p.failed(),
            p.criticalS() * jitter(random, noise), executors));
      }
    }
    Collections.shuffle(rows, random);
    return spark.createDataFrame(rows, SCHEMA);
  }

  private static double jitter(Random random, double noise) {
    return 1 + noise * random.nextGaussian();
  }

  private static long scaled(long value, Random random, double noise) {
    return Math.round(value * jitter(random, noise));
  }
}
