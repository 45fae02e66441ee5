package org.perflab.jobs;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.perflab.dagmodel.SampleMode;
import org.perflab.eventlog.redact.Redactor;
import org.perflab.spark.ingest.Ingest;
import org.perflab.spark.ingest.IngestOptions;

/** Event logs ingested and modelled, as the tests of predictions from real runs need them. */
final class ModelledLogs {
  private ModelledLogs() {}

  /** The tests' Delta-enabled session on {@code local[2]}, UI off, on the loopback interface. */
  static SparkSession session(String appName) {
    return org.perflab.spark.storage.DeltaSessions.builder("perflab-tests").master("local[2]").appName(appName)
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "2").getOrCreate();
  }

  /**
   * Ingests the logs under {@code logs} into {@code dir/tables}, models them (replay, one application) into
   * {@code dir/out}, and returns the {@code dag_models} rows with status OK, ordered by application id.
   */
  static List<Row> ingestAndModel(SparkSession spark, Path logs, Path dir) throws Exception {
    new Ingest(spark, new IngestOptions(List.of(logs.toString()), dir.resolve("tables").toString(), false,
        Redactor.DEFAULT_PATTERN, 0), Clock.systemUTC()).run();
    ModelJob.run(spark, new ModelJob.Options(dir.resolve("tables").toString(), dir.resolve("out").toString(),
        SampleMode.REPLAY, 1, false, 1L));
    return spark.read().format("delta").load(dir.resolve("out/dag_models").toString()).where("status = 'OK'")
        .orderBy("app_id").collectAsList();
  }
}
