package org.perflab.dagmodel;

import java.io.Serializable;
import org.perflab.sim.Model;

/**
 * A run with its model: application id, workload, task slots, measured duration (seconds), model, and input size
 * (bytes, as {@code workloads.input_bytes}; 0 when it read nothing or is not known).
 */
public record ModelledRun(String appId, String workload, int slots, double actualS, Model model, long inputBytes)
    implements Serializable {

  /** A run whose input size is not known (0). */
  public ModelledRun(String appId, String workload, int slots, double actualS, Model model) {
    this(appId, workload, slots, actualS, model, 0L);
  }
}
