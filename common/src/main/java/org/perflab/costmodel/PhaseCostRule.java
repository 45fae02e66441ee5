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
 * executors, cores per executor (and so memory per task and waves), when the grid has memory the executor heap, and
 * when the grid has them the shuffle codec and serializer, whose costs relative to the source's come from
 * {@code table} ({@link CostModel#whatIf(CostConfig, ClusterStats, List, WhatIf, CodecCostTable)}); partitions stay
 * the source's ({@code shufflePartitions} overrides them for every point). A simulator stage without a
 * {@link StageSpec} of the same name keeps its durations.
 *
 * @param source the swept run's configuration
 * @param stats its cluster statistics
 * @param stages the cost model's stages, named as the simulator model's, in topological order
 * @param shufflePartitions the partitions to predict at (0: the source's)
 * @param table the measured shuffle costs per codec and serializer ({@link CodecCostTable#shipped()})
 */
public record PhaseCostRule(CostConfig source, ClusterStats stats, List<StageSpec> stages, int shufflePartitions,
    CodecCostTable table) implements ScalingRule {
  public static final String NAME = "phase-cost";
  private static final double GIB = 1024.0 * 1024 * 1024;

  /** The rule with the shipped codec cost table. */
  public PhaseCostRule(CostConfig source, ClusterStats stats, List<StageSpec> stages, int shufflePartitions) {
    this(source, stats, stages, shufflePartitions, CodecCostTable.shipped());
  }

  public PhaseCostRule {
    stages = List.copyOf(stages);
    java.util.Objects.requireNonNull(table, "table");
    BadInputException.require(shufflePartitions >= 0, "Cannot use rule %s: negative shuffle partitions (%d; ≥ 0)",
        NAME, shufflePartitions);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public boolean modelsShuffleSettings() {
    return true;
  }

  /** The configuration at {@code point}. */
  public WhatIf change(GridPoint point) {
    WhatIf w = WhatIf.NONE.withExecutors(point.executors()).withCoresPerExecutor(point.coresPerExecutor());
    w = point.executorMemoryGb() > 0 ? w.withExecutorMemoryBytes(Math.round(point.executorMemoryGb() * GIB)) : w;
    w = point.codec() != null ? w.withCodec(point.codec()) : w;
    w = point.serializer() != null ? w.withSerializer(point.serializer()) : w;
    return shufflePartitions > 0 ? w.withShufflePartitions(shufflePartitions) : w;
  }

  /**
   * Per stage name, the mean taskTime at {@code point} ÷ that at the source. Bad input when the point's codec or
   * serializer, or the source's, is not in {@code table}.
   */
  public Map<String, Double> factors(GridPoint point) {
    List<StageEstimate> before = CostModel.estimate(source, stats, stages);
    List<StageEstimate> after = CostModel.whatIf(source, stats, stages, change(point), table);
    Map<String, Double> f = new HashMap<>();
    for (int i = 0; i < before.size(); i++) {
      double b = before.get(i).meanTaskNs();
      f.put(before.get(i).spec().name(), b > 0 ? after.get(i).meanTaskNs() / b : 1.0);
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
