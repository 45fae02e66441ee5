package org.perflab.prediction;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.perflab.dagmodel.NearestRun;
import org.perflab.dagmodel.ScaledPrediction;
import org.perflab.errors.BadInputException;
import org.perflab.sim.Model;
import org.perflab.sim.ModelReader;

/**
 * The three predictors of a run's simulator model ({@code dag_models.model_json}): the training run nearest to the
 * target ({@link NearestRun}: input size first, then total cores; the median-duration run of that configuration) has
 * its model scaled to the target's input size and slots ({@link ScaledPrediction}, docs/simulator.md), then
 * simulated ({@code simulator}), bounded by fork-join ({@code fork_join}) and solved by the task-precedence AMVA
 * ({@code task_precedence}). The three share each scaled prediction. Runs without a model (a runtime table, or a
 * log the simulator could not model) are not candidates; with none, each predictor gives null with a note.
 */
public final class SimulatorFamily implements java.io.Serializable {
  public static final String SIMULATOR = "simulator";
  public static final String FORK_JOIN = "fork_join";
  public static final String TASK_PRECEDENCE = "task_precedence";

  private final Map<String, String> modelJson;
  private final int apps;
  private final long seed;
  private transient Map<String, Model> models;
  private transient Map<String, Outcome> memo;

  /** A prediction or why there is none. */
  private record Outcome(ScaledPrediction prediction, String note) {}

  /**
   * @param modelJsonByRunKey each run's model, dagSim JSON, by run key
   * @param apps applications simulated per prediction
   * @param seed the simulator's seed
   */
  public SimulatorFamily(Map<String, String> modelJsonByRunKey, int apps, long seed) {
    this.modelJson = new HashMap<>(modelJsonByRunKey);
    this.apps = apps;
    this.seed = seed;
  }

  /** The three predictors, in the harness's order. */
  public List<Predictor> predictors() {
    List<Predictor> out = new ArrayList<>();
    out.add(new View(SIMULATOR, this));
    out.add(new View(FORK_JOIN, this));
    out.add(new View(TASK_PRECEDENCE, this));
    return out;
  }

  /** One of the three answers. */
  private record View(String name, SimulatorFamily family) implements Predictor {
    @Override
    public Estimate predict(List<Measured> training, Target target) {
      Outcome o = family.outcome(training, target);
      if (o.prediction() == null) {
        return Estimate.none(o.note());
      }
      ScaledPrediction p = o.prediction();
      return switch (name) {
        case SIMULATOR -> Estimate.of(p.simulatedS());
        case FORK_JOIN -> Estimate.of(p.forkJoinS());
        default -> Estimate.of(p.taskPrecedenceS());
      };
    }
  }

  private Outcome outcome(List<Measured> training, Target target) {
    List<Run> candidates = new ArrayList<>();
    training.forEach(m -> m.members().stream().filter(r -> modelJson.containsKey(r.runKey()))
        .forEach(candidates::add));
    if (candidates.isEmpty()) {
      return new Outcome(null, "Cannot simulate: no training run has a simulator model (event logs modelled by "
          + "perflab model; a runtime table has none)");
    }
    Run source = NearestRun.choose(candidates, r -> new NearestRun.RunPoint(r.inputBytes(), r.totalCores(),
        r.durationS()), target.inputBytes(), target.totalCores()).orElseThrow();
    String key = source.runKey() + "|" + target.totalCores() + "|" + target.inputBytes();
    return memo().computeIfAbsent(key, k -> simulate(source, target));
  }

  private Outcome simulate(Run source, Target target) {
    try {
      Model model = models().computeIfAbsent(source.runKey(), k -> ModelReader.parse(modelJson.get(k), k));
      return new Outcome(ScaledPrediction.predict(model, source.inputBytes(), target.totalCores(),
          target.inputBytes(), apps, seed), null);
    } catch (BadInputException e) {
      return new Outcome(null, String.format(Locale.ROOT, "Cannot simulate from %s: %s", source.runKey(),
          e.getMessage()));
    }
  }

  private Map<String, Model> models() {
    if (models == null) {
      models = new ConcurrentHashMap<>();
    }
    return models;
  }

  private Map<String, Outcome> memo() {
    if (memo == null) {
      memo = new ConcurrentHashMap<>();
    }
    return memo;
  }
}
