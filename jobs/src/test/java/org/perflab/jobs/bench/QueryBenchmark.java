package org.perflab.jobs.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.perflab.table.Table;

/**
 * Times a typical query over PerfLab's Delta tables against the same rows written once as plain Parquet in a few
 * files per table (the compacted copy). The query sums {@code executor_run_time_ms} per application in {@code tasks}
 * joined to {@code applications}, and collects the result. Each layout is queried once to warm up, then
 * {@link #REPETITIONS} times each, alternately, every time from freshly read DataFrames (nothing cached); the figures
 * are the medians of the wall times, in seconds.
 */
final class QueryBenchmark {
  /** Timed repetitions per layout. */
  static final int REPETITIONS = 5;
  /** Files per table of the compacted copy. */
  static final int COMPACTED_FILES = 2;
  static final String QUERY = "SELECT a.app_id, a.app_name, sum(t.executor_run_time_ms) AS executor_run_time_ms "
      + "FROM tasks t JOIN applications a "
      + "ON t.log_id = a.log_id AND t.app_id = a.app_id AND t.app_attempt_id = a.app_attempt_id "
      + "GROUP BY a.app_id, a.app_name";
  private static final List<String> TABLES =
      List.of(Table.TASKS.tableName(), Table.APPLICATIONS.tableName());

  private final SparkSession spark;
  private final Path deltaRoot;
  private final Path compactedRoot;

  private QueryBenchmark(SparkSession spark, Path deltaRoot, Path compactedRoot) {
    this.spark = spark;
    this.deltaRoot = deltaRoot;
    this.compactedRoot = compactedRoot;
  }

  /** Writes the compacted copy of the Delta tables under {@code deltaRoot} into {@code compactedRoot}. */
  static QueryBenchmark withCompactedCopy(SparkSession spark, Path deltaRoot, Path compactedRoot)
      throws IOException {
    for (String table : TABLES) {
      spark.read().format("delta").load(deltaRoot.resolve(table).toString()).coalesce(COMPACTED_FILES)
          .write().parquet(compactedRoot.resolve(table).toString());
      System.out.printf("  compacted copy: %s in %d Parquet files, %.2f MB%n", table,
          ArchiveBenchmark.parquetFiles(compactedRoot.resolve(table)),
          ArchiveBuilder.bytesUnder(compactedRoot.resolve(table)) / ArchiveBenchmark.MB);
    }
    return new QueryBenchmark(spark, deltaRoot, compactedRoot);
  }

  /** Times the query over both layouts; prints the medians, their ratio against the goal, and if the results agree. */
  void compare(String label) {
    Function<String, Dataset<Row>> delta =
        table -> spark.read().format("delta").load(deltaRoot.resolve(table).toString());
    Function<String, Dataset<Row>> compacted =
        table -> spark.read().parquet(compactedRoot.resolve(table).toString());
    List<Row> deltaResult = run(delta);
    List<Row> compactedResult = run(compacted);
    List<Double> deltaSeconds = new ArrayList<>();
    List<Double> compactedSeconds = new ArrayList<>();
    for (int i = 0; i < REPETITIONS; i++) {
      deltaSeconds.add(time(delta));
      compactedSeconds.add(time(compacted));
    }
    double ratio = median(deltaSeconds) / median(compactedSeconds);
    System.out.printf("  %s: Delta median %.3f s %s, compacted median %.3f s %s; ratio %.2fx (goal <= 1.5x: %s);"
            + " results %s (%d applications)%n",
        label, median(deltaSeconds), seconds(deltaSeconds), median(compactedSeconds), seconds(compactedSeconds),
        ratio, ratio <= 1.5 ? "met" : "not met", sorted(deltaResult).equals(sorted(compactedResult)) ? "equal"
            : "DIFFER", deltaResult.size());
  }

  /** The query over the tables {@code read} returns, fresh from storage, collected. */
  private List<Row> run(Function<String, Dataset<Row>> read) {
    for (String table : TABLES) {
      read.apply(table).createOrReplaceTempView(table);
    }
    return spark.sql(QUERY).collectAsList();
  }

  /** Wall seconds of one run of the query. */
  private double time(Function<String, Dataset<Row>> read) {
    long start = System.nanoTime();
    run(read);
    return (System.nanoTime() - start) / 1e9;
  }

  private static List<String> sorted(List<Row> rows) {
    List<String> lines = new ArrayList<>(rows.stream().map(Row::toString).toList());
    Collections.sort(lines);
    return lines;
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  private static String seconds(List<Double> values) {
    return values.stream().map(s -> String.format("%.2f", s)).toList().toString();
  }
}
