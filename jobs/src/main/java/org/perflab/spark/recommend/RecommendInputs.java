package org.perflab.spark.recommend;

import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * What {@code recommend} reads, each table optional but the runs. Read by the job; the transform does no I/O.
 *
 * @param runs the usable runs ({@code org.perflab.spark.prediction.RunTable.SCHEMA})
 * @param classes one row per workload and size class that must get a row: {@code workload_id}, {@code size_class},
 *     {@code runs} (int, applications of the class, usable or not), {@code input_bytes} (long, their median)
 * @param choices {@code predictor_choice}
 * @param sweep {@code sweep_results}, with {@code input_bytes} filled from the swept log where the grid had none
 * @param memory {@code memory_recommendations}
 * @param shuffle {@code workload_id}, {@code size_class}, {@code shuffle_bytes} (long, median per run)
 * @param findings {@code workload_id}, {@code rule}, {@code runs} (long, runs with the finding)
 * @param scaling {@code scaling_fits}
 */
public record RecommendInputs(Dataset<Row> runs, Dataset<Row> classes, Optional<Dataset<Row>> choices,
    Optional<Dataset<Row>> sweep, Optional<Dataset<Row>> memory, Optional<Dataset<Row>> shuffle,
    Optional<Dataset<Row>> findings, Optional<Dataset<Row>> scaling) {}
