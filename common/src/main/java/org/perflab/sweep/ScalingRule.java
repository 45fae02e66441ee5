package org.perflab.sweep;

import java.io.Serializable;
import org.perflab.dagmodel.DataScaling;
import org.perflab.errors.BadInputException;
import org.perflab.sim.Model;

/**
 * Maps a grid point to the simulator model of the application at that configuration. Rules that also change task
 * durations (a cost model, memory pressure) implement this interface; {@link Baseline} only changes the slots,
 * {@link InputSize} also the input size. Implementations must be deterministic and serializable (Spark ships them to
 * executors), and should throw {@link BadInputException} for a point they cannot model.
 */
public interface ScalingRule extends Serializable {

  /** The rule's name, as {@code --rule} takes it and {@code sweep_results.rule} records it. */
  String name();

  /** The model at {@code point}, with {@code taskCpus} CPUs per task. */
  Model apply(Model base, GridPoint point, int taskCpus);

  /** Whether the rule reads the points' input sizes; a grid with input sizes needs such a rule. */
  default boolean scalesInput() {
    return false;
  }

  /**
   * Whether the rule reads the points' shuffle codec and serializer; a grid with codecs or serializers needs such a
   * rule.
   */
  default boolean modelsShuffleSettings() {
    return false;
  }

  /** The rule for a {@code --rule} name; {@code input-size} takes the source's input from the model's stages. */
  static ScalingRule named(String name) {
    return named(name, 0L);
  }

  /**
   * The rule for a {@code --rule} name; {@code sourceInputBytes} is the swept run's input size in bytes, for
   * {@code input-size} (0: the sum of the model's stage {@code inputBytes}).
   */
  static ScalingRule named(String name, long sourceInputBytes) {
    if (Baseline.NAME.equals(name)) {
      return new Baseline();
    }
    if (InputSize.NAME.equals(name)) {
      return new InputSize(sourceInputBytes);
    }
    BadInputException.require(!"phase-cost".equals(name), "Cannot use rule phase-cost: it needs the swept run's"
        + " properties and stage_costs (sweep --dag-models DIR --costs ROOT, %s)", "docs/costmodel.md");
    throw new BadInputException("Cannot use rule: unknown rule (" + name + "; one of baseline, input-size,"
        + " phase-cost)");
  }

  /** Task slots at {@code point}: executors × cores ÷ task CPUs; bad input when that leaves none. */
  private static int slots(String rule, GridPoint point, int taskCpus) {
    int slots = point.slots(taskCpus);
    BadInputException.require(slots >= 1,
        "Cannot apply rule %s: %d executors × %d cores ÷ %d task CPUs leave no task slot", rule,
        point.executors(), point.coresPerExecutor(), taskCpus);
    return slots;
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
      return base.withNodes(slots(NAME, point, taskCpus));
    }
  }

  /**
   * The input-size rule: the slots as {@link Baseline}, and the model scaled from the source's input to the point's
   * by {@link DataScaling} (tasks per stage from splits, per-task durations from each stage's bytes per task). A
   * point without input size keeps the source's input.
   *
   * @param sourceInputBytes the swept run's input size in bytes; 0 takes the sum of the model's stage
   *     {@code inputBytes}
   */
  record InputSize(long sourceInputBytes) implements ScalingRule {
    public static final String NAME = "input-size";

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public boolean scalesInput() {
      return true;
    }

    @Override
    public Model apply(Model base, GridPoint point, int taskCpus) {
      int slots = slots(NAME, point, taskCpus);
      if (point.inputBytes() == 0) {
        return base.withNodes(slots);
      }
      DataScaling.requireInputBytes(base);
      long source = sourceInputBytes > 0 ? sourceInputBytes : DataScaling.inputBytes(base);
      return DataScaling.scale(base, DataScaling.ratio(source, point.inputBytes())).withNodes(slots);
    }
  }
}
