package org.perflab.spark.memory;

import org.perflab.memory.SkewSimulation;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * Reference 004 Table 5.3 as a distributed Monte Carlo: every (mean, sd) cell's runs are split into batches, each
 * batch a Spark task; a run is seeded {@code seed + run}, so the table does not depend on how the runs are split.
 */
public final class SkewTable {
  /** Table 5.3's rows and columns. */
  public static final int[] MEANS = {2, 4, 6, 8, 10, 12, 50, 100, 1000};
  public static final double[] SDS = {0.5, 0.25, 0.1};
  public static final int MACHINES = 100;
  public static final int RUNS = 1000;
  private static final StructType MAXIMA = new StructType()
      .add("mean_tasks", DataTypes.IntegerType, false)
      .add("sd", DataTypes.DoubleType, false)
      .add("max_tasks", DataTypes.IntegerType, false);

  private SkewTable() {}

  /**
   * The table (schema {@link MemoryTables#SKEW}) for {@code means} × {@code sds}, {@code runs} runs per cell on
   * {@code machines} machines, in batches of at most {@code batchRuns} runs.
   */
  public static Dataset<Row> of(SparkSession spark, int[] means, double[] sds, int machines, int runs, int batchRuns,
      long seed) {
    List<Row> batches = new ArrayList<>();
    for (int mean : means) {
      for (double sd : sds) {
        for (int first = 0; first < runs; first += batchRuns) {
          batches.add(RowFactory.create(mean, sd, first, Math.min(batchRuns, runs - first)));
        }
      }
    }
    StructType batchSchema = new StructType().add("mean_tasks", DataTypes.IntegerType).add("sd", DataTypes.DoubleType)
        .add("first_run", DataTypes.IntegerType).add("runs", DataTypes.IntegerType);
    Dataset<Row> maxima = spark.createDataFrame(batches, batchSchema).repartition(batches.size())
        .flatMap((FlatMapFunction<Row, Row>) b -> maxima(b, machines, seed).iterator(), Encoders.row(MAXIMA));
    return maxima.groupBy("mean_tasks", "sd").agg(functions.collect_list("max_tasks").as("maxima"))
        .map((org.apache.spark.api.java.function.MapFunction<Row, Row>) cell -> cell(cell, machines),
            Encoders.row(MemoryTables.SKEW))
        .orderBy(functions.col("mean_tasks"), functions.col("sd").desc());
  }

  private static List<Row> maxima(Row batch, int machines, long seed) {
    SkewSimulation sim = new SkewSimulation(batch.getInt(0), machines, batch.getDouble(1));
    List<Row> out = new ArrayList<>();
    for (int max : sim.maxima(seed, batch.getInt(2), batch.getInt(3))) {
      out.add(RowFactory.create(batch.getInt(0), batch.getDouble(1), max));
    }
    return out;
  }

  private static Row cell(Row cell, int machines) {
    int mean = cell.getInt(0);
    double sd = cell.getDouble(1);
    int[] maxima = cell.<Integer>getList(2).stream().mapToInt(Integer::intValue).toArray();
    int p99 = SkewSimulation.percentile(maxima, SkewSimulation.PERCENTILE);
    return RowFactory.create(mean, sd, machines, maxima.length, p99, new SkewSimulation(mean, machines, sd)
        .correction(p99));
  }
}
