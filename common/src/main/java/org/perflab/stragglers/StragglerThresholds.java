package org.perflab.stragglers;

import org.perflab.errors.BadInputException;

/**
 * The named thresholds of straggler detection and of the BigRoots root-cause rules (reference 002 §2.1.3, §5.2
 * A2–A3), validated against the ranges of the thesis's Table 4 where it gives them.
 *
 * @param stragglerFactor a task is a straggler when its duration exceeds this many times its stage's median (Mantri's
 *     1.5)
 * @param lambdaP peer multiplier λp: a feature must exceed λp × the mean of its stage peers, in [0, 4]
 * @param lambdaQ quantile level λq: a feature must exceed its application's λq-quantile, in [0.1, 1]
 * @param lambdaT time share λT: a time feature must exceed this share of the task's duration, in [0, 1]
 * @param lambdaE edge-detection factor λe: host utilisation in the windows before and after the task must exceed
 *     λe × the utilisation during it, in [0, 1]
 * @param edgeWindowS length t of those windows, seconds, at least 1
 */
public record StragglerThresholds(
    double stragglerFactor, double lambdaP, double lambdaQ, double lambdaT, double lambdaE, int edgeWindowS)
    implements java.io.Serializable {
  /** Mantri's and the thesis's straggler factor. */
  public static final double DEFAULT_STRAGGLER_FACTOR = 1.5;
  /** λp default: the reference's worked numeric-rule case (test 4). */
  public static final double DEFAULT_LAMBDA_P = 1.5;
  /** λq default: the reference's worked numeric-rule case (test 4). */
  public static final double DEFAULT_LAMBDA_Q = 0.9;
  /** λT default: the middle of the reference's suggested 0.1–0.3 (no value in the thesis). */
  public static final double DEFAULT_LAMBDA_T = 0.2;
  /** λe default: inside the reference's suggested [0.5, 1.0] (no value in the thesis). */
  public static final double DEFAULT_LAMBDA_E = 0.8;
  /** t default: the reference suggests 3–5 s for 1 s samples. */
  public static final int DEFAULT_EDGE_WINDOW_S = 5;

  public static final double LAMBDA_P_MIN = 0.0;
  public static final double LAMBDA_P_MAX = 4.0;
  public static final double LAMBDA_Q_MIN = 0.1;
  public static final double LAMBDA_Q_MAX = 1.0;

  public StragglerThresholds {
    BadInputException.require(stragglerFactor > 1.0, "Cannot diagnose: the straggler factor must be > 1 (%s)",
        stragglerFactor);
    requireRange("--lambda-p", lambdaP, LAMBDA_P_MIN, LAMBDA_P_MAX);
    requireRange("--lambda-q", lambdaQ, LAMBDA_Q_MIN, LAMBDA_Q_MAX);
    requireRange("--lambda-t", lambdaT, 0.0, 1.0);
    requireRange("lambda-e", lambdaE, 0.0, 1.0);
    BadInputException.require(edgeWindowS >= 1, "Cannot diagnose: the edge window must be >= 1 s (%d)", edgeWindowS);
  }

  /** The defaults above. */
  public static StragglerThresholds defaults() {
    return new StragglerThresholds(DEFAULT_STRAGGLER_FACTOR, DEFAULT_LAMBDA_P, DEFAULT_LAMBDA_Q, DEFAULT_LAMBDA_T,
        DEFAULT_LAMBDA_E, DEFAULT_EDGE_WINDOW_S);
  }

  /** These thresholds with another λp and λq (a grid point). */
  public StragglerThresholds withPeerAndQuantile(double p, double q) {
    return new StragglerThresholds(stragglerFactor, p, q, lambdaT, lambdaE, edgeWindowS);
  }

  /** Throws {@code Cannot diagnose: <name> must be in [min, max] (value)} unless min <= value <= max. */
  static void requireRange(String name, double value, double min, double max) {
    BadInputException.require(value >= min && value <= max, "Cannot diagnose: %s must be in [%s, %s] (%s)", name,
        min, max, value);
  }
}
