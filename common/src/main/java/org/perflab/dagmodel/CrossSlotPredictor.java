package org.perflab.dagmodel;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.perflab.queueing.ForkJoinBound;
import org.perflab.queueing.TaskPrecedenceAmva;
import org.perflab.sim.Engine;
import org.perflab.sim.Model;

/**
 * Predicts each run's duration from every other run of the same workload at another slot count: the model of the
 * source run with the target's slots (task durations unchanged), simulated for {@code apps} applications, beside the
 * fork-join bound and the task-precedence AMVA of the same model.
 */
public final class CrossSlotPredictor {
  /** AMVA convergence threshold (seconds) and iteration cap. */
  static final double AMVA_EPSILON_S = 1e-6;
  static final int AMVA_MAX_ITERATIONS = 1000;

  private CrossSlotPredictor() {}

  /** Every ordered pair of runs of one workload with different slots, in workload, source, target order. */
  public static List<Prediction> predict(List<ModelledRun> runs, int apps, long seed) {
    Map<String, List<ModelledRun>> byWorkload = new LinkedHashMap<>();
    runs.stream().sorted(Comparator.comparing(ModelledRun::workload).thenComparing(ModelledRun::appId))
        .forEach(r -> byWorkload.computeIfAbsent(r.workload(), k -> new ArrayList<>()).add(r));
    List<Prediction> out = new ArrayList<>();
    for (List<ModelledRun> group : byWorkload.values()) {
      for (ModelledRun from : group) {
        for (ModelledRun to : group) {
          if (from.slots() != to.slots()) {
            out.add(predict(from, to, apps, seed));
          }
        }
      }
    }
    return out;
  }

  static Prediction predict(ModelledRun from, ModelledRun to, int apps, long seed) {
    Model model = from.model().withNodes(to.slots()).withMaxJobs(apps);
    double simulated = new Engine(model).run(seed).execution().mean();
    double forkJoin = ForkJoinBound.predict(model, to.slots()).upperBound();
    double amva = TaskPrecedenceAmva.solve(model, to.slots(), AMVA_EPSILON_S, AMVA_MAX_ITERATIONS).responseTime();
    return new Prediction(from.workload(), from.appId(), to.appId(), from.slots(), to.slots(), to.actualS(),
        simulated, forkJoin, amva);
  }

  /** Mean absolute percentage error of one predictor over the predictions; NaN when there are none. */
  public static double mape(List<Prediction> predictions, ToDoubleFunction<Prediction> errorPct) {
    return predictions.stream().mapToDouble(p -> Math.abs(errorPct.applyAsDouble(p))).average().orElse(Double.NaN);
  }
}
