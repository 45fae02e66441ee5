package org.perflab.sweep;

import java.io.Serializable;
import org.perflab.sim.Model;

/**
 * Maps a grid point to the simulator model of the application at that configuration. Rules that also change task
 * durations (a cost model, memory pressure) implement this interface; {@link Baseline} only changes the slots.
 * Implementations must be deterministic and serializable (Spark ships them to executors), and should throw
 * {@link org.perflab.errors.BadInputException} for a point they cannot model.
 */
public interface ScalingRule extends Serializable {

  /** The rule's name, as {@code --rule} takes it and {@code sweep_results.rule} records it. */
  String name();

  /** The model at {@code point}, with {@code taskCpus} CPUs per task. */
  Model apply(Model base, GridPoint point, int taskCpus);

  /** The rule for a {@code --rule} name. */
  static ScalingRule named(String name) {
    if (Baseline.NAME.equals(name)) {
      return new Baseline();
    }
    throw new org.perflab.errors.BadInputException("Cannot use rule: unknown rule (" + name + "; one of baseline)");
  }

  /** The baseline rule: Nodes = executors × cores ÷ task CPUs; task durations do not change. */
  record Baseline() implements ScalingRule {
    public static final String NAME = "baseline";

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public Model apply(Model base, GridPoint point, int taskCpus) {
      int slots = point.slots(taskCpus);
      org.perflab.errors.BadInputException.require(slots >= 1,
          "Cannot apply rule baseline: %d executors × %d cores ÷ %d task CPUs leave no task slot",
          point.executors(), point.coresPerExecutor(), taskCpus);
      return base.withNodes(slots);
    }
  }
}
