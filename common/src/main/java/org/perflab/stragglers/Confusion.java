package org.perflab.stragglers;

/**
 * Counts of root-cause decisions against ground truth and the rates the thesis reports (Tables 3 and 6), with the
 * grid search's objective {@code TPR + 1 − FPR} (§2.1.5).
 */
public record Confusion(long tp, long fp, long tn, long fn) {
  public Confusion plus(Confusion o) {
    return new Confusion(tp + o.tp, fp + o.fp, tn + o.tn, fn + o.fn);
  }

  /** TP / (TP + FN); 0 with no positives. */
  public double tpr() {
    return tp + fn == 0 ? 0 : (double) tp / (tp + fn);
  }

  /** FP / (FP + TN); 0 with no negatives. */
  public double fpr() {
    return fp + tn == 0 ? 0 : (double) fp / (fp + tn);
  }

  /** (TP + TN) / all; 0 with no decisions. */
  public double accuracy() {
    long all = tp + fp + tn + fn;
    return all == 0 ? 0 : (double) (tp + tn) / all;
  }

  /** The objective the thesis maximises: TPR + 1 − FPR (Youden's J + 1). */
  public double score() {
    return tpr() + 1 - fpr();
  }

  /**
   * One straggler's decisions over the whole cause vocabulary: a cause is positive when it is the expected one
   * (none when {@code expected} is null: an injection that cannot be attributed, or no injection) and predicted when
   * it is in {@code predicted}.
   */
  public static Confusion of(java.util.Set<Cause> predicted, Cause expected) {
    long tp = 0;
    long fp = 0;
    long tn = 0;
    long fn = 0;
    for (Cause cause : Cause.values()) {
      boolean positive = cause == expected;
      boolean said = predicted.contains(cause);
      if (positive) {
        tp += said ? 1 : 0;
        fn += said ? 0 : 1;
      } else {
        fp += said ? 1 : 0;
        tn += said ? 0 : 1;
      }
    }
    return new Confusion(tp, fp, tn, fn);
  }
}
