package org.perflab.dagmodel;

import java.io.Serializable;
import org.perflab.sim.Model;

/** A run with its model: application id, workload, task slots, measured duration (seconds) and model. */
public record ModelledRun(String appId, String workload, int slots, double actualS, Model model)
    implements Serializable {}
