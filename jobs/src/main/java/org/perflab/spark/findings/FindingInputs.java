package org.perflab.spark.findings;

import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.expressions.UserDefinedFunction;
import org.apache.spark.sql.api.java.UDF0;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;

/**
 * The tables the findings rules read, each with the columns of its schema: {@code app_features} and
 * {@code stage_features} ({@code org.perflab.spark.features.FeatureTables}), the ingest tables {@code ingest_status} and
 * {@code properties}, and, when they exist, {@code sql_operators} (ingest), {@code stragglers} ({@code diagnose}),
 * {@code jobs} and {@code stages} (ingest). Without {@code sql_operators} the SQL rules emit nothing; without
 * {@code stragglers} data-skew evidence has no straggler count; without {@code jobs} and {@code stages} no stage is known
 * to run outside Spark SQL ({@link OutsideSql}: {@code jobs} tells by a stage's job, {@code stages} by its RDDs'
 * scopes).
 */
public record FindingInputs(Dataset<Row> appFeatures, Dataset<Row> stageFeatures, Dataset<Row> ingestStatus,
    Dataset<Row> properties, Optional<Dataset<Row>> sqlOperators, Optional<Dataset<Row>> stragglers,
    Optional<Dataset<Row>> jobs, Optional<Dataset<Row>> stages) {

  /** The same inputs without ingest's {@code stages}: no stage is told from SQL by its RDDs' scopes. */
  public FindingInputs(Dataset<Row> appFeatures, Dataset<Row> stageFeatures, Dataset<Row> ingestStatus,
      Dataset<Row> properties, Optional<Dataset<Row>> sqlOperators, Optional<Dataset<Row>> stragglers,
      Optional<Dataset<Row>> jobs) {
    this(appFeatures, stageFeatures, ingestStatus, properties, sqlOperators, stragglers, jobs, Optional.empty());
  }

  /**
   * Always true, and declared non-deterministic so that the optimiser keeps every filter above it where it is: a
   * filter is pushed neither through a non-deterministic filter nor into the scan below one.
   */
  private static final UserDefinedFunction SCAN_BARRIER =
      functions.udf((UDF0<Boolean>) () -> true, DataTypes.BooleanType).asNonNullable().asNondeterministic();

  /**
   * The same rows, with the tables that several rules read ({@code app_features}, {@code stage_features},
   * {@code properties}, {@code sql_operators}, {@code stragglers}) behind a filter that keeps each rule's own filters out of their scans,
   * so that the rules' scans of a table are alike and Delta Lake, which lists a scan's files in a Spark query and job
   * of its own, once per distinct scan of a plan, lists fewer (the samples' findings: 9–12 listing jobs of 25–28,
   * against 25–26 of 43–45; docs/benchmarks.md). The rules' filters then apply to the rows read instead of choosing
   * files, which for these tables (a few rows per stage or operator of the logs diagnosed) prunes little anyway.
   */
  FindingInputs withSharedScans() {
    return new FindingInputs(behindBarrier(appFeatures), behindBarrier(stageFeatures), ingestStatus, behindBarrier(properties),
        sqlOperators.map(FindingInputs::behindBarrier), stragglers.map(FindingInputs::behindBarrier), jobs, stages);
  }

  private static Dataset<Row> behindBarrier(Dataset<Row> table) {
    return table.where(SCAN_BARRIER.apply());
  }
}
