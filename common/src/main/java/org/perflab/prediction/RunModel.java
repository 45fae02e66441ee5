package org.perflab.prediction;

import java.io.Serializable;
import java.util.List;
import org.perflab.changes.StageRef;

/**
 * A run's simulator model as {@code dag_models} keeps it: the dagSim JSON ({@code model_json}) and where each of the
 * model's stages {@code S<id>} sits in the run ({@code stage_refs}: job position and call site, for
 * {@link org.perflab.changes.StageMatcher}; empty for a row written before the column existed).
 */
public record RunModel(String json, List<StageRef> stages) implements Serializable {
  public RunModel {
    stages = List.copyOf(stages);
  }
}
