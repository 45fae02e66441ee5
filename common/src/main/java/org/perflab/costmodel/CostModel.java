package org.perflab.costmodel;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.perflab.errors.BadInputException;

/**
 * Stage chaining and the what-if (reference 000 §4.1–4.2): stages in topological order, each parent's map output
 * (eqs. 43–44) feeding its children's ShuffleRead (11–12), and stage times on the sequential-stage simple simulator
 * of §6.3 (waves of the cluster's slots, stages one after another). The DAG simulator in {@code org.perflab.sim}
 * replays stages with their measured durations; this class only predicts per-task times and how they change.
 */
public final class CostModel {
  private CostModel() {}

  /** Every stage's estimate under {@code config}; {@code stages} in topological order (parents first). */
  public static List<StageEstimate> estimate(CostConfig config, ClusterStats stats, List<StageSpec> stages) {
    PhaseModel model = new PhaseModel(config, stats);
    Map<String, double[]> output = new HashMap<>();
    List<StageEstimate> r = new ArrayList<>();
    for (StageSpec s : stages) {
      double bytes = 0;
      double recs = 0;
      for (String parent : s.parents()) {
        double[] o = output.get(parent);
        BadInputException.require(o != null, "Cannot model stage %s: parent %s is not an earlier shuffle-map stage"
            + " (%s)", s.name(), parent, output.keySet());
        bytes += o[0];
        recs += o[1];
      }
      int next = nextTasks(s, stages);
      TaskEstimate t = model.task(s, bytes, recs, next);
      if (t.shuffleWrite() != null) {
        output.put(s.name(), new double[] {t.shuffleWrite().writeBytes() * s.tasks(),
            t.shuffleWrite().writeRecords() * s.tasks()});
      }
      double meanTaskNs = meanTaskNs(model, s, bytes, recs, next, t);
      int waves = (s.tasks() + config.slots() - 1) / config.slots();
      r.add(new StageEstimate(s, t, waves, waves * meanTaskNs, meanTaskNs));
    }
    return r;
  }

  /** The stages' estimates after {@code change}. */
  public static List<StageEstimate> whatIf(CostConfig config, ClusterStats stats, List<StageSpec> stages,
      WhatIf change) {
    return estimate(change.apply(config), stats, change.apply(stages));
  }

  /**
   * The stages' estimates after {@code change}, for statistics fitted on the run configured as {@code config}: a codec
   * or serializer change takes {@code table}'s measured ratios to the run's own codec and serializer
   * ({@link WhatIf#apply(CostConfig, ClusterStats, CodecCostTable)}).
   */
  public static List<StageEstimate> whatIf(CostConfig config, ClusterStats stats, List<StageSpec> stages,
      WhatIf change, CodecCostTable table) {
    return estimate(change.apply(config), change.apply(config, stats, table), change.apply(stages));
  }

  /**
   * The mean taskTime over the stage's task sizes ({@link StageSpec#sizeRatios()}): a task of ratio r reads r times
   * the mean split and r times the mean share of its parents' output. {@code average} when the stage has no spread.
   */
  private static double meanTaskNs(PhaseModel model, StageSpec s, double bytes, double recs, int next,
      TaskEstimate average) {
    if (s.sizeRatios().isEmpty()) {
      return average.taskNs();
    }
    double sum = 0;
    for (double ratio : s.sizeRatios()) {
      sum += model.task(s.scaled(ratio), bytes * ratio, recs * ratio, next).taskNs();
    }
    return sum / s.sizeRatios().size();
  }

  /** Sum of the stage times, ns: the job time of stages that run one after another. */
  public static double totalNs(List<StageEstimate> estimates) {
    return estimates.stream().mapToDouble(StageEstimate::stageNs).sum();
  }

  /** pNextTaskNum: the task count of the first stage reading {@code s}'s output, or {@code s}'s own without one. */
  static int nextTasks(StageSpec s, List<StageSpec> stages) {
    return stages.stream().filter(c -> c.parents().contains(s.name())).mapToInt(StageSpec::tasks).findFirst()
        .orElse(s.tasks());
  }
}
