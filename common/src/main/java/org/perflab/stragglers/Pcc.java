package org.perflab.stragglers;

import java.util.EnumSet;
import java.util.Set;

/**
 * The Pearson-correlation baseline (reference 002 §2.1.4, Eq. 3.6; Magalhaes &amp; Silva): a feature is a cause of a
 * straggler when {@code |ρ| > λca} and {@code F > quantile_λcq(F)}, ρ being the correlation of the feature with task
 * duration over the straggler's stage (the reference leaves stage or application open; the stage is where the
 * straggler's peers are). Locality is not a numeric feature and has no correlation here.
 */
public final class Pcc {
  private Pcc() {}

  /** Eq. 3.6 for one feature. */
  public static boolean holds(FeatureEvidence e, PccThresholds t) {
    return Math.abs(e.correlation()) > t.lambdaCa() && e.value() > e.pccQuantile();
  }

  /** The straggler's causes by the baseline, in the vocabulary's order. */
  public static Set<Cause> causes(TaskEvidence evidence, PccThresholds thresholds) {
    Set<Cause> causes = EnumSet.noneOf(Cause.class);
    for (Feature feature : Feature.values()) {
      if (feature.category() != Category.LOCALITY && holds(evidence.feature(feature), thresholds)) {
        causes.add(feature.cause());
      }
    }
    return causes;
  }

  /** Pearson's ρ of two equally long series; NaN when either is constant or shorter than 2. */
  public static double correlation(double[] x, double[] y) {
    int n = x.length;
    if (n < 2 || y.length != n) {
      return Double.NaN;
    }
    double mx = 0;
    double my = 0;
    for (int i = 0; i < n; i++) {
      mx += x[i] / n;
      my += y[i] / n;
    }
    double sxy = 0;
    double sxx = 0;
    double syy = 0;
    for (int i = 0; i < n; i++) {
      sxy += (x[i] - mx) * (y[i] - my);
      sxx += (x[i] - mx) * (x[i] - mx);
      syy += (y[i] - my) * (y[i] - my);
    }
    return sxx == 0 || syy == 0 ? Double.NaN : sxy / Math.sqrt(sxx * syy);
  }
}
