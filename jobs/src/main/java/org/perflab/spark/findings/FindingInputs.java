package org.perflab.spark.findings;

import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * The tables the findings rules read, each with the columns of its schema: {@code app_features} and
 * {@code stage_features} ({@code org.perflab.spark.features.FeatureTables}), the ingest tables {@code ingest_status} and
 * {@code properties}, and, when they exist, {@code sql_operators} (ingest) and {@code stragglers} ({@code diagnose}).
 * Without {@code sql_operators} the SQL rules emit nothing; without {@code stragglers} data-skew evidence has no
 * straggler count.
 */
public record FindingInputs(Dataset<Row> appFeatures, Dataset<Row> stageFeatures, Dataset<Row> ingestStatus,
    Dataset<Row> properties, Optional<Dataset<Row>> sqlOperators, Optional<Dataset<Row>> stragglers) {}
