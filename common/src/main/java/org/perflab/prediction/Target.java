package org.perflab.prediction;

import java.io.Serializable;

/**
 * What a predictor is asked to predict: the runtime at a configuration and input size.
 *
 * @param configuration the configuration
 * @param inputBytes the input size, bytes
 */
public record Target(Configuration configuration, long inputBytes) implements Serializable {

  /** Task slots at the target. */
  public int totalCores() {
    return configuration.totalCores();
  }
}
