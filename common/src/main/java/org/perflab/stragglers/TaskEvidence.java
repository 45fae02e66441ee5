package org.perflab.stragglers;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * Everything the rules know about one straggler: its features (absent = not measured), its locality, and how its host
 * ran the application's other tasks.
 */
public record TaskEvidence(Map<Feature, FeatureEvidence> features, LocalityEvidence locality, HostEvidence host) {
  public TaskEvidence {
    features = Collections.unmodifiableMap(features.isEmpty() ? new EnumMap<>(Feature.class) : new EnumMap<>(features));
    host = host == null ? HostEvidence.NONE : host;
  }

  /** Evidence without a known host. */
  public TaskEvidence(Map<Feature, FeatureEvidence> features, LocalityEvidence locality) {
    this(features, locality, HostEvidence.NONE);
  }

  /** The evidence of one feature; all-NaN when not measured. */
  public FeatureEvidence feature(Feature feature) {
    FeatureEvidence e = features.get(feature);
    return e != null ? e : FeatureEvidence.of(Double.NaN, Double.NaN, Double.NaN);
  }
}
