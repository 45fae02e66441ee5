package org.perflab.spark.model;

import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.perflab.dagmodel.AppTrace;
import org.perflab.dagmodel.TracePart;
import org.perflab.errors.BadInputException;
import org.perflab.spark.features.FeatureInputs;
import org.perflab.spark.features.WorkloadTable;
import org.perflab.spark.storage.TableStore;
import org.perflab.table.KeyColumns;
import org.perflab.table.Table;
import scala.Tuple2;

/**
 * Every application's ingested parts, grouped by its key (log id / app id / attempt id): its application row with its
 * workload and size class by the workload rule ({@link WorkloadTable}), its executors, jobs and stage attempts, and
 * its tasks summarised per stage in Spark ({@link StageTaskSamples}), so that a group holds a bounded number of
 * durations per stage however many tasks the application ran.
 */
final class ModelTraces {
  private ModelTraces() {}

  /**
   * The parts of the applications of {@code store}'s logs that {@code only} keeps (identity: every log).
   *
   * @param bound durations kept per stage ({@link StageTaskSamples})
   * @param seed the seed of the stages' samples
   */
  static JavaPairRDD<String, Iterable<TracePart>> of(TableStore store, FeatureInputs inputs,
      Optional<String> workloadProperty, UnaryOperator<Dataset<Row>> only, int bound, long seed) {
    Dataset<Row> workloads = WorkloadTable.of(inputs, workloadProperty)
        .select(KeyColumns.LOG_ID, KeyColumns.APP_ID, KeyColumns.APP_ATTEMPT_ID, "workload_id", "size_class",
            "input_bytes");
    JavaPairRDD<String, TracePart> apps = read(store, only, Table.APPLICATIONS, "start_time_ms", "end_time_ms",
        "completed", "max_concurrent_cores", "task_cpus")
        .mapToPair(r -> new Tuple2<>(key(r), r))
        .join(workloads.javaRDD().mapToPair(r -> new Tuple2<>(key(r), r)))
        .mapToPair(kv -> new Tuple2<>(kv._1(), appPart(kv._2()._1(), kv._2()._2())));
    JavaPairRDD<String, TracePart> executors = read(store, only, Table.EXECUTORS, "is_driver", "total_cores")
        .mapToPair(r -> new Tuple2<>(key(r), new TracePart.ExecutorPart(r.getBoolean(3),
            r.isNullAt(4) ? null : r.getInt(4))));
    JavaPairRDD<String, TracePart> jobs = read(store, only, Table.JOBS, "job_id", "submission_time_ms",
        "completion_time_ms", "stage_ids")
        .filter(r -> !r.isNullAt(4))
        .mapToPair(r -> new Tuple2<>(key(r), new AppTrace.JobTrace(r.getInt(3), r.getLong(4),
            r.isNullAt(5) ? r.getLong(4) : r.getLong(5), ints(r, 6))));
    JavaPairRDD<String, TracePart> stages = read(store, only, Table.STAGES, "stage_id", "stage_attempt_id",
        "parent_stage_ids", "num_tasks", "status", "submission_time_ms", "completion_time_ms", "name")
        .mapToPair(r -> new Tuple2<>(key(r), new AppTrace.StageTrace(r.getInt(3), r.getInt(4), ints(r, 5),
            r.isNullAt(6) ? 0 : r.getInt(6), "SKIPPED".equals(r.getString(7)) || "PENDING".equals(r.getString(7)),
            r.isNullAt(8) ? -1 : r.getLong(8), r.isNullAt(9) ? -1 : r.getLong(9), r.getString(10))));
    JavaPairRDD<String, TracePart> tasks = StageTaskSamples.of(only.apply(table(store, Table.TASKS)), bound, seed)
        .select(KeyColumns.LOG_ID, KeyColumns.APP_ID, KeyColumns.APP_ATTEMPT_ID, "stage_id", "first_launch_ms",
            "successful", "input_bytes", "shuffle_read_bytes", "durations_ms", "sampled")
        .javaRDD()
        .mapToPair(r -> new Tuple2<>(key(r), stageTasks(r)));
    return apps.union(executors).union(jobs).union(stages).union(tasks).groupByKey();
  }

  private static Dataset<Row> table(TableStore store, Table table) {
    return store.read(table).orElseThrow(() -> new BadInputException("Cannot model: no ingest tables under "
        + store.root() + " (run perflab ingest --output " + store.root() + " first)"));
  }

  private static JavaRDD<Row> read(TableStore store, UnaryOperator<Dataset<Row>> only, Table table,
      String... columns) {
    String[] all = new String[columns.length + 2];
    all[0] = KeyColumns.APP_ID;
    all[1] = KeyColumns.APP_ATTEMPT_ID;
    System.arraycopy(columns, 0, all, 2, columns.length);
    return only.apply(table(store, table)).select(KeyColumns.LOG_ID, all).javaRDD();
  }

  /** A stage's summarised tasks; durations from milliseconds to seconds. */
  private static TracePart stageTasks(Row r) {
    List<Long> ms = r.getList(8);
    double[] seconds = new double[ms.size()];
    for (int i = 0; i < seconds.length; i++) {
      seconds[i] = ms.get(i) / 1000.0;
    }
    return new AppTrace.StageTasks(r.getInt(3), r.getLong(4), r.getLong(5), r.getLong(6), r.getLong(7), seconds,
        r.getBoolean(9));
  }

  /** A long column; null as 0. */
  private static long longOrZero(Row r, int i) {
    return r.isNullAt(i) ? 0L : r.getLong(i);
  }

  /** An array column as a list; null as empty. */
  private static List<Integer> ints(Row r, int i) {
    return r.isNullAt(i) ? List.of() : r.getList(i);
  }

  /** log id / app id / attempt id (empty when null). */
  static String key(Row r) {
    return r.getString(0) + "/" + r.getString(1) + "/" + (r.isNullAt(2) ? "" : r.getString(2));
  }

  /** The application part of an {@code applications} row and its {@code workloads} row. */
  private static TracePart appPart(Row r, Row workload) {
    return new TracePart.AppPart(r.getString(1), workload.getString(3), workload.getInt(4), r.getLong(3),
        r.getLong(4), r.getBoolean(5), r.isNullAt(6) ? 0 : r.getInt(6), r.isNullAt(7) ? null : r.getInt(7),
        longOrZero(workload, 5));
  }
}
