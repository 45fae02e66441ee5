package org.perflab.stragglers;

/**
 * The PCC baseline's thresholds (reference 002 §2.1.4, Eq. 3.6): a feature is a cause when the absolute Pearson
 * correlation between it and task duration over the stage exceeds {@code lambdaCa} and the feature exceeds its
 * application's {@code lambdaCq}-quantile. Both in [0, 1].
 */
public record PccThresholds(double lambdaCa, double lambdaCq) implements java.io.Serializable {
  /** No value in the thesis: a moderate correlation. */
  public static final double DEFAULT_LAMBDA_CA = 0.5;
  /** No value in the thesis: the same level as BigRoots' λq. */
  public static final double DEFAULT_LAMBDA_CQ = 0.9;

  public PccThresholds {
    StragglerThresholds.requireRange("lambda-ca", lambdaCa, 0.0, 1.0);
    StragglerThresholds.requireRange("lambda-cq", lambdaCq, 0.0, 1.0);
  }

  public static PccThresholds defaults() {
    return new PccThresholds(DEFAULT_LAMBDA_CA, DEFAULT_LAMBDA_CQ);
  }
}
