package org.perflab.spark.regress;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.perflab.grouping.SizeClass;
import org.perflab.spark.prediction.RunTable;

/**
 * Runs whose truth is known: three workloads, each with duration = c × input GB ÷ total cores + d (c core-seconds per
 * GB, d seconds of fixed cost), times a log-normal noise of the given standard deviation, at 1, 2, 4 and 8 GB on 1, 2,
 * 4 and 8 executors of 2 or 4 cores (memory 2 GiB per core): 32 configurations and runs per workload, 96 in all.
 */
public final class SyntheticRuns {
  /** A workload's truth: c core-seconds per GB, d seconds fixed. */
  public record Truth(String workload, double coreSecondsPerGb, double fixedS) {
    public double durationS(double gigabytes, int totalCores) {
      return coreSecondsPerGb * gigabytes / totalCores + fixedS;
    }
  }

  public static final List<Truth> TRUTHS = List.of(new Truth("sort", 240, 8), new Truth("kmeans", 900, 20),
      new Truth("wordcount", 120, 4));
  public static final long GB = 1L << 30;
  public static final int[] SIZES_GB = {1, 2, 4, 8};
  public static final int[] EXECUTORS = {1, 2, 4, 8};
  public static final int[] CORES_PER_EXECUTOR = {2, 4};

  private SyntheticRuns() {}

  /** The runs, with {@link RunTable#SCHEMA}; run keys {@code log-<workload>-<i>/app-<i>/}, log ids {@code log-...}. */
  public static Dataset<Row> of(SparkSession spark, double noise, long seed) {
    Random random = new Random(seed);
    List<Row> rows = new ArrayList<>();
    for (Truth truth : TRUTHS) {
      int i = 0;
      for (int gb : SIZES_GB) {
        for (int executors : EXECUTORS) {
          for (int cores : CORES_PER_EXECUTOR) {
            int total = executors * cores;
            double duration = truth.durationS(gb, total) * Math.exp(noise * random.nextGaussian());
            String log = "log-" + truth.workload() + "-" + i;
            rows.add(RowFactory.create(log + "/app-" + i + "/", log, truth.workload(), gb * GB,
                SizeClass.of(gb * GB), executors, cores, total, 2 * GB * cores, duration));
            i++;
          }
        }
      }
    }
    return spark.createDataFrame(rows, RunTable.SCHEMA);
  }
}
