package org.perflab.jobs.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.perflab.prediction.Stats;
import org.perflab.table.Table;

/**
 * Times a typical query over PerfLab's Delta tables against the same rows written once as plain Parquet in a few
 * files per table (the compacted copy). The query sums {@code executor_run_time_ms} per application in {@code tasks}
 * joined to {@code applications}, and collects the result. Each layout is queried once to warm up, then
 * {@link #REPETITIONS} times each, alternately, every time from freshly read DataFrames (nothing cached); the figures
 * are the medians of the wall times, in seconds, and where each layout's time goes: preparing the query (reading the
 * tables' metadata, analysis and planning: Delta's file listing over its snapshot, Parquet's schema read from a footer)
 * and executing it, with the Spark jobs each part started.
 */
final class QueryBenchmark {
  /** Timed repetitions per layout. */
  static final int REPETITIONS = 15;
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
  /** Spark jobs started in the session so far. */
  private final AtomicInteger jobs = new AtomicInteger();

  private QueryBenchmark(SparkSession spark, Path deltaRoot, Path compactedRoot) {
    this.spark = spark;
    this.deltaRoot = deltaRoot;
    this.compactedRoot = compactedRoot;
    spark.sparkContext().addSparkListener(new SparkListener() {
      @Override
      public void onJobStart(SparkListenerJobStart jobStart) {
        jobs.incrementAndGet();
      }
    });
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
    List<Row> deltaResult = run(delta).collectAsList();
    List<Row> compactedResult = run(compacted).collectAsList();
    List<Timing> deltaTimes = new ArrayList<>();
    List<Timing> compactedTimes = new ArrayList<>();
    for (int i = 0; i < REPETITIONS; i++) {
      deltaTimes.add(time(delta));
      compactedTimes.add(time(compacted));
    }
    double deltaMedian = median(deltaTimes, Timing::seconds);
    double compactedMedian = median(compactedTimes, Timing::seconds);
    double ratio = deltaMedian / compactedMedian;
    System.out.printf("  %s: Delta median %.3f s %s, compacted median %.3f s %s; ratio %.2fx (goal <= 1.5x: %s);"
            + " results %s (%d applications)%n",
        label, deltaMedian, seconds(deltaTimes), compactedMedian, seconds(compactedTimes),
        ratio, ratio <= 1.5 ? "met" : "not met", sorted(deltaResult).equals(sorted(compactedResult)) ? "equal"
            : "DIFFER", deltaResult.size());
    System.out.printf("    where it goes (medians): Delta prepare %.3f s (%.0f jobs), execute %.3f s (%.0f jobs);"
            + " compacted prepare %.3f s (%.0f jobs), execute %.3f s (%.0f jobs)%n",
        median(deltaTimes, Timing::prepare), median(deltaTimes, Timing::prepareJobs),
        median(deltaTimes, Timing::execute), median(deltaTimes, Timing::executeJobs),
        median(compactedTimes, Timing::prepare), median(compactedTimes, Timing::prepareJobs),
        median(compactedTimes, Timing::execute), median(compactedTimes, Timing::executeJobs));
  }

  /** The query over the tables {@code read} returns, fresh from storage, not yet run. */
  private Dataset<Row> run(Function<String, Dataset<Row>> read) {
    for (String table : TABLES) {
      read.apply(table).createOrReplaceTempView(table);
    }
    return spark.sql(QUERY);
  }

  /**
   * One run of the query: its wall seconds until the plan is ready (the tables read, the query analysed, optimised
   * and planned) and to execute and collect it, and the Spark jobs each part started.
   */
  private Timing time(Function<String, Dataset<Row>> read) {
    long start = System.nanoTime();
    int startJobs = jobs.get();
    Dataset<Row> query = run(read);
    query.queryExecution().executedPlan();
    long planned = System.nanoTime();
    int plannedJobs = jobs.get();
    query.collectAsList();
    long end = System.nanoTime();
    return new Timing((planned - start) / 1e9, (end - planned) / 1e9, plannedJobs - startJobs,
        jobs.get() - plannedJobs);
  }

  /** One timed run: seconds to prepare and to execute, and the Spark jobs each started. */
  private record Timing(double prepare, double execute, double prepareJobs, double executeJobs) {
    double seconds() {
      return prepare + execute;
    }
  }

  private static List<String> sorted(List<Row> rows) {
    List<String> lines = new ArrayList<>(rows.stream().map(Row::toString).toList());
    Collections.sort(lines);
    return lines;
  }

  private static double median(List<Timing> timings, ToDoubleFunction<Timing> figure) {
    return Stats.median(timings.stream().mapToDouble(figure).toArray());
  }

  private static String seconds(List<Timing> timings) {
    return timings.stream().map(t -> String.format("%.2f", t.seconds())).toList().toString();
  }
}
