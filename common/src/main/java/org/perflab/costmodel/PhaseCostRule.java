package org.perflab.costmodel;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.perflab.errors.BadInputException;
import org.perflab.sim.Model;
import org.perflab.sim.Stage;
import org.perflab.sweep.GridPoint;
import org.perflab.sweep.ScalingRule;

/**
 * The {@code phase-cost} scaling rule: the slots as the baseline rule, and each stage's task durations multiplied by
 * the cost model's taskTime at the grid point ÷ its taskTime at the swept run's configuration. The point sets
 * executors, cores per executor (and so memory per task and waves) and, when the grid has memory, the executor heap;
 * codec, serializer and partitions stay the source's ({@code shufflePartitions} overrides the last for every point).
 * A simulator stage without a {@link StageSpec} of the same name keeps its durations.
 *
 * @param source the swept run's configuration
 * @param stats its cluster statistics
 * @param stages the cost model's stages, named as the simulator model's, in topological order
 * @param shufflePartitions the partitions to predict at (0: the source's)
 */
public record PhaseCostRule(CostConfig source, ClusterStats stats, List<StageSpec> stages, int shufflePartitions)
    implements ScalingRule {
  public static final String NAME = "phase-cost";
  private static final double GIB = 1024.0 * 1024 * 1024;

  public PhaseCostRule {
    stages = List.copyOf(stages);
    BadInputException.require(shufflePartitions >= 0, "Cannot use rule %s: negative shuffle partitions (%d; ≥ 0)",
        NAME, shufflePartitions);
  }

  @Override
  public String name() {
    return NAME;
  }

  /** The configuration at {@code point}. */
  public WhatIf change(GridPoint point) {
    WhatIf w = WhatIf.NONE.withExecutors(point.executors()).withCoresPerExecutor(point.coresPerExecutor());
    w = point.executorMemoryGb() > 0 ? w.withExecutorMemoryBytes(Math.round(point.executorMemoryGb() * GIB)) : w;
    return shufflePartitions > 0 ? w.withShufflePartitions(shufflePartitions) : w;
  }

  /** Per stage name, taskTime at {@code point} ÷ taskTime at the source. */
  public Map<String, Double> factors(GridPoint point) {
    List<StageEstimate> before = CostModel.estimate(source, stats, stages);
    List<StageEstimate> after = CostModel.whatIf(source, stats, stages, change(point));
    Map<String, Double> f = new HashMap<>();
    for (int i = 0; i < before.size(); i++) {
      double b = before.get(i).task().taskNs();
      f.put(before.get(i).spec().name(), b > 0 ? after.get(i).task().taskNs() / b : 1.0);
    }
    return f;
  }

  @Override
  public Model apply(Model base, GridPoint point, int taskCpus) {
    BadInputException.require(taskCpus == source.taskCpus(), "Cannot apply rule %s: spark.task.cpus differs from"
        + " the source configuration's (%d; %d)", NAME, taskCpus, source.taskCpus());
    int slots = point.slots(taskCpus);
    BadInputException.require(slots >= 1, "Cannot apply rule %s: %d executors × %d cores ÷ %d task CPUs leave no"
        + " task slot", NAME, point.executors(), point.coresPerExecutor(), taskCpus);
    Map<String, Double> factors = factors(point);
    List<Stage> scaled = new ArrayList<>();
    for (Stage s : base.stages()) {
      double f = factors.getOrDefault(s.name(), 1.0);
      scaled.add(f == 1.0 ? s : s.withDistribution(s.distribution().scaled(f)));
    }
    return new Model(scaled, slots, base.users(), base.thinkTime(), base.maxJobs(), base.confIntCoeff(), base.seed(),
        base.taskChoice());
  }
}
