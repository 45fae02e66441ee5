package org.perflab.spark.diagnose;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.perflab.stragglers.BigRoots;
import org.perflab.stragglers.Cause;
import org.perflab.stragglers.Feature;
import org.perflab.stragglers.Pcc;
import org.perflab.stragglers.PccThresholds;
import org.perflab.stragglers.TaskEvidence;
import org.perflab.stragglers.StragglerThresholds;
import org.perflab.table.KeyColumns;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The {@code stragglers} table: each {@link StragglerEvidence} row judged by the BigRoots rules and by the PCC
 * baseline, row by row on the executors.
 */
public final class StragglerTable {
  /** The table name under the output root. */
  public static final String NAME = "stragglers";

  /** The schema of {@code stragglers} (docs/tables.md#stragglers). */
  public static final StructType SCHEMA = new StructType()
      .add(KeyColumns.LOG_ID, DataTypes.StringType, false)
      .add(KeyColumns.APP_ID, DataTypes.StringType, false)
      .add(KeyColumns.APP_ATTEMPT_ID, DataTypes.StringType, false)
      .add("stage_id", DataTypes.IntegerType, false)
      .add("stage_attempt_id", DataTypes.IntegerType, false)
      .add("task_id", DataTypes.LongType, false)
      .add("partition_id", DataTypes.IntegerType, true)
      .add("task_index", DataTypes.IntegerType, false)
      .add("executor_id", DataTypes.StringType, true)
      .add("host", DataTypes.StringType, true)
      .add("duration_ms", DataTypes.LongType, false)
      .add("stage_median_ms", DataTypes.DoubleType, false)
      .add("straggler_factor", DataTypes.DoubleType, false)
      .add("causes", DataTypes.createArrayType(DataTypes.StringType, false), false)
      .add("pcc_causes", DataTypes.createArrayType(DataTypes.StringType, false), false)
      .add("features", DataTypes.createMapType(DataTypes.StringType, DataTypes.DoubleType, false), false);

  private StragglerTable() {}

  /**
   * One row counting {@code stragglers} (rows of this table): {@code stragglers} (long) and {@code unexplained} (long,
   * those with no BigRoots cause), in one Spark job.
   */
  public static Dataset<Row> counts(Dataset<Row> stragglers) {
    return stragglers.selectExpr("count(*) AS stragglers", "count_if(size(causes) = 0) AS unexplained");
  }

  /**
   * The stragglers with their causes. {@code evidence} must have been built with the levels {@code [λq, λcq]}, in
   * that order.
   */
  public static Dataset<Row> of(Dataset<Row> evidence, StragglerThresholds thresholds, PccThresholds pcc) {
    return evidence.map((MapFunction<Row, Row>) row -> row(row, thresholds, pcc), Encoders.row(SCHEMA));
  }

  /**
   * The hosts of the {@code SLOW_HOST} stragglers of {@code stragglers} (rows of this table), across their
   * applications: {@code host}, {@code applications} and {@code stragglers} (counts), {@code lost_s} (what they lost,
   * duration − stage median, s), most time lost first, then by host. A host slow in many applications is the machine
   * to look at.
   */
  public static Dataset<Row> slowHosts(Dataset<Row> stragglers) {
    return withCause(stragglers, Cause.SLOW_HOST)
        .groupBy("host")
        .agg(functions.countDistinct(functions.col(KeyColumns.LOG_ID), functions.col(KeyColumns.APP_ID),
                functions.col(KeyColumns.APP_ATTEMPT_ID)).as("applications"),
            functions.count(functions.lit(1)).as("stragglers"), functions.sum(lostSeconds()).as("lost_s"))
        .orderBy(functions.desc("lost_s"), functions.col("host"));
  }

  /** The rows of {@code stragglers} (rows of this table) that BigRoots gave {@code cause}. */
  public static Dataset<Row> withCause(Dataset<Row> stragglers, Cause cause) {
    return stragglers.where(hasCause(cause));
  }

  /** Whether a row of this table is a straggler that BigRoots gave {@code cause}. */
  public static Column hasCause(Cause cause) {
    return functions.array_contains(functions.col("causes"), cause.name());
  }

  /**
   * Whether a row of this table is a straggler whose executor had not warmed up ({@code COLD_EXECUTOR}) and that is
   * not {@code SLOW_HOST} too: one that is both is the slow host's, whose fix (another host) removes it. The
   * {@code COLD_EXECUTORS} finding and the regressions' cold-executor sign count the same stragglers.
   */
  public static Column coldNotSlowHost() {
    return hasCause(Cause.COLD_EXECUTOR).and(functions.not(hasCause(Cause.SLOW_HOST)));
  }

  /** What a straggler lost, s: its duration less its stage's median, (duration_ms − stage_median_ms) ÷ 1000. */
  public static Column lostSeconds() {
    return functions.col("duration_ms").minus(functions.col("stage_median_ms")).divide(1000.0);
  }

  /** The quantile levels {@link #of} needs the evidence built with. */
  public static List<Double> levels(StragglerThresholds thresholds, PccThresholds pcc) {
    return List.of(thresholds.lambdaQ(), pcc.lambdaCq());
  }

  private static Row row(Row e, StragglerThresholds thresholds, PccThresholds pcc) {
    TaskEvidence evidence = EvidenceRows.of(e, 0, 1);
    Object[] values = new Object[SCHEMA.size()];
    for (int i = 0; i <= 12; i++) {
      values[i] = e.get(e.fieldIndex(SCHEMA.fields()[i].name()));
    }
    values[13] = names(BigRoots.causes(evidence, thresholds));
    values[14] = names(Pcc.causes(evidence, pcc));
    values[15] = CollectionConverters.asScala(features(evidence));
    return RowFactory.create(values);
  }

  private static scala.collection.immutable.Seq<String> names(Set<Cause> causes) {
    List<String> names = new ArrayList<>();
    causes.forEach(c -> names.add(c.name()));
    return CollectionConverters.asScala(names).toList();
  }

  /** The measured features of the straggler by {@link Feature#key()}, and its locality code. */
  private static Map<String, Double> features(TaskEvidence evidence) {
    Map<String, Double> features = new LinkedHashMap<>();
    for (Feature f : StragglerEvidence.FEATURES) {
      double value = evidence.feature(f).value();
      if (!Double.isNaN(value)) {
        features.put(f.key(), value);
      }
    }
    features.put(Feature.LOCALITY.key(), (double) evidence.locality().code());
    return features;
  }
}
