package org.perflab.spark.features;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.perflab.errors.BadInputException;
import org.perflab.spark.storage.ChangedLogs;
import org.perflab.spark.storage.OutputLock;
import org.perflab.spark.storage.TableStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code features} run: reads the ingest tables under the input root, computes {@code workloads},
 * {@code app_features} and {@code stage_features} for the logs that changed since the last run (all of them on the
 * first run or with {@code full}), writes them under the output root holding its lock, then records the watermark.
 */
public final class Features {
  private static final Logger LOG = LoggerFactory.getLogger(Features.class);

  /** The job's name: its messages, its lock and its watermark. */
  public static final String JOB = "features";

  /**
   * The options of a run.
   *
   * @param input the ingest output root
   * @param output where the tables and the watermark go (the input root by default)
   * @param workloadProperty the property of rule 2 of the workload rule, when given
   * @param full recompute every application, ignoring the watermark
   */
  public record Options(String input, String output, Optional<String> workloadProperty, boolean full) {
    public Options {
      BadInputException.require(workloadProperty.map(k -> !k.isBlank()).orElse(true),
          "Cannot run features: --workload-property is empty (give a property key, e.g. hibench.workload)");
    }
  }

  /**
   * What a run did.
   *
   * @param plan what it recomputed, and from which ingest run
   * @param applications application attempts recomputed
   * @param rows rows written per table, in writing order
   */
  public record Summary(ChangedLogs.Plan plan, long applications, Map<String, Long> rows) {}

  private Features() {}

  /** Runs {@code features}; see the class comment. */
  public static Summary run(SparkSession spark, Options options, Clock clock) {
    TableStore input = new TableStore(spark, options.input());
    TableStore output = new TableStore(spark, options.output());
    ChangedLogs changed = new ChangedLogs(input, output, JOB);
    try (OutputLock lock = OutputLock.acquire(output.fileSystem(), output.root(), JOB, clock)) {
      ChangedLogs.Plan plan = changed.plan(options.full(), FeatureTables.NAMES);
      LOG.info("features: {} ({})", plan.mode(), plan.reason());
      Map<String, Long> rows = new LinkedHashMap<>();
      if (plan.mode() == ChangedLogs.Mode.UP_TO_DATE) {
        FeatureTables.NAMES.forEach(t -> rows.put(t, 0L));
        changed.commit(plan);
        return new Summary(plan, 0, rows);
      }
      FeatureInputs all = FeatureInputs.read(input, JOB);
      FeatureInputs in = (plan.incremental() ? all.onlyLogs(plan.logIds()) : all).cache();
      Dataset<Row> workloads = WorkloadTable.of(in, options.workloadProperty()).cache();
      try {
        write(changed, plan, FeatureTables.WORKLOADS_TABLE, workloads, rows);
        write(changed, plan, FeatureTables.APP_FEATURES_TABLE, AppFeatures.of(in, workloads), rows);
        write(changed, plan, FeatureTables.STAGE_FEATURES_TABLE, StageFeatures.of(in), rows);
      } finally {
        workloads.unpersist();
        in.unpersist();
      }
      changed.commit(plan);
      return new Summary(plan, rows.get(FeatureTables.WORKLOADS_TABLE), rows);
    }
  }

  private static void write(ChangedLogs changed, ChangedLogs.Plan plan, String table, Dataset<Row> rows,
      Map<String, Long> counts) {
    Dataset<Row> cached = rows.cache();
    try {
      counts.put(table, cached.count());
      changed.write(plan, table, cached);
      LOG.info("features: wrote {} rows of {}", counts.get(table), table);
    } finally {
      cached.unpersist();
    }
  }
}
