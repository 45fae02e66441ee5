package org.perflab.spark.diagnose;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.perflab.stragglers.ColdEvidence;
import org.perflab.stragglers.Feature;
import org.perflab.stragglers.FeatureEvidence;
import org.perflab.stragglers.HostEvidence;
import org.perflab.stragglers.LocalityEvidence;
import org.perflab.stragglers.TaskEvidence;

/** Reads a {@link StragglerEvidence} row into the rules' {@link TaskEvidence}; null becomes NaN (not measured). */
final class EvidenceRows {
  private EvidenceRows() {}

  /**
   * The evidence of one straggler, with the application quantile at index {@code level} of the levels the evidence
   * was built with for BigRoots, and at {@code pccLevel} for the PCC baseline.
   */
  static TaskEvidence of(Row row, int level, int pccLevel) {
    List<Double> values = row.getList(row.fieldIndex("values"));
    List<Double> peers = row.getList(row.fieldIndex("peer_means"));
    List<Double> rhos = row.getList(row.fieldIndex("correlations"));
    List<Object> quantiles = row.getList(row.fieldIndex("quantiles"));
    List<Double> heads = row.getList(row.fieldIndex("heads"));
    List<Double> tails = row.getList(row.fieldIndex("tails"));
    Map<Feature, FeatureEvidence> features = new EnumMap<>(Feature.class);
    for (int i = 0; i < StragglerEvidence.FEATURES.size(); i++) {
      List<Double> q = inner(quantiles.get(i));
      features.put(StragglerEvidence.FEATURES.get(i), new FeatureEvidence(number(values.get(i)),
          number(peers.get(i)), q == null ? Double.NaN : number(q.get(level)), number(rhos.get(i)),
          q == null ? Double.NaN : number(q.get(pccLevel)), number(heads.get(i)), number(tails.get(i))));
    }
    LocalityEvidence locality = new LocalityEvidence(row.getInt(row.fieldIndex("locality_code")),
        row.getDouble(row.fieldIndex("normal_locality_sum")), row.getLong(row.fieldIndex("normal_tasks")));
    Object logSum = row.get(row.fieldIndex("host_log_sum"));
    Object own = row.get(row.fieldIndex("log_ratio"));
    HostEvidence host = logSum == null || own == null ? HostEvidence.NONE
        : HostEvidence.fromLogs(row.getLong(row.fieldIndex("host_tasks")), (Double) logSum, (Double) own);
    Object coldLogSum = row.get(row.fieldIndex("cold_log_sum"));
    Object warmMedian = row.get(row.fieldIndex("warm_median_ms"));
    ColdEvidence cold = ColdEvidence.fromLogs(row.getBoolean(row.fieldIndex("cold")),
        row.getLong(row.fieldIndex("warm_tasks")), warmMedian == null ? Double.NaN : (Double) warmMedian,
        row.getLong(row.fieldIndex("cold_tasks")), coldLogSum == null ? 0 : (Double) coldLogSum,
        ((Number) row.get(row.fieldIndex("duration_ms"))).doubleValue());
    return new TaskEvidence(features, locality, host, cold);
  }

  /** An array nested in an array column: Spark hands it over as a Scala sequence. */
  @SuppressWarnings("unchecked")
  private static List<Double> inner(Object array) {
    return array == null ? null
        : scala.jdk.javaapi.CollectionConverters.asJava((scala.collection.Seq<Double>) array);
  }

  private static double number(Double value) {
    return value == null ? Double.NaN : value;
  }
}
