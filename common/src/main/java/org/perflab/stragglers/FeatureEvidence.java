package org.perflab.stragglers;

/**
 * One feature of one straggler, with what the rules compare it to. NaN stands for "not measured" and fails every
 * comparison, so an unmeasured feature is never a cause.
 *
 * @param value the task's feature: ratio to the stage mean ({@link Category#NUMERIC}), share of the task's duration
 *     ({@link Category#TIME}) or host utilisation during the task ({@link Category#RESOURCE})
 * @param peerMean mean of the same feature over the stage's other successful tasks
 * @param appQuantile the λq-quantile of the feature over every successful task of the application
 * @param correlation Pearson correlation of the feature with task duration over the stage (PCC baseline); NaN when
 *     either is constant
 * @param pccQuantile the λcq-quantile of the feature over the application (PCC baseline)
 * @param headMean resource features: mean utilisation over the t seconds before the task; NaN otherwise
 * @param tailMean resource features: mean utilisation over the t seconds after the task; NaN otherwise
 */
public record FeatureEvidence(
    double value, double peerMean, double appQuantile, double correlation, double pccQuantile, double headMean,
    double tailMean) {

  /** Evidence of a numeric or time feature (no edge windows). */
  public static FeatureEvidence of(double value, double peerMean, double appQuantile) {
    return new FeatureEvidence(value, peerMean, appQuantile, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
  }

  /** This evidence with the edge windows of a resource feature. */
  public FeatureEvidence withEdges(double head, double tail) {
    return new FeatureEvidence(value, peerMean, appQuantile, correlation, pccQuantile, head, tail);
  }

  /** This evidence with the PCC baseline's correlation and quantile. */
  public FeatureEvidence withPcc(double rho, double quantile) {
    return new FeatureEvidence(value, peerMean, appQuantile, rho, quantile, headMean, tailMean);
  }
}
