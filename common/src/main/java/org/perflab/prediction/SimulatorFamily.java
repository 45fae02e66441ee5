package org.perflab.prediction;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.perflab.changes.StageRef;
import org.perflab.dagmodel.NearestRun;
import org.perflab.dagmodel.ScaledPrediction;
import org.perflab.dagmodel.StageFit;
import org.perflab.errors.BadInputException;
import org.perflab.sim.Model;
import org.perflab.sim.ModelReader;
import org.perflab.sim.Stage;

/**
 * The four predictors of the runs' simulator models ({@code dag_models.model_json}): the training run nearest to the
 * target ({@link NearestRun}: input size first, then total cores; the median-duration run of that configuration) has
 * its model scaled to the target's input size and slots ({@link ScaledPrediction}, docs/simulator.md), then
 * simulated ({@code simulator}), bounded by fork-join ({@code fork_join}) and solved by the task-precedence AMVA
 * ({@code task_precedence}). The three share each scaled prediction. The fourth, {@value #STAGES}, fits each stage
 * across the training runs' models before it simulates ({@link StageFit}; a stage's counterparts in the other runs
 * found by {@link org.perflab.changes.StageMatcher} from {@code dag_models.stage_refs}). Runs without a model (a
 * runtime table, or a log the simulator could not model) are not candidates; with none, each predictor gives null
 * with a note.
 *
 * <p>Of the four, only {@value #STAGES} is a candidate of the selection, and a {@link Candidacy#FALLBACK} one; the
 * others ({@link Candidacy#NEVER}) give their rows for every held-out configuration, measured like every predictor,
 * but are never chosen. The fork-join bound and the AMVA are a bound and an approximation of the very model the
 * simulator solves exactly, not estimates of their own; and {@value #STAGES} is the simulator's own prediction with
 * more of the training runs in it: the same template simulated on the target's slots, with each stage's tasks and
 * work taken from its counterparts in the other runs where they vary, and calibrated to the template's measured
 * runtime; where the other runs show nothing, it is the simulator's prediction so calibrated. It is a member of the
 * blend ({@link Predictors#all}), which weighs it where its inner errors near the target are low; it is compared by
 * the selection only where no candidate that models the configuration has inner evidence (a workload of few
 * configurations, where a model is often the only predictor that can). Over the cems event logs, the only shared
 * data set with models, the selection erred 10.4 % with the simulator as an ordinary candidate, 9.7 % with {@value
 * #STAGES}, and 8.7 % with {@value #STAGES} a member of the blend and a fallback candidate (docs/prediction.md,
 * "stages").
 */
public final class SimulatorFamily implements java.io.Serializable {
  public static final String SIMULATOR = "simulator";
  public static final String FORK_JOIN = "fork_join";
  public static final String TASK_PRECEDENCE = "task_precedence";
  /** The DAG-aware predictor: each stage's work fitted across the runs ({@link StageFit}), then simulated. */
  public static final String STAGES = "stages";

  private final Map<String, RunModel> runModels;
  private final int apps;
  private final long seed;
  private transient Map<String, Model> models;
  private transient Map<String, Outcome> memo;
  private transient Map<String, Double> selfSimulated;
  /** Each template run's stages' counterparts in another run, by "template run key|run key". */
  private transient Map<String, List<Stage>> counterparts;

  /** A prediction or why there is none. */
  private record Outcome(ScaledPrediction prediction, String note) {}

  /**
   * @param modelsByRunKey each run's model (dagSim JSON and its stages' places), by run key
   * @param apps applications simulated per prediction
   * @param seed the simulator's seed
   */
  public SimulatorFamily(Map<String, RunModel> modelsByRunKey, int apps, long seed) {
    this.runModels = new HashMap<>(modelsByRunKey);
    this.apps = apps;
    this.seed = seed;
  }

  /** The four predictors, in the harness's order. */
  public List<Predictor> predictors() {
    List<Predictor> out = new ArrayList<>();
    out.add(new View(SIMULATOR, this));
    out.add(new View(FORK_JOIN, this));
    out.add(new View(TASK_PRECEDENCE, this));
    out.add(new Stages(this));
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

    /** None of the three is a candidate: see {@link SimulatorFamily}. */
    @Override
    public Candidacy candidacy() {
      return Candidacy.NEVER;
    }
  }

  /**
   * The DAG-aware predictor ({@value #STAGES}): the nearest training run's model (as the simulator's) with each
   * stage's task durations scaled to the target's slots by {@link StageFit} over every training run's model, scaled to
   * the target's input and simulated on its slots; then calibrated by the source run's measured runtime over the
   * simulation of its own model at its own configuration, so that what the model leaves out (the driver's gaps the
   * model does not hold) stays as it was measured.
   */
  private record Stages(SimulatorFamily family) implements Predictor {
    @Override
    public String name() {
      return STAGES;
    }

    @Override
    public Estimate predict(List<Measured> training, Target target) {
      return family.stages(training, target);
    }

    /** The family's one candidate, a fallback: see {@link SimulatorFamily}. */
    @Override
    public Candidacy candidacy() {
      return Candidacy.FALLBACK;
    }
  }

  private static final String NO_MODEL = "Cannot simulate: no training run has a simulator model (event logs "
      + "modelled by perflab model; a runtime table has none)";

  private Estimate stages(List<Measured> training, Target target) {
    List<Run> candidates = candidates(training);
    if (candidates.isEmpty()) {
      return Estimate.none(NO_MODEL);
    }
    Run source = nearest(candidates, target);
    try {
      Model template = model(source);
      List<StageFit.Observation> observations = new ArrayList<>();
      List<List<Stage>> counterparts = new ArrayList<>();
      for (Run r : candidates) {
        StageFit.Observation o = new StageFit.Observation(model(r), r.totalCores(), r.inputBytes(), stages(r));
        observations.add(o);
        counterparts.add(counterparts().computeIfAbsent(source.runKey() + "|" + r.runKey(),
            k -> StageFit.counterparts(template, stages(source), o)));
      }
      Model fitted = StageFit.at(template, source.totalCores(), source.inputBytes(), observations, counterparts,
          target.totalCores(), target.inputBytes());
      double at = ScaledPrediction.simulatedMean(fitted, source.inputBytes(), target.totalCores(),
          target.inputBytes(), apps, seed);
      double self = selfSimulated().computeIfAbsent(source.runKey(), k -> ScaledPrediction.simulatedMean(template,
          source.inputBytes(), source.totalCores(), source.inputBytes(), apps, seed));
      return self > 0 ? Estimate.of(at * source.durationS() / self) : Estimate.none(String.format(Locale.ROOT,
          "Cannot calibrate the stages of %s: its model simulates to %s s", source.runKey(), self));
    } catch (BadInputException e) {
      return Estimate.none(String.format(Locale.ROOT, "Cannot simulate from %s: %s", source.runKey(),
          e.getMessage()));
    }
  }

  /** The training runs with a model. */
  private List<Run> candidates(List<Measured> training) {
    List<Run> candidates = new ArrayList<>();
    training.forEach(m -> m.members().stream().filter(r -> runModels.containsKey(r.runKey()))
        .forEach(candidates::add));
    return candidates;
  }

  private static Run nearest(List<Run> candidates, Target target) {
    return NearestRun.choose(candidates, r -> new NearestRun.RunPoint(r.inputBytes(), r.totalCores(),
        r.durationS()), target.inputBytes(), target.totalCores()).orElseThrow();
  }

  private Model model(Run run) {
    return models().computeIfAbsent(run.runKey(), k -> ModelReader.parse(runModels.get(k).json(), k));
  }

  private List<StageRef> stages(Run run) {
    return runModels.get(run.runKey()).stages();
  }

  private Map<String, List<Stage>> counterparts() {
    if (counterparts == null) {
      counterparts = new ConcurrentHashMap<>();
    }
    return counterparts;
  }

  private Map<String, Double> selfSimulated() {
    if (selfSimulated == null) {
      selfSimulated = new ConcurrentHashMap<>();
    }
    return selfSimulated;
  }

  private Outcome outcome(List<Measured> training, Target target) {
    List<Run> candidates = candidates(training);
    if (candidates.isEmpty()) {
      return new Outcome(null, NO_MODEL);
    }
    Run source = nearest(candidates, target);
    String key = source.runKey() + "|" + target.totalCores() + "|" + target.inputBytes();
    return memo().computeIfAbsent(key, k -> simulate(source, target));
  }

  private Outcome simulate(Run source, Target target) {
    try {
      Model model = model(source);
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
