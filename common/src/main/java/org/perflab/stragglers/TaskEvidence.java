package org.perflab.stragglers;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * Everything the rules know about one straggler: its features (absent = not measured), its locality, how its host
 * ran the application's other tasks, and whether it was among its executor's first tasks.
 */
public record TaskEvidence(Map<Feature, FeatureEvidence> features, LocalityEvidence locality, HostEvidence host,
    ColdEvidence cold) {
  public TaskEvidence {
    features = Collections.unmodifiableMap(features.isEmpty() ? new EnumMap<>(Feature.class) : new EnumMap<>(features));
    host = host == null ? HostEvidence.NONE : host;
    cold = cold == null ? ColdEvidence.NONE : cold;
  }

  /** Evidence with nothing known of the straggler's executor. */
  public TaskEvidence(Map<Feature, FeatureEvidence> features, LocalityEvidence locality, HostEvidence host) {
    this(features, locality, host, ColdEvidence.NONE);
  }

  /** Evidence without a known host. */
  public TaskEvidence(Map<Feature, FeatureEvidence> features, LocalityEvidence locality) {
    this(features, locality, HostEvidence.NONE, ColdEvidence.NONE);
  }

  /** The evidence of one feature; all-NaN when not measured. */
  public FeatureEvidence feature(Feature feature) {
    FeatureEvidence e = features.get(feature);
    return e != null ? e : FeatureEvidence.of(Double.NaN, Double.NaN, Double.NaN);
  }
}
