package org.perflab.costmodel;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.perflab.scaling.Nnls;

/**
 * A stage's per-byte and per-record costs, estimated by non-negative least squares ({@link Nnls}) over its tasks:
 * run time (ns) = fixed + Σ cost × volume, one volume per {@link Term} (reference 000 §3.3, option b). A term whose
 * volume is the same in every task (0 included) is absorbed by the fixed cost, and a term whose volume is
 * proportional to an earlier one's (|correlation| ≥ 0.999) cannot be told apart from it; both are reported missing,
 * as is every term when the stage has fewer tasks than free parameters + 1. Per-phase CPU costs (sort, combine,
 * partition, serialize, compress) are not separately visible in event logs and are never estimated here.
 */
public final class StageCostFit {
  private static final double COLLINEAR = 0.999;

  private StageCostFit() {}

  /** The regression terms: a volume per task and the cost statistic its coefficient estimates. */
  public enum Term {
    /** csHdfsReadCost, ns per input byte. */
    HDFS_READ_NS_PER_BYTE(TaskSample::inputBytes),
    /** csLocalIOReadCost, ns per local shuffle byte read. */
    LOCAL_READ_NS_PER_BYTE(TaskSample::shuffleLocalBytes),
    /** csNetworkCost, ns per remote shuffle byte fetched. */
    NETWORK_NS_PER_BYTE(TaskSample::shuffleRemoteBytes),
    /** csComputeCPUCost, ns per record entering Compute (input + shuffle records). */
    COMPUTE_NS_PER_RECORD(t -> t.inputRecords() + t.shuffleReadRecords()),
    /** The whole ShuffleWrite (SCW and merge) per on-disk byte written, ns per byte. */
    SHUFFLE_WRITE_NS_PER_BYTE(TaskSample::shuffleWriteBytes),
    /** A spill's write and read back, ns per on-disk spilled byte. */
    SPILL_NS_PER_BYTE(TaskSample::diskSpilledBytes);

    private final ToDoubleFunction<TaskSample> volume;

    Term(ToDoubleFunction<TaskSample> volume) {
      this.volume = volume;
    }

    public double volume(TaskSample t) {
      return volume.applyAsDouble(t);
    }

    /** The column name in {@code stage_costs}. */
    public String column() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /**
   * The estimate.
   *
   * @param tasks tasks fitted
   * @param fixedNs the fixed cost per task (setup, cleanup, what no term explains), ns; null when not fitted
   * @param costs the estimated terms (ns per byte or per record, ≥ 0)
   * @param missing the terms not estimated, in {@link Term} order
   * @param r2 coefficient of determination of the fit on the tasks; null when not fitted or run times are constant
   */
  public record Result(int tasks, Double fixedNs, Map<Term, Double> costs, List<Term> missing, Double r2) {}

  /** Fits {@code tasks}. */
  public static Result fit(List<TaskSample> tasks) {
    List<Term> used = new ArrayList<>();
    List<Term> missing = new ArrayList<>();
    for (Term term : Term.values()) {
      boolean varies = tasks.stream().mapToDouble(term::volume).distinct().count() > 1;
      boolean distinct = used.stream().noneMatch(u -> Math.abs(correlation(tasks, u, term)) >= COLLINEAR);
      (varies && distinct ? used : missing).add(term);
    }
    if (tasks.size() < used.size() + 2) {
      return new Result(tasks.size(), null, Map.of(), List.of(Term.values()), null);
    }
    double[] x = solve(tasks, used);
    Map<Term, Double> costs = new EnumMap<>(Term.class);
    for (int j = 0; j < used.size(); j++) {
      costs.put(used.get(j), x[j + 1]);
    }
    return new Result(tasks.size(), x[0], costs, missing, r2(tasks, used, x));
  }

  /** NNLS on columns scaled to unit norm (the volumes span 10 orders of magnitude), then scaled back. */
  private static double[] solve(List<TaskSample> tasks, List<Term> used) {
    int m = tasks.size();
    int k = used.size() + 1;
    double[][] a = new double[m][k];
    double[] b = new double[m];
    for (int i = 0; i < m; i++) {
      a[i][0] = 1;
      for (int j = 1; j < k; j++) {
        a[i][j] = used.get(j - 1).volume(tasks.get(i));
      }
      b[i] = tasks.get(i).runNs();
    }
    double[] norms = new double[k];
    for (int j = 0; j < k; j++) {
      for (double[] row : a) {
        norms[j] += row[j] * row[j];
      }
      norms[j] = Math.sqrt(norms[j]);
      for (double[] row : a) {
        row[j] /= norms[j];
      }
    }
    double[] x = Nnls.solve(a, b);
    for (int j = 0; j < k; j++) {
      x[j] /= norms[j];
    }
    return x;
  }

  private static Double r2(List<TaskSample> tasks, List<Term> used, double[] x) {
    double mean = tasks.stream().mapToDouble(TaskSample::runNs).average().orElse(0);
    double total = 0;
    double residual = 0;
    for (TaskSample t : tasks) {
      double predicted = x[0];
      for (int j = 0; j < used.size(); j++) {
        predicted += x[j + 1] * used.get(j).volume(t);
      }
      residual += (t.runNs() - predicted) * (t.runNs() - predicted);
      total += (t.runNs() - mean) * (t.runNs() - mean);
    }
    return total == 0 ? null : 1 - residual / total;
  }

  private static double correlation(List<TaskSample> tasks, Term a, Term b) {
    double n = tasks.size();
    double ma = tasks.stream().mapToDouble(a::volume).sum() / n;
    double mb = tasks.stream().mapToDouble(b::volume).sum() / n;
    double sab = 0;
    double saa = 0;
    double sbb = 0;
    for (TaskSample t : tasks) {
      double da = a.volume(t) - ma;
      double db = b.volume(t) - mb;
      sab += da * db;
      saa += da * da;
      sbb += db * db;
    }
    return saa == 0 || sbb == 0 ? 0 : sab / Math.sqrt(saa * sbb);
  }
}
