package org.perflab.queueing;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.perflab.sim.Model;
import org.perflab.sim.Stage;

/**
 * The fork-join bound of Nelson and Tantawi as the paper behind reference 001 uses it: a phase of work whose mean
 * per-core time is {@code R_core} takes between {@code R_core} and {@code H_K · R_core} on {@code K} cores, and an
 * application's prediction is the sum over its sequential phases of the upper bound. Times are in the unit of
 * {@code R_core}.
 */
public final class ForkJoinBound {
  private ForkJoinBound() {}

  /** Lower bound (sum of per-core times) and prediction (sum of {@code H_K · R_core}) over phases. */
  public record Prediction(double lowerBound, double upperBound) {}

  /** The K-th harmonic number 1 + 1/2 + … + 1/K. */
  public static double harmonic(int k) {
    if (k < 1) {
      throw new IllegalArgumentException("Cannot compute H_K: K must be >= 1 (" + k + ")");
    }
    double h = 0;
    for (int i = k; i >= 1; i--) {
      h += 1.0 / i;
    }
    return h;
  }

  /** The bound over phases with per-core times {@code rCore} on {@code k} cores. */
  public static Prediction predict(int k, double... rCore) {
    double sum = 0;
    for (double r : rCore) {
      sum += r;
    }
    return new Prediction(sum, harmonic(k) * sum);
  }

  /**
   * The model's sequential phases: a stage that is an ancestor or a descendant of every other stage is a phase of
   * its own, and the stages between two such cut stages form one phase. Returns stage names per phase, in order.
   */
  public static List<List<String>> phases(Model model) {
    List<Stage> stages = model.stages();
    int n = stages.size();
    PrecedenceGraph graph = PrecedenceGraph.of(model);
    List<List<String>> phases = new ArrayList<>();
    List<String> current = new ArrayList<>();
    for (int s : graph.order) {
      boolean cut = true;
      for (int o = 0; o < n && cut; o++) {
        cut = o == s || graph.ordered(s, o);
      }
      if (cut) {
        if (!current.isEmpty()) {
          phases.add(current);
          current = new ArrayList<>();
        }
        phases.add(List.of(stages.get(s).name()));
      } else {
        current.add(stages.get(s).name());
      }
    }
    if (!current.isEmpty()) {
      phases.add(current);
    }
    return phases;
  }

  /**
   * The bound for a model on {@code k} cores: per phase, {@code R_core} = the phase's total mean task work divided
   * by {@code k}.
   */
  public static Prediction predict(Model model, int k) {
    Map<String, Integer> index = model.stageIndex();
    List<List<String>> phases = phases(model);
    double[] rCore = new double[phases.size()];
    for (int p = 0; p < rCore.length; p++) {
      for (String name : phases.get(p)) {
        Stage s = model.stages().get(index.get(name));
        rCore[p] += s.tasks() * s.distribution().mean() / k;
      }
    }
    return predict(k, rCore);
  }
}
