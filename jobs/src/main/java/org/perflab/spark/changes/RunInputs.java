package org.perflab.spark.changes;

import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.perflab.errors.BadInputException;
import org.perflab.spark.diagnose.StragglerTable;
import org.perflab.spark.environment.EffectiveProperties;
import org.perflab.spark.features.FeatureTables;
import org.perflab.spark.storage.TableStore;
import org.perflab.table.Table;

/**
 * The tables the changes jobs read: the {@code features} tables and the ingest tables they were derived from.
 * {@code sqlOperators} is empty when the root has no SQL; {@code stragglers} (of {@code diagnose}) when it was not
 * diagnosed: the attribution then has no slow-host evidence. {@code properties} holds the SPARK properties only
 * ({@link EffectiveProperties#spark}: per log in {@code properties} in every layout, so no property set is joined):
 * the changes jobs compare Spark's configuration, not the JVM's or the class path.
 */
public record RunInputs(Dataset<Row> workloads, Dataset<Row> appFeatures, Dataset<Row> stageFeatures,
    Dataset<Row> applications, Dataset<Row> stages, Dataset<Row> executors, Dataset<Row> properties,
    Optional<Dataset<Row>> sqlOperators, Optional<Dataset<Row>> stragglers) {

  /**
   * Reads the tables under {@code root}.
   *
   * @param job the job's name, for the message when a table is missing
   * @throws BadInputException naming the job to run first when a table is missing
   */
  public static RunInputs read(TableStore root, String job) {
    return new RunInputs(features(root, job, FeatureTables.WORKLOADS_TABLE),
        features(root, job, FeatureTables.APP_FEATURES_TABLE), features(root, job, FeatureTables.STAGE_FEATURES_TABLE),
        ingest(root, job, Table.APPLICATIONS), ingest(root, job, Table.STAGES), ingest(root, job, Table.EXECUTORS),
        EffectiveProperties.spark(root).orElseThrow(() -> missing(root, job, Table.PROPERTIES)),
        root.read(Table.SQL_OPERATORS), root.read(StragglerTable.NAME));
  }

  private static Dataset<Row> features(TableStore root, String job, String table) {
    return root.read(table).orElseThrow(() -> new BadInputException(String.format(
        "Cannot %s: no %s table under %s (run perflab features --input %s first)", job, table, root.root(),
        root.root())));
  }

  /**
   * The ingest table {@code table} under {@code root}.
   *
   * @throws BadInputException naming {@code ingest} when it is missing
   */
  public static Dataset<Row> ingest(TableStore root, String job, Table table) {
    return root.read(table).orElseThrow(() -> missing(root, job, table));
  }

  private static BadInputException missing(TableStore root, String job, Table table) {
    return new BadInputException(String.format(
        "Cannot %s: no ingest table %s under %s (run perflab ingest --output %s first)", job, table.tableName(),
        root.root(), root.root()));
  }
}
